// When the runner kills a shim, the way the app's stop does: SIGKILL to the pid it started, at the scenario's
// `kill` moment (the mock sent its first text chunk, or the scripted tool runs). Every kill records what
// triggered it and when, for the findings and the report.
import type { FirstTextSent } from '../../mock/mock-types.js';
import type { ShimProcess } from '../../process/shim-process.js';
import { fairDeadline } from './fair-deadline.js';
import { isAssistantText } from './live-stdout.js';
import { FALLBACK_MS, fallbackRace, type MissedMoment, momentText, type Triggered } from './moment-fallback.js';
import { type InterruptContext, turnResultSeen, type WatchedTurn } from './moment-watch.js';
import { toolRunning } from './tool-moment.js';

/** A turn the runner ended the way the app's stop does: SIGKILL to the shim's pid. */
export interface KillRecord {
  turn: number;
  /** ms since the process started. */
  atMs: number;
  delivered: boolean;
  cause: string;
  /** The fallback fired: the shim did not reach the scripted moment (moment-fallback.ts). */
  missed?: MissedMoment;
}

/** After the mock's first text chunk, how long the runner waits for the shim to print it (as a user sees it). */
const KILL_TEXT_WAIT_MS = 1000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function killPid(shim: ShimProcess): boolean {
  if (shim.pid === undefined) return false;
  try {
    process.kill(shim.pid, 'SIGKILL');
    return true;
  } catch {
    return false; // already gone
  }
}

/** The tree's members right before the kill, for the note (and known to the tracker from then on). */
async function treeBeforeKill(shim: ShimProcess): Promise<string> {
  if (!shim.snapshotTree) return '';
  const members = await shim.snapshotTree();
  const names = members.slice(0, 8).map((info) => `${info.name || '?'} pid ${info.pid}`);
  return members.length === 0
    ? '; its tree right before: no other process'
    : `; its tree right before: ${names.join(', ')}${members.length > 8 ? ', …' : ''}`;
}

/**
 * The `after-first-text` kill moment: the mock sent its first text chunk, and the shim had time to print it. A
 * compaction summary's first chunk is the moment itself: a shim prints no assistant text for a summary.
 */
function firstTextSent(context: InterruptContext, watched: WatchedTurn, fallbackMs: number): Promise<Triggered> {
  const { mock, timers } = context;
  const { shim, live, turnIndex, finished } = watched;
  const firstChunk = new Promise<{ what: string; summary: boolean }>((resolve) => {
    const onFirstText = (sent: FirstTextSent) => {
      if (sent.turn !== turnIndex) return;
      mock.events.off('first-text-sent', onFirstText);
      resolve(
        sent.summary
          ? { what: "the mock sent the compaction summary's first chunk", summary: true }
          : { what: 'the mock sent the first text chunk', summary: false },
      );
    };
    mock.events.on('first-text-sent', onFirstText);
    void finished.then(() => mock.events.off('first-text-sent', onFirstText));
    if (context.cliEvent) {
      void context.cliEvent(turnIndex, 'stall', fallbackMs).then((seen) => {
        if (seen)
          resolve({ what: 'the official CLI logged that its stream stalls after the first text', summary: false });
      });
    }
  });
  return firstChunk.then(async ({ what, summary }) => {
    if (summary) return { trigger: 'first-text' as const, cause: what };
    // On the shim's own time: a shim waiting for a CPU has not had the chance to print it.
    const shown = await Promise.race([
      live.waitFor(isAssistantText, watched.fromIndex),
      fairDeadline(timers, KILL_TEXT_WAIT_MS, shim.cpuWait).then(() => undefined),
    ]);
    return {
      trigger: 'first-text' as const,
      cause: shown
        ? `${what} and the shim printed it (line ${shown.event.line})`
        : `${what} (the shim printed no text within ${seconds(KILL_TEXT_WAIT_MS)})`,
    };
  });
}

/**
 * Waits for the scripted kill moment of the watched turn (the mock sent its first text chunk, or the scripted
 * tool's process runs) and kills the shim's own process with SIGKILL, not its group: what the app's stop does.
 * Tools the shim started are left running, as they would be; the checks report them and the harness ends them.
 * Spawn-per-turn only: the watched turn starts at the process's first event.
 */
export async function killWhenDue(context: InterruptContext, watched: WatchedTurn): Promise<KillRecord | undefined> {
  const { shim, live, fromIndex, turnIndex, turn } = watched;
  const fallbackMs = Math.min(FALLBACK_MS, context.timeoutMs / 2);
  const moment = momentText(turn.kill ?? 'after-first-text', 'kill');
  const race = fallbackRace(context.timers, shim, { fallbackMs, moment }, watched.finished);
  if (turn.kill === 'after-first-text') race.push(firstTextSent(context, watched, fallbackMs));
  else if (turn.kill === 'during-tool') race.push(...toolRunning(context, watched, fallbackMs));
  const triggered = await Promise.race(race);
  if (turnResultSeen(live, fromIndex)) {
    context.note('runner', `turn ${turnIndex + 1} ended before the kill was due`);
    return undefined;
  }
  // The app ends the pid it started (cmd.exe for a .cmd shim on Windows); what that pid started keeps running.
  const tree = await treeBeforeKill(shim);
  if (turnResultSeen(live, fromIndex)) {
    context.note('runner', `turn ${turnIndex + 1} ended before the kill was due`);
    return undefined;
  }
  const atMs = shim.elapsedMs();
  const delivered = killPid(shim);
  context.note('runner', `SIGKILL to the shim's pid ${shim.pid} at ${seconds(atMs)}: ${triggered.cause}${tree}`);
  return {
    turn: turnIndex,
    atMs,
    delivered,
    cause: triggered.cause,
    ...(triggered.missed ? { missed: triggered.missed } : {}),
  };
}
