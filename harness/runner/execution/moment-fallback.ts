// The fallback of a scripted moment. An interrupt or a kill waits for the shim to reach a point of its turn (the
// stalled stream's first text, the scripted tool running); when that does not come, the runner acts anyway, so
// the run ends. The fallback counts the shim's own time (fair-deadline.ts): it fires after FALLBACK_MS of it,
// not of wall time, so a shim that waited for a CPU is not interrupted during its start-up. A moment missed that
// way is the shim's own finding (scenario.moment-reached), or undecided when the machine's load took the time;
// either way a signal sent before the moment tells nothing about how the shim handles it, so the checks that
// assume the moment (the interrupt's acknowledgement, the golden of the interrupted or killed turn) are not
// judged on it.
//
// The moment comes through the runner: its mock serves the response the shim needs to get there (the stalled
// stream's first text, the tool call), and its loop reads the stdout line or finds the tool's process. While
// the runner's loop stalls (loop-stalls.ts: on a loaded machine it waits for a CPU like any process), the shim
// waits for the mock and the runner sees nothing, so those stalls are the machine's time too, not the shim's:
// beside busy loops a shim was otherwise interrupted 8 s into a response the starved mock had not finished.
import { type LoopStalls, withRunnerStalls } from '../../process/loop-stalls.js';
import type { ShimProcess } from '../../process/shim-process.js';
import type { TimerScope } from '../../process/timer-scope.js';
import { fairDeadline, ownMs } from './fair-deadline.js';

/** How long (of the shim's own time) to wait for a scripted moment before acting anyway. */
export const FALLBACK_MS = 8000;

/** A scripted moment the shim did not reach before the fallback fired. */
export interface MissedMoment {
  /** The moment in words: "the stalled stream's first text on stdout". */
  moment: string;
  /** ms from the wait's start to the fallback, and of them the shim's own time. */
  elapsedMs: number;
  ownMs: number;
  /** The fallback fired with less than its length of the shim's own time, or on an oversubscribed machine. */
  undecided: boolean;
}

export type Trigger =
  | 'first-text'
  | 'gate-timeout'
  | 'tool-process'
  | 'tool-use-printed'
  | 'cli-tool-start'
  | 'fallback';

export interface Triggered {
  trigger: Trigger;
  cause: string;
  missed?: MissedMoment;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The moment of a turn's interrupt or kill, in words. */
export function momentText(kind: 'after-first-text' | 'during-tool', action: 'interrupt' | 'kill'): string {
  if (kind === 'during-tool') return 'the scripted tool running';
  return action === 'interrupt' ? "the stalled stream's first text on stdout" : "the mock's first text chunk";
}

/** The triggers every scripted moment races against: the fallback on the shim's own time, and the process ending. */
export function fallbackRace(
  timers: TimerScope,
  shim: Pick<ShimProcess, 'cpuWait'>,
  options: { fallbackMs: number; moment: string; stalls?: Pick<LoopStalls, 'stalledMsBetween'> },
  finished: Promise<unknown>,
): Promise<Triggered>[] {
  const { fallbackMs, moment } = options;
  return [
    fairDeadline(timers, fallbackMs, withRunnerStalls(shim.cpuWait, options.stalls)).then((outcome) => {
      const own = ownMs(outcome);
      const undecided = (outcome.undecided && own < fallbackMs) || outcome.oversubscribed;
      return {
        trigger: 'fallback' as const,
        cause: `the scripted moment (${moment}) did not come within ${seconds(fallbackMs)} of the shim's own time (fallback timer; ${seconds(outcome.elapsedMs)} passed)`,
        missed: { moment, elapsedMs: outcome.elapsedMs, ownMs: own, undecided },
      };
    }),
    finished.then(() => ({ trigger: 'fallback' as const, cause: 'the process ended before the scripted moment' })),
  ];
}

/** What a missed moment says in a finding or a not-verified note. */
export function describeMissed(missed: MissedMoment, action: string): string {
  const machine = missed.elapsedMs - missed.ownMs >= 50 ? `, ${seconds(missed.ownMs)} of them the shim's own time` : '';
  const why = missed.undecided
    ? ': the machine was too busy to judge (the shim waited for a CPU or for the stalled runner, or the machine was oversubscribed)'
    : '';
  return `the shim did not reach the scripted moment (${missed.moment}): the runner's fallback sent ${action} ${seconds(missed.elapsedMs)} after it began waiting${machine}${why}`;
}
