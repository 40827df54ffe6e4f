// The exit clock of a run: a process must exit within EXIT_GRACE_MS of its last result (spawn-per-turn), of
// stdin EOF (persistent mode) or of the interrupt signal. When the clock runs out the harness ends the process
// tree at once, so a shim that lingers costs about two seconds rather than the whole run timeout, and the
// checks report it once, under the rule of the moment that started the clock. The clock counts the shim's own
// time (fair-deadline.ts): stalls of the runner's loop and waits for a CPU are not the shim's.
import type { ShimExit, ShimProcess } from '../process/shim-process.js';
import type { TimerScope } from '../process/timer-scope.js';
import { fairDeadline, MACHINE_CAUSE, ownMs, windowStart, windowTime, type WindowStart } from './fair-deadline.js';

/** How long a process may run on after the moment that requires its exit. */
export const EXIT_GRACE_MS = 2000;
/** Scheduling slack on top of the grace before the harness acts (the checks still judge against the grace). */
const KILL_SLACK_MS = 500;

export type ExitMoment = 'result' | 'stdin-eof' | 'interrupt';

export interface ExitClockExpiry {
  /** What started the clock that ran out. */
  after: ExitMoment;
  /** ms since the process started: when the clock started, and when the harness ended the process. */
  startedAtMs: number;
  killedAtMs: number;
  /** ms of the shim's own time by then (the rest was the machine's: see fair-deadline.ts). */
  ownMs: number;
  /** The clock reached its cap with less than the grace of the shim's own time: the load decided, not the shim. */
  undecided: boolean;
}

/** The last window the clock opened: what started it and when (for judging an exit the process made itself). */
export interface ExitWindow {
  after: ExitMoment;
  start: WindowStart;
}

export class ExitClock {
  private generation = 0;
  private moment: ExitMoment | undefined;
  private finished = false;
  /** Set when the clock ran out and the harness ended the process. */
  expired: ExitClockExpiry | undefined;
  /** The window the clock last opened. */
  window: ExitWindow | undefined;

  constructor(
    private readonly shim: ShimProcess,
    private readonly timers: TimerScope,
  ) {}

  /**
   * (Re)starts the clock from now. An interrupt's clock is not restarted by a later result: the interrupt is
   * what the process must answer by exiting.
   */
  start(moment: ExitMoment): void {
    if (this.finished || this.moment === 'interrupt') return;
    this.moment = moment;
    this.generation += 1;
    const generation = this.generation;
    const startedAtMs = this.shim.elapsedMs();
    const start = windowStart(this.shim.cpuWait);
    this.window = { after: moment, start };
    void fairDeadline(this.timers, EXIT_GRACE_MS + KILL_SLACK_MS, this.shim.cpuWait, start).then((outcome) => {
      if (this.finished || generation !== this.generation) return;
      this.expired = {
        after: moment,
        startedAtMs,
        killedAtMs: this.shim.elapsedMs(),
        ownMs: ownMs(outcome),
        undecided: outcome.undecided && ownMs(outcome) < EXIT_GRACE_MS,
      };
      this.shim.kill();
    });
  }

  /** The process is gone: the clock stops. */
  stop(): void {
    this.finished = true;
  }
}

/** How a process's exit after a moment went, judged on its own time. */
export type ExitTiming =
  | { kind: 'in-time' }
  /** It exited, later than the grace even without the machine's part. */
  | { kind: 'late'; elapsedMs: number; ownMs: number }
  /** The harness ended it: the clock ran out (or the run ended it for another reason). */
  | { kind: 'killed'; ownMs: number | undefined }
  /** The machine's load left too little of the shim's own time to judge. */
  | { kind: 'undecided'; elapsedMs: number; ownMs: number };

export interface TimedExit {
  exit: Pick<ShimExit, 'exitedAtMs' | 'startedAt' | 'cpuWaitAtExitMs'>;
  exitClock?: ExitClockExpiry;
  exitWindow?: ExitWindow;
}

/** Judges the exit after `moment`, which the runner saw `momentAtMs` after the spawn. */
export function exitTiming(process: TimedExit, moment: ExitMoment, momentAtMs: number): ExitTiming {
  const { exit, exitClock, exitWindow } = process;
  if (exitClock?.after === moment) {
    const elapsedMs = exitClock.killedAtMs - exitClock.startedAtMs;
    return exitClock.undecided
      ? { kind: 'undecided', elapsedMs, ownMs: exitClock.ownMs }
      : { kind: 'killed', ownMs: exitClock.ownMs };
  }
  if (exit.exitedAtMs === undefined) return { kind: 'killed', ownMs: undefined };
  const elapsedMs = exit.exitedAtMs - momentAtMs;
  if (elapsedMs <= EXIT_GRACE_MS) return { kind: 'in-time' };
  if (exit.startedAt === undefined || exitWindow?.after !== moment)
    return { kind: 'late', elapsedMs, ownMs: elapsedMs };
  const time = windowTime(exitWindow.start, { at: exit.startedAt + exit.exitedAtMs, cpuWaitMs: exit.cpuWaitAtExitMs });
  const own = Math.min(elapsedMs, ownMs(time));
  return own <= EXIT_GRACE_MS ? { kind: 'in-time' } : { kind: 'late', elapsedMs, ownMs: own };
}

/** What a not-verified exit-timing rule says (the run's not-verified list). */
export function undecidedExit(
  rule: string,
  moment: string,
  timing: Extract<ExitTiming, { kind: 'undecided' }>,
): string {
  return `${rule}: still running ${(timing.elapsedMs / 1000).toFixed(1)} s after ${moment}, but only ${(timing.ownMs / 1000).toFixed(1)} s of that was its own time (${MACHINE_CAUSE}): the machine was too busy to judge`;
}
