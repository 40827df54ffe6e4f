// A run the machine leaves undecided is played again, then called inconclusive (R19, harness/suite/replay.ts).
// The runner is this test's process, so the test stalls it for real, as runner-stall.real.test.ts does: once the
// runner has read the shim's result line (a spy on the stdout socket's `data` event), the test busy-waits on the
// runner's thread. Without an
// exit watcher (as on macOS: its /proc poller is switched off here), an exit the runner sees only after the stall
// may have happened at any time during it, so process.exit-after-result is undecided, by the machine.
// - stalled on the first attempt only: the run is played again and passes, both attempts kept;
// - stalled on every attempt: after 3 attempts the required run is inconclusive and the suite exits 3.

import { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exitWatcher } from '../../harness/process/exit-watcher.js';
import { notVerifiedLine } from '../../harness/rules/not-verified.js';
import { runSuiteWithResults } from '../helpers/nothing-left-open.js';
import { fixtureShim } from './helpers/run-fixture.js';

afterEach(() => vi.restoreAllMocks());

const RESULT = Buffer.from('"type":"result"');

/**
 * Long enough that even with all of the shim's last 0.4 s excused as CPU wait (a loaded machine), the latest it
 * can have exited is past the 2 s.
 */
const STALL_MS = 5000;

/** Runs plain-text, stalling the runner STALL_MS once it has read each result line, on the first `stalledAttempts`. */
async function runStalled(stalledAttempts: number) {
  vi.spyOn(exitWatcher, 'watch').mockReturnValue(undefined);
  let stalls = 0;
  const socketEmit = Socket.prototype.emit;
  vi.spyOn(Socket.prototype, 'emit').mockImplementation(function (
    this: Socket,
    event: string | symbol,
    ...args: unknown[]
  ) {
    const handled = Reflect.apply(socketEmit, this, [event, ...args]) as boolean;
    const [chunk] = args;
    if (event === 'data' && stalls < stalledAttempts && Buffer.isBuffer(chunk) && chunk.includes(RESULT)) {
      stalls += 1;
      // The runner's listener has the chunk; nothing else of the runner runs until this returns.
      const until = performance.now() + STALL_MS;
      while (performance.now() < until) {
        // stalled: the shim exits meanwhile, unseen
      }
    }
    return handled;
  } as Socket['emit']);
  const outcome = await runSuiteWithResults({
    shim: fixtureShim('exits-soon-after-result.mjs'),
    scenarios: ['plain-text'],
    providers: ['openai-chat'],
  });
  return { ...outcome, stalls };
}

const linux = process.platform === 'linux';

describe.runIf(linux)('a run left undecided by a stall of the runner', () => {
  it('is played again, and passes once the machine lets it be judged', async () => {
    const { report, stalls } = await runStalled(1);
    expect(stalls).toBe(1);
    const run = report.runs[0]!;
    expect(run.status, JSON.stringify(run)).toBe('passed');
    expect(run.attempts?.map((attempt) => attempt.status)).toEqual(['not-verified', 'passed']);
    expect(run.attempts?.[0]?.machineUndecided?.[0]?.rule).toBe('process.exit-after-result');
    expect(run.attempts?.[0]?.findings.map((finding) => finding.rule)).not.toContain('scenario.required-verified');
    expect(report.summary.attempts).toBe(2);
    expect(report.exitCode).toBe(0);
  });

  it('is inconclusive after 3 attempts when every one is stalled: exit 3, with the cause', async () => {
    const { report, stalls } = await runStalled(99);
    const run = report.runs[0]!;
    expect(stalls, JSON.stringify(run.attempts, null, 1)).toBe(3);
    expect(run.status, JSON.stringify(run)).toBe('inconclusive');
    expect(run.attempts).toHaveLength(3);
    expect(notVerifiedLine(run.notVerified ?? [])).toMatch(
      /process\.exit-after-result: still running .* after its last result .*the runner could not look meanwhile/,
    );
    expect(run.findings.filter((finding) => finding.severity === 'MUST')).toEqual([]);
    expect(report.summary).toMatchObject({ inconclusive: 1, failed: 0, attempts: 3 });
    expect(report.verdict).toBe('inconclusive');
    expect(report.exitCode).toBe(3);
  });
});
