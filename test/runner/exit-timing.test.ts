// Judging an exit after its moment (exit-clock.ts exitTiming): on the exit watcher's interval where there is
// one, else on when the runner saw it, dated back over a stall it saw it right after; on the shim's own time.
import { describe, expect, it } from 'vitest';
import { loopStalls } from '../../harness/process/loop-stalls.js';
import { EXIT_GRACE_MS, exitTiming, type TimedExit } from '../../harness/runner/execution/exit-clock.js';

/** A process spawned at performance.now() `startedAt`, seen exiting `seenMs` after its spawn. */
function exited(seenMs: number, extra: Partial<TimedExit['exit']> = {}, startedAt = 0): TimedExit {
  return { exit: { exitedAtMs: seenMs, startedAt, ...extra } };
}

describe('exitTiming', () => {
  it('takes an exit seen within the grace as in time, and one seen late with nothing to excuse it as late', () => {
    expect(exitTiming(exited(1000 + EXIT_GRACE_MS), 'result', 1000)).toEqual({ kind: 'in-time' });
    expect(exitTiming(exited(4000), 'result', 1000)).toEqual({ kind: 'late', elapsedMs: 3000, ownMs: 3000 });
  });

  it('judges on the exit watcher’s interval, not on when the runner could look', () => {
    // Seen 4.5 s after the result (the runner was stalled), gone by 0.35 s after it: in time.
    expect(exitTiming(exited(5500, { exitInterval: { aliveAtMs: 1300, goneByMs: 1350 } }), 'result', 1000)).toEqual({
      kind: 'in-time',
    });
    // Gone between 3.0 and 3.01 s after the result: late, by the watcher's times.
    const late = exitTiming(exited(5500, { exitInterval: { aliveAtMs: 4000, goneByMs: 4010 } }), 'result', 1000);
    expect(late).toEqual({ kind: 'late', elapsedMs: 3010, ownMs: 3000 });
    // Never seen running once watched (it had exited before the watch began): in time if gone soon enough.
    expect(exitTiming(exited(5500, { exitInterval: { goneByMs: 1010 } }), 'result', 1000)).toEqual({
      kind: 'in-time',
    });
  });

  it('without a watcher, dates an exit seen right after a stall back to the stall, and cannot decide across it', () => {
    const origin = performance.now();
    loopStalls.acquire();
    try {
      // A real stall of this thread, 600 ms long.
      const until = performance.now() + 600;
      while (performance.now() < until) {
        // stalled
      }
      const seenAt = performance.now();
      // The moment (a result) came 1.7 s before the stall began; the exit was seen right after the stall ended,
      // 2.3 s after the moment: it happened between 1.7 s and 2.3 s after it, across the 2 s limit.
      const stallStart = until - 600;
      const momentAtMs = stallStart - 1700 - origin;
      const timing = exitTiming(exited(seenAt - origin, {}, origin), 'result', momentAtMs);
      expect(timing.kind).toBe('undecided');
      expect(timing.kind === 'undecided' && timing.why).toMatch(/between 1\.[67] s and 2\.[34] s after it/);
      // The same exit, had the moment come 2.1 s before the stall: late even at the earliest it can have been.
      const late = exitTiming(exited(seenAt - origin, {}, origin), 'result', stallStart - 2100 - origin);
      expect(late.kind).toBe('late');
      expect(late.kind === 'late' && late.ownMs).toBeGreaterThanOrEqual(2100);
    } finally {
      loopStalls.release();
    }
  });
});
