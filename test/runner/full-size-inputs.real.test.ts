// Full-size adversarial inputs (npm run test:real): the same behaviour npm test checks with small limits,
// at the default limits.

import { existsSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { describeFindings, fixtureShim, processesTagged, root, runFixture } from './helpers/run-fixture.js';

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

describe('1 GB flood of short valid lines', () => {
  it('is cut at the 64 MB stdout cap with process.output-flood; judging ~2 million lines does not abort', async () => {
    const started = performance.now();
    const result = await runFixture(fixtureShim('floods-1gb-of-lines.mjs'), 'plain-text');
    expect(
      result.findings.map((finding) => finding.rule),
      describeFindings(result),
    ).toContain('process.output-flood');
    expect(result.status).toBe('failed');
    expect(processesTagged(result.tag)).toEqual([]);
    console.log(`1 GB flood: judged in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });
});

describe('60 MB of 2-byte junk lines (under the 64 MB stdout cap)', () => {
  it('run: a framing finding in under 10 s, not a timeout blamed on the shim', async () => {
    const started = performance.now();
    const result = await runFixture(fixtureShim('prints-60mb-of-junk-lines.mjs'), 'plain-text');
    const elapsed = performance.now() - started;
    expect(
      result.findings.map((finding) => finding.rule),
      describeFindings(result),
    ).toContain('framing.single-line-json');
    expect(result.findings.map((finding) => finding.rule)).not.toContain('process.timeout');
    console.log(`run: 60 MB junk judged in ${(elapsed / 1000).toFixed(1)} s`);
    expect(elapsed).toBeLessThan(10_000);
    expect(processesTagged(result.tag)).toEqual([]);
  });

  it.runIf(existsSync('/usr/bin/time'))('validate: judged in under 30 s with under 500 MB RSS', async () => {
    const file = path.join(os.tmpdir(), `yume-junk-60-${process.pid}.jsonl`);
    writeFileSync(file, Buffer.alloc(60 * 1024 * 1024, 'x\n'));
    try {
      const started = performance.now();
      const cli = await execa(
        '/usr/bin/time',
        [
          '-f',
          'maxrss-kb=%M',
          process.execPath,
          path.join(root, 'dist', 'cli.js'),
          'validate',
          file,
          '--reporter',
          'json',
        ],
        { reject: false },
      );
      const elapsed = performance.now() - started;
      const rssKb = Number(/maxrss-kb=(\d+)/.exec(cli.stderr)?.[1]);
      console.log(`validate: 60 MB junk in ${(elapsed / 1000).toFixed(1)} s, max RSS ${(rssKb / 1024).toFixed(0)} MB`);
      expect(cli.exitCode).toBe(1);
      expect(JSON.parse(cli.stdout).runs[0].findings[0].rule).toBe('framing.single-line-json');
      expect(elapsed).toBeLessThan(30_000);
      expect(rssKb).toBeLessThan(500 * 1024);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
