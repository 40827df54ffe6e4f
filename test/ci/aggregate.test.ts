import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runNodeScript } from './helpers/run-node-script.js';

const aggregate = path.join(repoRoot, 'ci', 'aggregate.mjs');

const passedReport = {
  summary: { passed: 5, failed: 0, warnings: 1, notVerified: 0 },
  runs: [{ scenario: 'plain-text', provider: 'openai-chat', status: 'passed', findings: [] }],
};
const failedReport = {
  summary: { passed: 4, failed: 1, warnings: 0, notVerified: 0 },
  runs: [
    {
      scenario: 'interrupt',
      provider: 'openai-chat',
      status: 'failed',
      findings: [{ rule: 'interrupt.error-result', severity: 'MUST', message: 'no result' }],
    },
  ],
};
const partialReport = {
  summary: { passed: 4, failed: 0, warnings: 0, notVerified: 1 },
  runs: [
    {
      scenario: 'interrupt',
      provider: 'openai-chat',
      status: 'not-verified',
      findings: [],
      notVerified: [{ scope: 'run', cause: 'platform', reason: 'needs POSIX signals' }],
    },
    {
      scenario: 'plain-text',
      provider: 'openai-chat',
      status: 'passed',
      findings: [],
      notVerified: [
        { rule: 'process.exit-after-result', scope: 'check', cause: 'machine', reason: 'too busy' },
        { rule: 'streaming.incremental', scope: 'check', cause: 'machine', reason: 'too busy' },
        { rule: 'process.orphaned-tools', scope: 'check', cause: 'platform', reason: 'no cgroup' },
      ],
    },
  ],
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'yc-aggregate-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Lays out one downloaded artifact the way ci/run-suite.mjs writes it. */
function artifact(os: string, exitCode: number, report?: unknown, extra: Record<string, unknown> = {}) {
  const folder = path.join(dir, 'all', `yume-conformance-${os}`);
  mkdirSync(folder, { recursive: true });
  const info = {
    os,
    arch: 'X64',
    node: 'v22.0.0',
    exitCode,
    reports: { json: 'report.json', junit: 'junit.xml', html: 'report.html' },
    ...extra,
  };
  writeFileSync(path.join(folder, 'run-info.json'), JSON.stringify(info));
  if (report !== undefined) writeFileSync(path.join(folder, 'report.json'), JSON.stringify(report));
}

function run(expect = 'Linux,macOS,Windows') {
  const summaryFile = path.join(dir, 'summary.md');
  const result = runNodeScript(
    aggregate,
    ['--dir', path.join(dir, 'all'), '--expect', expect, '--summary-file', summaryFile],
    { cwd: dir },
  );
  let summary = '';
  try {
    summary = readFileSync(summaryFile, 'utf8');
  } catch {
    // none written
  }
  return { ...result, summary };
}

describe('ci/aggregate.mjs', () => {
  it('passes when every expected OS has a result whose suite exited 0', () => {
    artifact('Linux', 0, passedReport);
    artifact('macOS', 0, passedReport);
    artifact('Windows', 0, passedReport);
    const { status, stdout, summary } = run();
    expect(status).toBe(0);
    expect(stdout).toContain('verified on: Linux, macOS, Windows; failed on: none; not verified on: none');
    expect(summary).toContain('| Linux | v22.0.0 | **passed** | 5 | 0 | 1 | 0 | 0 | 0 |  |');
    expect(summary.match(/\*\*passed\*\*/g)).toHaveLength(3);
  });

  it('lists an OS without results as not verified and fails: a missing OS is never a pass', () => {
    artifact('Linux', 0, passedReport);
    artifact('macOS', 0, passedReport);
    const { status, stdout, summary } = run();
    expect(status).toBe(1);
    expect(summary).toContain('| Windows | | **not verified** |');
    expect(stdout).toContain(
      '::error title=yume-conformance::not verified on Windows: no usable results; this is not a pass',
    );
    expect(stdout).toContain('not verified on: Windows');
  });

  it('fails when one OS failed, and names it', () => {
    artifact('Linux', 0, passedReport);
    artifact('macOS', 1, failedReport);
    artifact('Windows', 0, passedReport);
    const { status, stdout, summary } = run();
    expect(status).toBe(1);
    expect(summary).toContain('| macOS | v22.0.0 | **failed** | 4 | 1 |');
    expect(stdout).toContain('::error title=yume-conformance::failed on macOS');
  });

  it('a suite that wrote no report is not verified, with the reason it recorded', () => {
    artifact('Linux', 0, passedReport);
    artifact('macOS', 0, passedReport);
    artifact('Windows', 2, undefined, { error: 'could not start npx: spawn EPERM' });
    const { status, summary } = run();
    expect(status).toBe(1);
    expect(summary).toContain('| Windows | v22.0.0 | **not verified** |');
    expect(summary).toContain('could not start npx: spawn EPERM; no JSON report (suite exit code 2)');
  });

  it('a declared limitation (exit 0, runs not verified) is "partial" and does not fail the verdict', () => {
    artifact('Linux', 0, passedReport);
    artifact('macOS', 0, passedReport);
    artifact('Windows', 0, partialReport);
    const { status, summary } = run();
    expect(status).toBe(0);
    expect(summary).toContain('| Windows | v22.0.0 | **partial** | 4 | 0 | 0 | 1 | 3 (machine 2, platform 1) | 0 |');
  });

  it('the suite’s exit code wins over a clean report (a stale expected failure fails the run)', () => {
    artifact('Linux', 1, passedReport);
    expect(run('Linux').summary).toContain('| Linux | v22.0.0 | **failed** |');
    expect(run('Linux').status).toBe(1);
  });

  it('failures the suite accepted (exit 0: listed as expected) show as known failures', () => {
    artifact('Linux', 0, failedReport);
    const { status, summary } = run('Linux');
    expect(status).toBe(0);
    expect(summary).toContain('| Linux | v22.0.0 | **known failures** |');
  });

  it('accepts runner labels for the expected OSes', () => {
    artifact('Linux', 0, passedReport);
    artifact('macOS', 0, passedReport);
    artifact('Windows', 0, passedReport);
    expect(run('ubuntu-latest, macos-14, windows-2022').status).toBe(0);
  });

  it('with nothing downloaded, every expected OS is not verified', () => {
    const { status, stdout } = run();
    expect(status).toBe(1);
    expect(stdout).toContain('verified on: none; failed on: none; not verified on: Linux, macOS, Windows');
  });

  it('a broken run-info.json is named and counts as not verified', () => {
    artifact('Linux', 0, passedReport);
    writeFileSync(path.join(dir, 'all', 'yume-conformance-Linux', 'run-info.json'), '{oops');
    const { status, summary } = run('Linux');
    expect(status).toBe(1);
    expect(summary).toMatch(/run-info\.json is not JSON/);
  });

  it('usage errors exit 2 with the expected form', () => {
    const result = runNodeScript(aggregate, ['--dir', dir], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--dir DIR and --expect Linux,macOS,Windows are required');
  });
});
