// A runner whose own event loop stalls (a loaded CI machine, another run's checks, a sharded suite on two
// cores) must neither blame the shim for the time it could not watch it nor let a late exit through because it
// was not watching. Here the runner is this test's process, so the test stalls it for real: once the shim has
// printed its result and the runner has read it (the shim marks that moment in a file), the test busy-waits on
// the runner's thread. The exit is timed by the exit watcher (exit-watcher.ts), whose thread the stall does not
// stop. Both ways:
// - a shim that exits 0.4 s after its result passes, though the runner sees the exit only after a 2.7 s stall;
// - a shim that exits 3 s after its result fails, though that exit too falls inside the (4 s) stall;
// - a shim that runs on after its result still fails, ended by the exit clock.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuiteWithResults } from '../helpers/nothing-left-open.js';
import { fixtureShim } from './helpers/run-fixture.js';

const work = mkdtempSync(path.join(tmpdir(), 'yume-runner-stall-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs plain-text with the shim, stalling this (the runner's) thread for `stallMs` once the shim marks its result. */
async function runStalled(shim: string, name: string, stallMs: number) {
  const marker = path.join(work, name);
  let stalled = false;
  const watcher = setInterval(() => {
    if (stalled || !existsSync(marker)) return;
    stalled = true;
    const until = performance.now() + stallMs;
    while (performance.now() < until) {
      // the runner's loop cannot run: no timer fires, no pipe is read, no exit is seen
    }
  }, 10);
  try {
    const { report } = await runSuiteWithResults({
      shim,
      scenarios: ['plain-text'],
      providers: ['openai-chat'],
      env: { YUME_TEST_RESULT_MARKER: marker },
    });
    expect(stalled).toBe(true);
    return { run: report.runs[0]! };
  } finally {
    clearInterval(watcher);
  }
}

const linux = process.platform === 'linux';

describe('a runner stall after the result', () => {
  it('does not fail a shim that exited in time', async () => {
    const { run } = await runStalled(fixtureShim('exits-soon-after-result.mjs'), 'in-time', 2700);
    expect(
      run.findings.filter((finding) => finding.severity !== 'INFO'),
      JSON.stringify(run.findings),
    ).toEqual([]);
    expect(run.status).toBe('passed');
  });

  it.runIf(linux)('fails a shim that exited late, though the runner was stalled when it did', async () => {
    const { run } = await runStalled(fixtureShim('exits-3s-after-result.mjs'), 'late', 4000);
    expect(run.status).toBe('failed');
    const finding = run.findings.find((found) => found.rule === 'process.exit-after-result');
    // Timed by the watcher (about 3 s), not when the runner could look again (over 4 s).
    expect(finding?.message).toMatch(/^exited (2\.9|3\.\d) s after its last result/);
  });

  it('still fails a shim that runs on after its result', async () => {
    const { run } = await runStalled(fixtureShim('runs-on-after-result.mjs'), 'runs-on', 2700);
    expect(run.status).toBe('failed');
    const finding = run.findings.find((found) => found.rule === 'process.exit-after-result');
    expect(finding?.message).toMatch(
      /still running \d+\.\d s after its last result .*The harness ended its process tree/,
    );
  });
});
