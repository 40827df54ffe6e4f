// The per-process timeout on the shim's own time (R19): like every deadline of a run (runner/fair-deadline.ts)
// it is extended by the time the run's processes waited for a CPU (cpu-wait.ts), up to CAP_FACTOR times its
// length. A timeout that reaches that cap with less than its length of the shim's own time, or that runs out
// unmeasured on an oversubscribed machine, is undecided: the machine's load, not the shim, ended the process.
import { type CpuWaitClock, machineOversubscribed } from './cpu-wait.js';

/** How far past its length the timeout is extended (runner/fair-deadline.ts's CAP_FACTOR). */
const CAP_FACTOR = 4;
const MIN_REARM_MS = 20;

export interface OwnTimeTimeout {
  /** Stops the timeout (the process ended). */
  clear(): void;
}

/** Calls `expire(undecided)` once `timeoutMs` of the shim's own time have passed (or the cap). */
export function ownTimeTimeout(
  timeoutMs: number,
  cpuWait: CpuWaitClock,
  expire: (undecided: boolean) => void,
  oversubscribed: () => boolean = machineOversubscribed,
): OwnTimeTimeout {
  const startedAt = performance.now();
  const startWait = cpuWait();
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const elapsed = performance.now() - startedAt;
    const nowWait = cpuWait();
    const measured = startWait !== undefined && nowWait !== undefined;
    const excused = measured ? Math.min(elapsed, Math.max(0, nowWait - startWait)) : 0;
    const own = elapsed - excused;
    if (own >= timeoutMs) return expire(!measured && oversubscribed());
    if (elapsed >= timeoutMs * CAP_FACTOR) return expire(true);
    timer = setTimeout(check, Math.min(Math.max(timeoutMs - own, MIN_REARM_MS), timeoutMs * CAP_FACTOR - elapsed));
  };
  timer = setTimeout(check, timeoutMs);
  return { clear: () => clearTimeout(timer) };
}
