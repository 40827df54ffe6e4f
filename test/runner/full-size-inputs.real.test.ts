// Full-size adversarial inputs (npm run test:real): the same behaviour npm test checks with small limits,
// at the default limits.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeFindings, fixtureShim, processesTagged, runFixture } from './helpers/run-fixture.js';

describe('full-size inputs', () => {
  it('a 512 MB request body against the default 64 MB limit → 413 and requests.body-size, no crash', async () => {
    const started = performance.now();
    const result = await runFixture(fixtureShim('sends-512mb-request-body.mjs'), 'plain-text');
    const finding = result.findings.find((candidate) => candidate.rule === 'requests.body-size');
    expect(finding?.message, describeFindings(result)).toMatch(/answered 413/);
    expect(result.status).toBe('failed');
    expect(existsSync(result.directories!.workspace)).toBe(false);
    expect(processesTagged(result.tag)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(60_000);
  });
});
