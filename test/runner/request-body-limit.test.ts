// A request body over the mock's limit is answered 413 without being read, gets a finding, and the run ends
// normally: no crash, no process left, its temporary folder removed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeFindings, fixtureShim, processesTagged, root, runFixture } from './helpers/run-fixture.js';

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

describe('--max-request-body on the command line', () => {
  const cli = (...args: string[]) =>
    spawnSync(
      process.execPath,
      [path.join(root, 'dist', 'cli.js'), fixtureShim('sends-oversized-request-body.mjs'), ...args],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );

  it('sets the limit (2m → a 3 MB body gets 413)', () => {
    const run = cli('--scenario', 'plain-text', '--provider', 'openai-chat', '--max-request-body', '2m');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('requests.body-size');
    expect(run.stdout).toMatch(/2097152 bytes/);
  });

  it('refuses a size it cannot read, naming the flag and a form it takes', () => {
    const run = cli('--max-request-body', 'lots');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--max-request-body must be a size in bytes such as 1048576, 512k or 64m; got "lots"');
  });
});
