// The exit clock of a run: a process must exit within EXIT_GRACE_MS of its last result (spawn-per-turn), of
// stdin EOF (persistent mode) or of the interrupt signal. When the clock runs out the harness ends the process
// tree at once, so a shim that lingers costs about two seconds rather than the whole run timeout, and the
// checks report it once, under the rule of the moment that started the clock. The clock counts the shim's own
// time (fair-deadline.ts): time it waited for a CPU is not the shim's. When it exited is taken from the exit
// watcher (exit-watcher.ts), which the runner's own stalls cannot delay; without one, an exit the runner saw
// right after its loop stalled may have happened at any time during the stall.

import { loopStalls } from '../../process/loop-stalls.js';
import type { ShimExit, ShimProcess } from '../../process/shim-process.js';
import type { TimerScope } from '../../process/timer-scope.js';
import { fairDeadline, MACHINE_CAUSE, ownMs, type WindowStart, windowStart, windowTime } from './fair-deadline.js';

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
    this.shim.watchExit?.();
    const limitMs = EXIT_GRACE_MS + KILL_SLACK_MS;
    void fairDeadline(this.timers, limitMs, this.shim.cpuWait, start).then((outcome) => {
      if (this.finished || generation !== this.generation) return;
      // Exited already (its tree and output may still be winding down): the exit is judged when the run ends.
      if (this.shim.exited?.()) return;
      this.expired = {
        after: moment,
        startedAtMs,
        killedAtMs: this.shim.elapsedMs(),
        ownMs: ownMs(outcome),
        // Without a CPU-wait measure, an expiry on an oversubscribed machine is the machine's as much as the shim's.
        undecided: (outcome.undecided && ownMs(outcome) < EXIT_GRACE_MS) || outcome.oversubscribed,
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
  /** It exited, later than the grace even at the earliest it can have exited and without the machine's part. */
  | { kind: 'late'; elapsedMs: number; ownMs: number }
  /** The harness ended it: the clock ran out (or the run ended it for another reason). */
  | { kind: 'killed'; ownMs: number | undefined }
  /** Too uncertain to judge: the machine's load took the time, or the exit's time is known only within a range. */
  | { kind: 'undecided'; elapsedMs: number; ownMs: number; why: string };

export interface TimedExit {
  exit: Pick<ShimExit, 'exitedAtMs' | 'startedAt' | 'cpuWaitAtExitMs' | 'exitInterval'>;
  exitClock?: ExitClockExpiry;
  exitWindow?: ExitWindow;
}

/** The earliest and the latest the process can have exited, ms after the moment (the runner saw it at `seenMs`). */
function exitBounds(exit: TimedExit['exit'], momentAtMs: number, seenMs: number): { earliest: number; latest: number } {
  const { exitInterval, startedAt } = exit;
  if (exitInterval) {
    const { aliveAtMs = momentAtMs, goneByMs } = exitInterval;
    return {
      earliest: Math.max(0, aliveAtMs - momentAtMs),
      latest: Math.max(0, Math.min(seenMs, goneByMs - momentAtMs)),
    };
  }
  // No watcher: seen right after a stall, it may have exited at any time during it.
  const stallFrom = startedAt === undefined ? undefined : loopStalls.stallEndingAt(startedAt + momentAtMs + seenMs);
  if (startedAt === undefined || stallFrom === undefined) return { earliest: seenMs, latest: seenMs };
  return { earliest: Math.max(0, Math.min(seenMs, stallFrom - startedAt - momentAtMs)), latest: seenMs };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Judges the exit after `moment`, which the runner saw `momentAtMs` after the spawn. */
export function exitTiming(process: TimedExit, moment: ExitMoment, momentAtMs: number): ExitTiming {
  const { exit, exitClock, exitWindow } = process;
  if (exitClock?.after === moment) {
    const elapsedMs = exitClock.killedAtMs - exitClock.startedAtMs;
    return exitClock.undecided
      ? {
          kind: 'undecided',
          elapsedMs,
          ownMs: exitClock.ownMs,
          why:
            exitClock.ownMs >= EXIT_GRACE_MS
              ? `but no CPU wait can be read here and the machine was oversubscribed (load average above the cores): too busy to judge`
              : `but only ${seconds(exitClock.ownMs)} of that was its own time (${MACHINE_CAUSE}): the machine was too busy to judge`,
        }
      : { kind: 'killed', ownMs: exitClock.ownMs };
  }
  if (exit.exitedAtMs === undefined) return { kind: 'killed', ownMs: undefined };
  const seenMs = exit.exitedAtMs - momentAtMs;
  if (seenMs <= EXIT_GRACE_MS) return { kind: 'in-time' };
  const { earliest, latest } = exitBounds(exit, momentAtMs, seenMs);
  // The machine's part of the window, up to each bound (known only for the window the clock opened).
  const excused = (bound: number) => {
    if (exit.startedAt === undefined || exitWindow?.after !== moment) return 0;
    const at = exit.startedAt + momentAtMs + bound;
    return windowTime(exitWindow.start, { at, cpuWaitMs: exit.cpuWaitAtExitMs }).excusedMs;
  };
  const ownLatest = Math.max(0, latest - excused(latest));
  const ownEarliest = Math.max(0, earliest - excused(earliest));
  if (ownLatest <= EXIT_GRACE_MS) return { kind: 'in-time' };
  if (ownEarliest > EXIT_GRACE_MS) return { kind: 'late', elapsedMs: latest, ownMs: ownEarliest };
  return {
    kind: 'undecided',
    elapsedMs: seenMs,
    ownMs: ownEarliest,
    why: `but it exited at some time between ${seconds(earliest)} and ${seconds(latest)} after it, and the runner could not look meanwhile (its loop stalled): too uncertain to judge`,
  };
}

/** Why an exit-timing rule is not verified (a `machine` record of the run's not-verified list). */
export function undecidedExit(moment: string, timing: Extract<ExitTiming, { kind: 'undecided' }>): string {
  return `still running ${seconds(timing.elapsedMs)} after ${moment}, ${timing.why}`;
}
