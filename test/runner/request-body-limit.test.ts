// A request body over the mock's limit is answered 413 without being read, gets a finding, and the run ends
// normally: no crash, no process left, its temporary folder removed.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeFindings, fixtureShim, processesTagged, runFixture } from './helpers/run-fixture.js';

describe('request body limit', () => {
  it('a 3 MB body against a 2 MB limit → 413 and requests.body-size', async () => {
    const result = await runFixture(fixtureShim('sends-oversized-request-body.mjs'), 'plain-text', {
      maxRequestBodyBytes: 2 * 1024 * 1024,
    });
    const finding = result.findings.find((candidate) => candidate.rule === 'requests.body-size');
    expect(finding?.message, describeFindings(result)).toMatch(/over the mock's limit \(2097152 bytes.*answered 413/);
    expect(result.status).toBe('failed');
    expect(result.requests[0]?.status).toBe(413);
    expect(result.processes[0]?.stdout.toString()).toContain('request failed: 413');
    expect(existsSync(result.directories!.workspace)).toBe(false);
    expect(processesTagged(result.tag)).toEqual([]);
  });

  it('the same body under the default limit (64 MB) is read and judged as usual', async () => {
    const result = await runFixture(fixtureShim('sends-oversized-request-body.mjs'), 'plain-text');
    expect(result.findings.map((finding) => finding.rule)).not.toContain('requests.body-size');
    expect(result.requests[0]?.status).not.toBe(413);
  });
});
