// Deadlines on the shim's own time (fair-deadline.ts): a window's excused part (the run's CPU wait, never a
// stall of the runner's own loop: the shim ran on meanwhile), and a live deadline that is extended for the
// machine's part up to its cap, where it ends undecided.
import { describe, expect, it } from 'vitest';
import { LoopStalls } from '../../../harness/process/loop-stalls.js';
import { TimerScope } from '../../../harness/process/timer-scope.js';
import { CAP_FACTOR, fairDeadline, ownMs, windowTime } from '../../../harness/runner/execution/fair-deadline.js';

/** A CPU-wait clock that grows by `share` of the time passed since it was made. */
function waitingShare(share: number): () => number {
  const from = performance.now();
  return () => (performance.now() - from) * share;
}

describe('fair deadlines', () => {
  it('excuses the CPU wait inside a window, never more than the window', () => {
    expect(windowTime({ at: 0, cpuWaitMs: 100 }, { at: 1000, cpuWaitMs: 400 })).toEqual({
      elapsedMs: 1000,
      excusedMs: 300,
    });
    expect(windowTime({ at: 0, cpuWaitMs: undefined }, { at: 1000, cpuWaitMs: 400 }).excusedMs).toBe(0);
    const time = windowTime({ at: 0, cpuWaitMs: 0 }, { at: 1000, cpuWaitMs: 1900 });
    expect(time).toEqual({ elapsedMs: 1000, excusedMs: 1000 });
    expect(ownMs(time)).toBe(0);
  });

  it('ends after the limit when nothing is excused', async () => {
    const timers = new TimerScope();
    const started = performance.now();
    const outcome = await fairDeadline(timers, 100, undefined);
    expect(outcome.undecided).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    expect(outcome.excusedMs).toBe(0);
  });

  it('does not excuse a stall of the runner’s own loop: the shim ran on meanwhile', async () => {
    const stalls = new LoopStalls();
    stalls.acquire();
    try {
      const timers = new TimerScope();
      const started = performance.now();
      const deadline = fairDeadline(timers, 100, undefined);
      while (performance.now() < started + 300) {
        // the runner's loop is stalled past the deadline
      }
      const outcome = await deadline;
      expect(stalls.stalledMsBetween(started, performance.now())).toBeGreaterThan(200);
      expect(outcome.undecided).toBe(false);
      expect(outcome.excusedMs).toBe(0);
      expect(outcome.elapsedMs).toBeGreaterThanOrEqual(300);
    } finally {
      stalls.release();
    }
  });

  it('waits longer while part of the time is the machine’s', async () => {
    const timers = new TimerScope();
    const started = performance.now();
    const outcome = await fairDeadline(timers, 100, waitingShare(0.5));
    expect(outcome.undecided).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(ownMs(outcome)).toBeGreaterThanOrEqual(100);
  });

  it('ends undecided at its cap when the machine took (nearly) all of it', async () => {
    const timers = new TimerScope();
    let waited = 0;
    const outcome = await fairDeadline(timers, 50, () => (waited += 1000));
    expect(outcome.undecided).toBe(true);
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(50 * CAP_FACTOR);
  });
});
