// Deadlines judged on the time the shim had, not on the time that passed. The rules give a shim 3 s to print
// streamed text and 2 s to exit; on a loaded machine (CI running other jobs, a suite sharded four ways on two
// cores) the shim can wait a second or more for a CPU. That time (cpu-wait.ts) is the machine's: a live deadline
// that runs out while most of it was the machine's is extended, up to CAP_FACTOR times its length; if it is still
// short then, the check could not be judged on this machine and is reported as not verified rather than failed.
//
// A stall of the runner's own loop is not the shim's time lost: the shim ran on meanwhile, and each deadline
// starts once the shim has all it needs from the mock (a result printed, a signal or EOF sent, a first text chunk
// streamed). What a stall blurs is when the runner saw something, and that is handled where it is seen: a
// deadline lets pending I/O run before it judges (a line printed in time is read first), and an exit is timed by
// a thread the loop cannot stall (exit-watcher.ts), else dated back to the stall it ended (exit-clock.ts).
//
// Where no CPU wait can be read (macOS, Windows) nothing is excused; a deadline that runs out while the machine
// is oversubscribed (load average above the cores, cpu-wait.ts) says so (`oversubscribed`), and a caller whose
// expiry would fail the run treats it as undecided.
import { type CpuWaitClock, machineOversubscribed } from '../../process/cpu-wait.js';
import type { TimerScope } from '../../process/timer-scope.js';

/** How far past its length a deadline is extended for time that was excused. */
export const CAP_FACTOR = 4;
/** A re-armed deadline waits at least this long (no busy re-checking). */
const MIN_REARM_MS = 20;

/** A window's start: when (performance.now()) and the run's CPU wait then. */
export interface WindowStart {
  at: number;
  cpuWaitMs: number | undefined;
}

export interface WindowTime {
  /** ms that passed. */
  elapsedMs: number;
  /** ms of them that were the machine's: the run's processes waited for a CPU. */
  excusedMs: number;
}

export function windowStart(cpuWait: CpuWaitClock | undefined, at = performance.now()): WindowStart {
  return { at, cpuWaitMs: cpuWait?.() };
}

/** Elapsed and excused time of a window from `start` to `end`; a CPU wait not known at both ends counts nothing. */
export function windowTime(start: WindowStart, end: { at: number; cpuWaitMs: number | undefined }): WindowTime {
  const elapsedMs = Math.max(0, end.at - start.at);
  const waited =
    start.cpuWaitMs !== undefined && end.cpuWaitMs !== undefined ? Math.max(0, end.cpuWaitMs - start.cpuWaitMs) : 0;
  return { elapsedMs, excusedMs: Math.min(elapsedMs, waited) };
}

/** The shim's share of a window: what is left once the machine's part is taken out. */
export const ownMs = (time: WindowTime) => time.elapsedMs - time.excusedMs;

/** What the machine's part of a window is, in findings and notes. */
export const MACHINE_CAUSE = 'the shim waited for a CPU';

/** " (1.2 s of it the machine's: …)" when part of a window was excused, else "". */
export function machineShare(elapsedMs: number, ownMs: number | undefined): string {
  if (ownMs === undefined || elapsedMs - ownMs < 50) return '';
  return ` (${((elapsedMs - ownMs) / 1000).toFixed(1)} s of it the machine's: ${MACHINE_CAUSE})`;
}

export interface FairDeadlineOutcome extends WindowTime {
  /** The deadline reached its cap with less than `limitMs` of the shim's own time: load decided, not the shim. */
  undecided: boolean;
  /** No CPU wait could be read, and the machine was oversubscribed when the deadline ran out. */
  oversubscribed: boolean;
}

/**
 * Resolves once `limitMs` of the shim's own time have passed since `start` (or the cap, whichever is first).
 * After each timer it first lets pending I/O run (a line the shim printed in time but that the runner had not
 * read yet is read before the deadline is judged); callers check their own condition again when it resolves.
 */
export async function fairDeadline(
  timers: TimerScope,
  limitMs: number,
  cpuWait: CpuWaitClock | undefined,
  start: WindowStart = windowStart(cpuWait),
): Promise<FairDeadlineOutcome> {
  const capMs = limitMs * CAP_FACTOR;
  let waitMs = limitMs - (performance.now() - start.at);
  for (;;) {
    await timers.delay(Math.max(waitMs, 0));
    await new Promise<void>((resolve) => setImmediate(resolve));
    const cpuWaitMs = cpuWait?.();
    const time = windowTime(start, { at: performance.now(), cpuWaitMs });
    const own = ownMs(time);
    const unmeasured = start.cpuWaitMs === undefined || cpuWaitMs === undefined;
    if (own >= limitMs) return { ...time, undecided: false, oversubscribed: unmeasured && machineOversubscribed() };
    if (time.elapsedMs >= capMs) return { ...time, undecided: true, oversubscribed: false };
    waitMs = Math.min(Math.max(limitMs - own, MIN_REARM_MS), capMs - time.elapsedMs);
  }
}
