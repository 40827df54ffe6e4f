// --repeat N (harness/suite/replay.ts): each run is played N times, and a run whose outcome class differs
// between them is flaky, a failure unless --flaky-ok. A shim that fails exactly on its second start is flaky;
// the reference shim, played three times, is not.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderHuman } from '../../harness/report/human.js';
import { runSuite } from '../helpers/nothing-left-open.js';
import { fixtureShim } from './helpers/run-fixture.js';

const work = mkdtempSync(path.join(tmpdir(), 'yume-repeat-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function counterDir(name: string): string {
  const dir = path.join(work, name);
  rmSync(dir, { recursive: true, force: true });
  return mkdtempSync(`${dir}-`);
}

const posix = process.platform !== 'win32';

describe.runIf(posix)('--repeat', () => {
  it('reports a run that fails on its second attempt only as flaky, with its attempts, and fails the suite', async () => {
    const report = await runSuite({
      shim: fixtureShim('fails-on-second-attempt.mjs'),
      scenarios: ['plain-text'],
      providers: ['openai-chat'],
      env: { YUME_TEST_COUNTER_DIR: counterDir('flaky') },
      repeat: 3,
    });
    const run = report.runs[0]!;
    expect(run.status).toBe('flaky');
    expect(run.attempts?.map((attempt) => attempt.status)).toEqual(['passed', 'failed', 'passed']);
    expect(run.attempts?.[1]?.findings.some((finding) => finding.severity === 'MUST')).toBe(true);
    expect(report.summary).toMatchObject({ flaky: 1, attempts: 3 });
    expect(report.exitCode).toBe(1);
    expect(renderHuman(report, { color: false })).toMatch(
      /flaky: the outcome differed over 3 attempts \(passed, failed, passed\)/,
    );
  });

  it('makes a flaky run a warning with --flaky-ok', async () => {
    const report = await runSuite({
      shim: fixtureShim('fails-on-second-attempt.mjs'),
      scenarios: ['plain-text'],
      providers: ['openai-chat'],
      env: { YUME_TEST_COUNTER_DIR: counterDir('flaky-ok') },
      repeat: 3,
      flakyOk: true,
    });
    expect(report.runs[0]!.status).toBe('flaky');
    expect(report.exitCode).toBe(0);
  });

  it('reports none flaky for the reference shim played three times', async () => {
    const report = await runSuite({
      scenarios: ['plain-text', 'single-tool', 'tool-error'],
      providers: ['openai-chat', 'anthropic'],
      repeat: 3,
    });
    expect(report.runs.length).toBeGreaterThanOrEqual(6);
    expect(report.runs.filter((run) => run.status === 'flaky')).toEqual([]);
    expect(report.runs.every((run) => run.attempts?.length === 3)).toBe(true);
    expect(report.summary.attempts).toBe(report.runs.length * 3);
    expect(report.exitCode).toBe(0);
  });
});
