// A runner whose own event loop stalls (a loaded CI machine, another run's checks, a sharded suite on two
// cores) must not blame the shim for the time it could not watch it: the exit deadline counts the shim's own
// time (fair-deadline.ts). Here the runner is this test's process, so the test stalls it for real: once the
// shim has printed its result and the runner has read it (the shim marks that moment in a file), the test
// busy-waits 2.7 s on the runner's thread while the shim exits. Proven both ways: the conforming shim
// passes, and a shim that runs on after its result still fails process.exit-after-result.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformanceWithResults } from '../../harness/index.js';
import { fixtureShim } from './helpers/run-fixture.js';

const STALL_MS = 2700;
const work = mkdtempSync(path.join(tmpdir(), 'yume-runner-stall-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs plain-text with the shim, stalling this (the runner's) thread once the shim marks its result. */
async function runStalled(shim: string, marker: string) {
  let stalled = false;
  const watcher = setInterval(() => {
    if (stalled || !existsSync(marker)) return;
    stalled = true;
    const until = performance.now() + STALL_MS;
    while (performance.now() < until) {
      // the runner's loop cannot run: no timer fires, no pipe is read
    }
  }, 10);
  try {
    const { report } = await runConformanceWithResults({
      shim,
      scenarios: ['plain-text'],
      providers: ['openai-chat'],
      env: { YUME_TEST_RESULT_MARKER: marker },
    });
    return { report, stalled };
  } finally {
    clearInterval(watcher);
  }
}

describe('a runner stall after the result', () => {
  it('does not fail a shim that exited in time', async () => {
    const { report, stalled } = await runStalled(
      fixtureShim('exits-soon-after-result.mjs'),
      path.join(work, 'in-time'),
    );
    expect(stalled).toBe(true);
    const run = report.runs[0]!;
    expect(
      run.findings.filter((finding) => finding.severity !== 'INFO'),
      JSON.stringify(run.findings),
    ).toEqual([]);
    expect(run.status).toBe('passed');
  });

  it('still fails a shim that runs on after its result', async () => {
    const { report, stalled } = await runStalled(fixtureShim('runs-on-after-result.mjs'), path.join(work, 'runs-on'));
    expect(stalled).toBe(true);
    const run = report.runs[0]!;
    expect(run.status).toBe('failed');
    const finding = run.findings.find((found) => found.rule === 'process.exit-after-result');
    expect(finding?.message).toMatch(/still running \d+\.\d s after its last result .*of it the machine's/);
  });
});
