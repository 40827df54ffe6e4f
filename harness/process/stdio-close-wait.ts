// After the shim exits, its stdout and stderr close at once unless a process it left behind still holds them
// (`process.stdout-held-open`). The wait for that close is the runner's: on a loaded machine the runner itself
// may not run for a second (its loop stalls), and the shim's last processes may wait that long for a CPU to
// finish dying. Neither is the shim's doing, so the grace counts only the time that was neither (R19), up to
// CAP_FACTOR times its length. When the cap is reached first, or where nothing can be measured and the machine
// was oversubscribed, the wait is undecided: the caller blames no one unless it found the process that holds
// the pipes.
import { type CpuWaitClock, machineOversubscribed } from './cpu-wait.js';
import { withTimeout } from './timer-scope.js';

/** How far past its length the grace may be extended for time that was not the shim's. */
export const STDIO_CAP_FACTOR = 4;
/** A re-armed wait lasts at least this long (no busy re-checking). */
const MIN_REARM_MS = 20;

export interface StdioCloseWait {
  /** Resolves when stdout and stderr have both closed. */
  closed: Promise<unknown>;
  /** The grace, in ms of time that was the shim's. */
  graceMs: number;
  /** The run's CPU wait (cpu-wait.ts), if it can be read. */
  cpuWait?: CpuWaitClock;
  /** The runner's own loop stalls between two instants (loop-stalls.ts). */
  stalledMsBetween?: (from: number, to: number) => number;
  /** Whether the machine is oversubscribed (asked only when no CPU wait could be read). */
  oversubscribed?: () => boolean;
  now?: () => number;
}

export interface StdioCloseOutcome {
  /** The pipes closed within the grace. */
  closed: boolean;
  /** They did not, but the machine, not the shim, may have taken the time. */
  undecided: boolean;
}

/** Waits for the shim's pipes to close, for `graceMs` of the shim's own time. */
export async function waitForStdioClose(wait: StdioCloseWait): Promise<StdioCloseOutcome> {
  const now = wait.now ?? (() => performance.now());
  const start = now();
  const cpuAtStart = wait.cpuWait?.();
  const capMs = wait.graceMs * STDIO_CAP_FACTOR;
  const closed = wait.closed.then(() => true);
  let waitMs = wait.graceMs;
  for (;;) {
    if (await withTimeout(closed, Math.max(waitMs, 0), false)) return { closed: true, undecided: false };
    // A close the loop had not handled yet (it was stalled) counts as in time.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (await withTimeout(closed, 0, false)) return { closed: true, undecided: false };
    const at = now();
    const elapsedMs = at - start;
    const cpuNow = wait.cpuWait?.();
    const measured = cpuAtStart !== undefined && cpuNow !== undefined;
    const machineMs = (measured ? Math.max(0, cpuNow - cpuAtStart) : 0) + (wait.stalledMsBetween?.(start, at) ?? 0);
    const ownMs = elapsedMs - Math.min(elapsedMs, machineMs);
    if (ownMs >= wait.graceMs) {
      const oversubscribed = !measured && (wait.oversubscribed ?? machineOversubscribed)();
      return { closed: false, undecided: oversubscribed };
    }
    if (elapsedMs >= capMs) return { closed: false, undecided: true };
    waitMs = Math.min(Math.max(wait.graceMs - ownMs, MIN_REARM_MS), capMs - elapsedMs);
  }
}
