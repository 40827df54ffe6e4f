// What an execution of a scenario is given (the run's spec and settings, the invocation's values, the mock's
// hooks) and what it gives back: each shim process it ran, with everything the checks judge.
import type { MockServer } from '../../mock/mock-server.js';
import type { CliEventWait } from '../../official-cli/backend.js';
import type { ShimExit } from '../../process/shim-process.js';
import type { TimerScope } from '../../process/timer-scope.js';
import type { NotVerified } from '../../rules/not-verified.js';
import type { InvocationValues } from '../config/invocation.js';
import type { RunSpec, SuiteSettings, TimelineEntry } from '../results/run-types.js';
import type { ExitClockExpiry, ExitWindow } from './exit-clock.js';
import type { InterruptRecord } from './interrupt-trigger.js';
import type { KillRecord } from './kill-trigger.js';
import type { LiveStdout } from './live-stdout.js';

export interface ExecutedProcess {
  /** The runner killed this process (SIGKILL to its pid) at the scenario's `kill` moment. */
  killed?: KillRecord;
  label: string;
  turns: number[];
  argv: string[];
  exit: ShimExit;
  live: LiveStdout;
  interrupts: InterruptRecord[];
  /** Turns whose first stream was withheld for the full 3 s (no streamed text appeared). */
  gateTimeouts: number[];
  /** Turns whose gate ran out while the machine's load took most of the wait: the streaming check is not verified. */
  gatesUndecided: number[];
  /** Persistent mode: lines written to stdin (raw), with the turn they belong to. */
  stdinLines: { turn: number; text: string }[];
  /** Persistent mode: ms since start when stdin was closed. */
  stdinClosedAtMs?: number;
  /** Index into live.events where each served turn starts. */
  turnStarts: Map<number, number>;
  /** The session id the shim reported in its init line. */
  reportedSessionId?: string;
  /** The id the runner passed with `--resume` (or the template's resume slot), for a resumed turn. */
  resumedWith?: string;
  /** The last new session id the shim announced with `system` `session_id`. */
  announcedSessionId?: string;
  /** The process outlived its exit clock (last result, stdin EOF or interrupt) and the harness ended it. */
  exitClock?: ExitClockExpiry;
  /** The last window the exit clock opened (a result, stdin EOF or the interrupt). */
  exitWindow?: ExitWindow;
}

export interface ExecutionHooks {
  mock: MockServer;
  /** Moves the fake CLIs to a turn (when installed). */
  setCliTurn?: (turn: number) => void;
  /** Resolves when a fake CLI reports that the current turn's stream stalls / a tool started (CLI providers). */
  cliEvent?: CliEventWait;
  /** Longer wait for an interrupt's scripted moment (a real official CLI takes seconds to start). */
  interruptFallbackMs?: number;
  /** Run-relative clock and timeline. */
  note: (source: TimelineEntry['source'], text: string) => void;
}

export interface ExecutionInput {
  spec: RunSpec;
  settings: SuiteSettings;
  persistent: boolean;
  /** Everything but the per-turn values. */
  baseValues: Omit<InvocationValues, 'prompt' | 'resumeId' | 'persistent'>;
  env: Record<string, string>;
  cwd: string;
  hooks: ExecutionHooks;
}

export type ExecutionOutcome = { processes: ExecutedProcess[] } | { notVerified: NotVerified };

/** The input of one execution with the scope of its delays (cleared when it ends, see timer-scope.ts). */
export type ScopedInput = ExecutionInput & { timers: TimerScope };
