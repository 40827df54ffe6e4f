// When the runner interrupts a turn, and why. An `after-first-text` turn is interrupted once the shim printed
// the stalled stream's first text (or the gate gave up waiting). A `during-tool` turn is interrupted once the
// scripted tool runs (tool-moment.ts). Every interrupt records what triggered it and when, for the findings and
// the report.
import type { FirstTextSent } from '../../mock/mock-types.js';
import { deliverInterrupt, type InterruptMethod } from '../../process/interrupt.js';
import type { ExitClock } from './exit-clock.js';
import { fairDeadline } from './fair-deadline.js';
import { isAssistantText } from './live-stdout.js';
import {
  FALLBACK_MS,
  fallbackRace,
  type MissedMoment,
  momentText,
  type Trigger,
  type Triggered,
} from './moment-fallback.js';
import { type InterruptContext, turnResultSeen, type WatchedTurn } from './moment-watch.js';
import { GATE_WAIT_MS } from './streaming-gate.js';
import { toolRunning } from './tool-moment.js';

export interface InterruptRecord {
  turn: number;
  /** ms since the process started. */
  atMs: number;
  method: InterruptMethod;
  delivered: boolean;
  /** What triggered it. */
  trigger: Trigger;
  /** The trigger in words, with its time: "the tool's process 4242 (bash -c sleep 30) appeared …". */
  cause: string;
  /** The fallback fired: the shim did not reach the scripted moment (moment-fallback.ts). */
  missed?: MissedMoment;
}

/** How an interrupt is sent, and the exit clock it starts (SIGINT to the group: the shim must exit in time). */
export interface InterruptDelivery {
  method: InterruptMethod;
  clock?: ExitClock;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * The mock streamed its first text chunk, and the gate's wait for it on stdout ran out on the shim's own time; or
 * the chunk was a compaction summary's, which is the moment itself (a shim prints no assistant text for it).
 */
function gateTimedOut(context: InterruptContext, watched: WatchedTurn): Promise<Triggered> {
  const { mock, timers } = context;
  return new Promise((resolve) => {
    const onFirstText = (sent: FirstTextSent) => {
      if (sent.turn !== watched.turnIndex) return;
      mock.events.off('first-text-sent', onFirstText);
      if (sent.summary) {
        resolve({ trigger: 'first-text', cause: "the mock streamed the compaction summary's first chunk" });
        return;
      }
      void fairDeadline(timers, GATE_WAIT_MS, watched.shim.cpuWait).then(() =>
        resolve({
          trigger: 'gate-timeout',
          cause: `no text on stdout ${seconds(GATE_WAIT_MS)} after the mock streamed its first text chunk`,
        }),
      );
    };
    mock.events.on('first-text-sent', onFirstText);
    void watched.finished.then(() => mock.events.off('first-text-sent', onFirstText));
  });
}

/**
 * The `after-first-text` moments: the shim printed the stalled stream's first text, or the gate's wait ran out
 * after the mock's first chunk (or, with an official CLI on PATH, after it logged that its stream stalls).
 */
function stalledStreamMoments(
  context: InterruptContext,
  watched: WatchedTurn,
  fallbackMs: number,
): Promise<Triggered>[] {
  const moments: Promise<Triggered>[] = [
    watched.live.waitFor(isAssistantText, watched.fromIndex).then((found) =>
      found
        ? {
            trigger: 'first-text' as const,
            cause: `the shim printed the stalled stream's first text (line ${found.event.line})`,
          }
        : new Promise<never>(() => undefined),
    ),
    gateTimedOut(context, watched),
  ];
  if (context.cliEvent) {
    const stalled = context.cliEvent(watched.turnIndex, 'stall', fallbackMs);
    moments.push(
      stalled.then(async (seen) => {
        if (!seen) return new Promise<never>(() => undefined);
        await fairDeadline(context.timers, GATE_WAIT_MS, watched.shim.cpuWait);
        return {
          trigger: 'gate-timeout' as const,
          cause: `${seconds(GATE_WAIT_MS)} after the official CLI logged that its stream stalls`,
        };
      }),
    );
  }
  return moments;
}

/** Sends the interrupt now, starts the exit clock it opens, and records it with what triggered it. */
function sendInterrupt(
  context: InterruptContext,
  watched: WatchedTurn,
  triggered: Triggered,
  delivery: InterruptDelivery,
): InterruptRecord {
  const { shim } = watched;
  const { method, clock } = delivery;
  const atMs = shim.elapsedMs();
  // Timed from before the signal leaves: the runner may not run again until long after the shim reacted.
  if (method === 'sigint-group') shim.watchExit?.();
  const delivered = deliverInterrupt(shim, method);
  const record: InterruptRecord = {
    turn: watched.turnIndex,
    atMs,
    method,
    delivered,
    trigger: triggered.trigger,
    cause: triggered.cause,
    ...(triggered.missed ? { missed: triggered.missed } : {}),
  };
  if (delivered && method === 'sigint-group') clock?.start('interrupt');
  context.note(
    'runner',
    `interrupt (${method === 'sigint-group' ? 'SIGINT to the process group' : 'interrupt frame on stdin'}) at ${seconds(atMs)}: ${triggered.cause}`,
  );
  return record;
}

/**
 * Waits for the scripted interrupt moment of the watched turn and delivers the interrupt; undefined when the
 * turn ended on its own first.
 */
export async function interruptWhenDue(
  context: InterruptContext,
  watched: WatchedTurn,
  delivery: InterruptDelivery,
): Promise<InterruptRecord | undefined> {
  const { turn } = watched;
  // If the scripted moment never comes (a shim that prints nothing while it waits), interrupt anyway.
  const fallbackMs = Math.min(context.fallbackMs ?? FALLBACK_MS, context.timeoutMs / 2);
  const moment = momentText(turn.interrupt ?? 'after-first-text', 'interrupt');
  const race = fallbackRace(context.timers, watched.shim, { fallbackMs, moment }, watched.finished);
  if (turn.interrupt === 'after-first-text') race.push(...stalledStreamMoments(context, watched, fallbackMs));
  else if (turn.interrupt === 'during-tool') race.push(...toolRunning(context, watched, fallbackMs));
  const triggered = await Promise.race(race);
  if (turnResultSeen(watched.live, watched.fromIndex)) {
    // The turn already ended on its own: nothing to interrupt (the checks report the missing interrupt).
    context.note('runner', `turn ${watched.turnIndex + 1} ended before the interrupt was due`);
    return undefined;
  }
  return sendInterrupt(context, watched, triggered, delivery);
}

/** One sentence for findings and reports: when the interrupt was sent and what triggered it. */
export function describeInterrupt(record: InterruptRecord): string {
  const how =
    record.method === 'sigint-group' ? 'SIGINT was sent to the process group' : 'the interrupt frame was written';
  return `${how} ${seconds(record.atMs)} after the process started${record.delivered ? '' : ' (not delivered)'}, because ${record.cause}`;
}
