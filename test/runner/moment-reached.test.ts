// scenario.moment-reached (moment-fallback.ts, moment-checks.ts): an interrupt sent by the fallback, because
// the shim never reached the scripted moment in its own time, is the shim's own MUST finding, and the checks
// that assume the moment (the golden of the interrupted turn, the acknowledgement) are not verified rather than
// failed. When the machine's load took the fallback's time, the moment is undecided instead (played again).

import { describe, expect, it } from 'vitest';
import { TimerScope } from '../../harness/process/timer-scope.js';
import { notVerifiedLine } from '../../harness/rules/not-verified.js';
import { CAP_FACTOR } from '../../harness/runner/execution/fair-deadline.js';
import { fallbackRace } from '../../harness/runner/execution/moment-fallback.js';
import { describeFindings, fixtureShim, runFixture } from './helpers/run-fixture.js';

const posix = process.platform !== 'win32';
/** With a 6 s timeout the fallback comes after 3 s of the shim's own time (at most half the timeout). */
const SHORT = { timeoutMs: 6000 };

describe.runIf(posix)('a shim that never reaches the interrupt moment', () => {
  it('gets scenario.moment-reached, and its golden and acknowledgement are not verified, not failed', async () => {
    const result = await runFixture(fixtureShim('waits-silently-for-a-signal.mjs'), 'interrupt', SHORT);
    const details = describeFindings(result);
    const moment = result.findings.filter((finding) => finding.rule === 'scenario.moment-reached');
    expect(moment, details).toHaveLength(1);
    expect(moment[0]!.severity).toBe('MUST');
    expect(moment[0]!.message).toMatch(
      /turn 1: the shim did not reach the scripted moment \(the stalled stream's first text on stdout\): the runner's fallback sent SIGINT \d+\.\d\d s after it began waiting/,
    );
    expect(result.status).toBe('failed');
    expect(result.findings.map((finding) => finding.rule)).not.toContain('golden.text');
    expect(result.findings.map((finding) => finding.rule)).not.toContain('interrupt.acknowledged');
    expect(notVerifiedLine(result.notVerified ?? [])).toMatch(
      /golden\.text: .* not compared: the turn was interrupted or killed by the fallback/,
    );
    expect(notVerifiedLine(result.notVerified ?? [])).toMatch(
      /interrupt\.acknowledged: turn 1: the interrupt came by the fallback/,
    );
    // Not the machine's doing: nothing to play again.
    expect(result.machineUndecided ?? []).toEqual([]);
  });

  it('stays silent on a shim that streams, so the interrupt comes at its moment', async () => {
    const result = await runFixture(fixtureShim('conforming-mini-shim.mjs'), 'interrupt', SHORT);
    expect(result.findings.map((finding) => finding.rule)).not.toContain('scenario.moment-reached');
    expect(result.status, describeFindings(result)).toBe('passed');
  });
});

describe('the fallback of a scripted moment', () => {
  const never = new Promise<never>(() => undefined);

  it('fires after its length of the shim’s own time, the moment missed by the shim', async () => {
    const timers = new TimerScope();
    const started = performance.now();
    const [fallback] = fallbackRace(timers, { cpuWait: () => 0 }, { fallbackMs: 100, moment: 'm' }, never);
    const fired = await fallback!;
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    expect(fired.trigger).toBe('fallback');
    expect(fired.missed).toMatchObject({ moment: 'm', undecided: false });
    timers.close();
  });

  it('waits on while the shim waits for a CPU, and is undecided when the machine took it all', async () => {
    const timers = new TimerScope();
    let waited = 0;
    const [fallback] = fallbackRace(
      timers,
      { cpuWait: () => (waited += 1000) },
      { fallbackMs: 50, moment: 'm' },
      never,
    );
    const fired = await fallback!;
    expect(fired.missed?.undecided).toBe(true);
    expect(fired.missed?.elapsedMs).toBeGreaterThanOrEqual(50 * CAP_FACTOR);
    timers.close();
  });

  it("waits on while the runner's loop stalls (the shim waits for its mock), and is undecided when it stalled throughout", async () => {
    const timers = new TimerScope();
    const allStalled = { stalledMsBetween: (from: number, to: number) => to - from };
    const [fallback] = fallbackRace(
      timers,
      { cpuWait: () => 0 },
      { fallbackMs: 50, moment: 'm', stalls: allStalled },
      never,
    );
    const fired = await fallback!;
    expect(fired.missed?.undecided).toBe(true);
    expect(fired.missed?.elapsedMs).toBeGreaterThanOrEqual(50 * CAP_FACTOR);
    timers.close();
  });

  it("counts only the time the runner's loop ran: half of it stalled, the fallback fires after about twice its length", async () => {
    const timers = new TimerScope();
    const halfStalled = { stalledMsBetween: (from: number, to: number) => (to - from) / 2 };
    const [fallback] = fallbackRace(
      timers,
      { cpuWait: () => 0 },
      { fallbackMs: 100, moment: 'm', stalls: halfStalled },
      never,
    );
    const fired = await fallback!;
    expect(fired.missed).toMatchObject({ moment: 'm', undecided: false });
    expect(fired.missed!.elapsedMs).toBeGreaterThanOrEqual(195);
    expect(fired.missed!.ownMs).toBeGreaterThanOrEqual(100);
    timers.close();
  });
});
