// What the runner's watchers of a turn are handed: the execution's context (the mock, the run's delays, the
// platform, the timeline) and the turn they watch (its process, its stdout, where the turn's events start).
// The streaming gate, the interrupt, the kill and the tool-running moments all take these two, so the timing
// they share (the shim's CPU-wait clock, the run's timer scope) comes from one place.
import type { MockServer } from '../../mock/mock-server.js';
import type { Turn } from '../../mock/scenario/scenario-types.js';
import type { PlatformName } from '../../process/platform.js';
import type { ShimProcess } from '../../process/shim-process.js';
import type { TimerScope } from '../../process/timer-scope.js';
import type { TimelineEntry } from '../results/run-types.js';
import type { LiveStdout } from './live-stdout.js';

export interface InterruptContext {
  mock: MockServer;
  timers: TimerScope;
  platform: PlatformName;
  timeoutMs: number;
  note: (source: TimelineEntry['source'], text: string) => void;
  /** Resolves when a fake CLI reports that the current turn's stream stalls / a tool started (CLI providers). */
  cliEvent?: (turn: number, event: 'stall' | 'tool-start', timeoutMs: number) => Promise<boolean>;
  /** How long to wait for the scripted moment before interrupting anyway (default 8 s, at most half the timeout). */
  fallbackMs?: number;
}

/** One turn of a running shim: its process (and CPU-wait clock), its stdout, and where the turn's events start. */
export interface ShimTurn {
  shim: ShimProcess;
  live: LiveStdout;
  /** Index into live.events where the turn starts. */
  fromIndex: number;
  turnIndex: number;
}

/** A turn with a scripted moment the runner waits for. */
export interface WatchedTurn extends ShimTurn {
  turn: Turn;
  /** Settles when there is nothing more to wait for: the process ended (or, persistent mode, the turn did). */
  finished: Promise<unknown>;
}

export function turnResultSeen(live: LiveStdout, fromIndex: number): boolean {
  return live.events.slice(fromIndex).some((timed) => timed.event.kind === 'result');
}
