// Deadlines on the shim's own time (fair-deadline.ts): a window's excused part, and a live deadline that is
// extended for the machine's part up to its cap, where it ends undecided.
import { describe, expect, it } from 'vitest';
import { LoopStalls } from '../../harness/process/loop-stalls.js';
import { TimerScope } from '../../harness/process/timer-scope.js';
import { CAP_FACTOR, fairDeadline, ownMs, windowTime } from '../../harness/runner/fair-deadline.js';

/** Stalls that cover a fixed share of any window. */
function stallingShare(share: number): LoopStalls {
  const stalls = new LoopStalls();
  stalls.stalledMsBetween = (from, to) => (to - from) * share;
  return stalls;
}

describe('fair deadlines', () => {
  it('excuses the runner stalls and the CPU wait inside a window, never more than the window', () => {
    const none = new LoopStalls();
    expect(windowTime({ at: 0, cpuWaitMs: 100 }, { at: 1000, cpuWaitMs: 400 }, none)).toEqual({
      elapsedMs: 1000,
      excusedMs: 300,
    });
    expect(windowTime({ at: 0, cpuWaitMs: undefined }, { at: 1000, cpuWaitMs: 400 }, none).excusedMs).toBe(0);
    const half = stallingShare(0.5);
    const time = windowTime({ at: 0, cpuWaitMs: 0 }, { at: 1000, cpuWaitMs: 900 }, half);
    expect(time).toEqual({ elapsedMs: 1000, excusedMs: 1000 });
    expect(ownMs(time)).toBe(0);
  });

  it('ends after the limit when nothing is excused', async () => {
    const timers = new TimerScope();
    const started = performance.now();
    const outcome = await fairDeadline(timers, 100, undefined, undefined, new LoopStalls());
    expect(outcome.undecided).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    expect(outcome.excusedMs).toBe(0);
  });

  it('waits longer while part of the time is the machine’s', async () => {
    const timers = new TimerScope();
    const started = performance.now();
    const outcome = await fairDeadline(timers, 100, undefined, undefined, stallingShare(0.5));
    expect(outcome.undecided).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(ownMs(outcome)).toBeGreaterThanOrEqual(100);
  });

  it('ends undecided at its cap when the machine took (nearly) all of it', async () => {
    const timers = new TimerScope();
    let waited = 0;
    const outcome = await fairDeadline(timers, 50, () => (waited += 1000), undefined, new LoopStalls());
    expect(outcome.undecided).toBe(true);
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(50 * CAP_FACTOR);
  });
});
