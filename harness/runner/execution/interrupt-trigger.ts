// When the runner interrupts a turn, and why. An `after-first-text` turn is interrupted once the shim printed
// the stalled stream's first text (or the gate gave up waiting). A `during-tool` turn is interrupted once the
// scripted tool runs: after the mock served the response holding the tool call, a process under the shim runs
// that call's command. Any other process (a wrapper's `sleep 0.5`, a launcher's helpers) is not the tool, so a
// shim started through a wrapper is not interrupted before the model even asked for the tool. Every interrupt
// records what triggered it and when, for the findings and the report.
import type { MockServer } from '../../mock/mock-server.js';
import type { Turn } from '../../mock/scenario/scenario-types.js';
import { canReadCommandLines, commandLineOf, runsCommand } from '../../process/command-line.js';
import { deliverInterrupt, type InterruptMethod } from '../../process/interrupt.js';
import type { PlatformName } from '../../process/platform.js';
import type { ShimProcess } from '../../process/shim-process.js';
import type { TimerScope } from '../../process/timer-scope.js';
import type { TimelineEntry } from '../results/run-types.js';
import type { ExitClock } from './exit-clock.js';
import { fairDeadline } from './fair-deadline.js';
import { isAssistantText, type LiveStdout } from './live-stdout.js';
import {
  FALLBACK_MS,
  fallbackRace,
  type MissedMoment,
  momentText,
  type Trigger,
  type Triggered,
} from './moment-fallback.js';
import { GATE_WAIT_MS } from './streaming-gate.js';

/** After the tool's process appeared, time for the shim to register it before the interrupt. */
const TOOL_SETTLE_MS = 200;
/** Where command lines cannot be read: after the shim printed the tool_use, time for the tool to start. */
const TOOL_START_DELAY_MS = 500;
const POLL_MS = 50;

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

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** When the mock served the turn's first response holding a tool call. */
function servedToolCall(
  mock: MockServer,
  turnIndex: number,
  turn: Turn,
): { atMs: number; request: number } | undefined {
  for (const request of mock.requests()) {
    // Answered with the response that holds the call (a client may close the stream once it has the call).
    if (request.turn !== turnIndex || request.status !== 200 || request.responseIndex === undefined) continue;
    if ((turn.responses[request.responseIndex]?.toolCalls?.length ?? 0) > 0)
      return { atMs: request.elapsedMs, request: request.index };
  }
  return undefined;
}

function scriptedCommands(turn: Turn): string[] {
  return turn.responses.flatMap((response) =>
    (response.toolCalls ?? []).flatMap((call) => {
      const command = (call.input as { command?: unknown } | undefined)?.command;
      return typeof command === 'string' ? [command] : [];
    }),
  );
}

/** Resolves once a process under the shim runs one of the turn's scripted commands, after the mock served the call. */
function toolProcessStarted(
  context: InterruptContext,
  shim: ShimProcess,
  live: LiveStdout,
  fromIndex: number,
  turnIndex: number,
  turn: Turn,
  finished: Promise<unknown>,
): Promise<Triggered> {
  const commands = scriptedCommands(turn);
  const byCommandLine = commands.length > 0 && canReadCommandLines(context.platform);
  return new Promise((resolve) => {
    let over = false;
    // Once the process ended this never resolves: the race's own `finished` entry settles it.
    const stop = (value: Triggered | undefined) => {
      if (over) return;
      over = true;
      clearInterval(poll);
      if (value) resolve(value);
    };
    void finished.then(() => stop(undefined));
    let busy = false;
    const poll = setInterval(() => {
      if (busy || over) return;
      const served = servedToolCall(context.mock, turnIndex, turn);
      if (!served) return;
      busy = true;
      void (async () => {
        if (!byCommandLine) {
          const use = live.events.slice(fromIndex).find((timed) => timed.event.kind === 'tool_use');
          if (use) {
            await fairDeadline(context.timers, TOOL_START_DELAY_MS, shim.cpuWait);
            stop({
              trigger: 'tool-use-printed',
              cause: `the shim printed the tool_use (line ${use.event.line}) after the mock served the tool call (request #${served.request + 1}); command lines cannot be read here, so the runner waited ${TOOL_START_DELAY_MS} ms for the tool to start`,
            });
          }
          return;
        }
        // Read afresh each time: a child forked by the shim shows the shim's command line until it execs.
        for (const info of shim.descendants()) {
          const argv = await commandLineOf(info.pid, context.platform);
          if (!argv) continue; // ended, or not readable yet
          const command = commands.find((wanted) => runsCommand(argv, wanted));
          if (command === undefined) continue;
          context.note('runner', `tool process ${info.pid} runs the scripted command: ${argv.join(' ')}`);
          await fairDeadline(context.timers, TOOL_SETTLE_MS, shim.cpuWait);
          stop({
            trigger: 'tool-process',
            cause: `the scripted tool's process ${info.pid} (${argv.join(' ')}) was running after the mock served the tool call (request #${served.request + 1})`,
          });
          return;
        }
      })().finally(() => {
        busy = false;
      });
    }, POLL_MS);
  });
}

/**
 * The moments a scripted tool runs: its own process under the shim (after the mock served the call), or, with
 * an official CLI on PATH (which the shim may or may not use), the fake CLI's log saying it started the tool.
 */
function toolRunning(
  context: InterruptContext,
  shim: ShimProcess,
  live: LiveStdout,
  fromIndex: number,
  turnIndex: number,
  turn: Turn,
  finished: Promise<unknown>,
  fallbackMs: number,
): Promise<Triggered>[] {
  const moments = [toolProcessStarted(context, shim, live, fromIndex, turnIndex, turn, finished)];
  if (context.cliEvent) {
    // A wait that timed out leaves it to the other moments or the fallback.
    moments.push(
      context.cliEvent(turnIndex, 'tool-start', fallbackMs).then(async (seen) => {
        if (!seen) return new Promise<never>(() => undefined);
        await fairDeadline(context.timers, TOOL_START_DELAY_MS, shim.cpuWait);
        return { trigger: 'cli-tool-start' as const, cause: 'the official CLI logged that it started the tool' };
      }),
    );
  }
  return moments;
}

/** Waits for the scripted interrupt moment of `turn` and delivers the interrupt. */
export async function interruptWhenDue(
  context: InterruptContext,
  shim: ShimProcess,
  live: LiveStdout,
  fromIndex: number,
  turnIndex: number,
  turn: Turn,
  method: InterruptMethod,
  record: InterruptRecord[],
  finished: Promise<unknown>,
  clock?: ExitClock,
): Promise<void> {
  const { mock, timers } = context;
  // If the scripted moment never comes (a shim that prints nothing while it waits), interrupt anyway.
  const fallbackMs = Math.min(context.fallbackMs ?? FALLBACK_MS, context.timeoutMs / 2);
  const moment = momentText(turn.interrupt ?? 'after-first-text', 'interrupt');
  const race = fallbackRace(timers, shim, { fallbackMs, moment }, finished);
  if (turn.interrupt === 'after-first-text') {
    race.push(
      live.waitFor(isAssistantText, fromIndex).then((found) =>
        found
          ? {
              trigger: 'first-text' as const,
              cause: `the shim printed the stalled stream's first text (line ${found.event.line})`,
            }
          : new Promise<never>(() => undefined),
      ),
    );
    race.push(
      new Promise((resolve) => {
        const onFirstText = (sent: { turn: number }) => {
          if (sent.turn !== turnIndex) return;
          mock.events.off('first-text-sent', onFirstText);
          void fairDeadline(timers, GATE_WAIT_MS, shim.cpuWait).then(() =>
            resolve({
              trigger: 'gate-timeout',
              cause: `no text on stdout ${seconds(GATE_WAIT_MS)} after the mock streamed its first text chunk`,
            }),
          );
        };
        mock.events.on('first-text-sent', onFirstText);
        void finished.then(() => mock.events.off('first-text-sent', onFirstText));
      }),
    );
    if (context.cliEvent) {
      const stalled = context.cliEvent(turnIndex, 'stall', fallbackMs);
      race.push(
        stalled.then(async (seen) => {
          if (!seen) return new Promise<never>(() => undefined);
          await fairDeadline(timers, GATE_WAIT_MS, shim.cpuWait);
          return {
            trigger: 'gate-timeout' as const,
            cause: `${seconds(GATE_WAIT_MS)} after the official CLI logged that its stream stalls`,
          };
        }),
      );
    }
  } else if (turn.interrupt === 'during-tool') {
    race.push(...toolRunning(context, shim, live, fromIndex, turnIndex, turn, finished, fallbackMs));
  }
  const triggered = await Promise.race(race);
  if (turnResultSeen(live, fromIndex)) {
    // The turn already ended on its own: nothing to interrupt (the checks report the missing interrupt).
    context.note('runner', `turn ${turnIndex + 1} ended before the interrupt was due`);
    return;
  }
  const atMs = shim.elapsedMs();
  // Timed from before the signal leaves: the runner may not run again until long after the shim reacted.
  if (method === 'sigint-group') shim.watchExit?.();
  const delivered = deliverInterrupt(shim, method);
  record.push({
    turn: turnIndex,
    atMs,
    method,
    delivered,
    trigger: triggered.trigger,
    cause: triggered.cause,
    ...(triggered.missed ? { missed: triggered.missed } : {}),
  });
  if (delivered && method === 'sigint-group') clock?.start('interrupt');
  context.note(
    'runner',
    `interrupt (${method === 'sigint-group' ? 'SIGINT to the process group' : 'interrupt frame on stdin'}) at ${seconds(atMs)}: ${triggered.cause}`,
  );
}

/** One sentence for findings and reports: when the interrupt was sent and what triggered it. */
export function describeInterrupt(record: InterruptRecord): string {
  const how =
    record.method === 'sigint-group' ? 'SIGINT was sent to the process group' : 'the interrupt frame was written';
  return `${how} ${seconds(record.atMs)} after the process started${record.delivered ? '' : ' (not delivered)'}, because ${record.cause}`;
}

export function turnResultSeen(live: LiveStdout, fromIndex: number): boolean {
  return live.events.slice(fromIndex).some((timed) => timed.event.kind === 'result');
}

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
 * Waits for the scripted kill moment of `turn` (the mock sent its first text chunk, or the scripted tool's
 * process runs) and kills the shim's own process with SIGKILL, not its group: what the app's stop does. Tools
 * the shim started are left running, as they would be; the checks report them and the harness ends them.
 */
export async function killWhenDue(
  context: InterruptContext,
  shim: ShimProcess,
  live: LiveStdout,
  turnIndex: number,
  turn: Turn,
  finished: Promise<unknown>,
): Promise<KillRecord | undefined> {
  const { mock, timers } = context;
  const fallbackMs = Math.min(FALLBACK_MS, context.timeoutMs / 2);
  const moment = momentText(turn.kill ?? 'after-first-text', 'kill');
  const race = fallbackRace(timers, shim, { fallbackMs, moment }, finished);
  if (turn.kill === 'after-first-text') {
    const firstChunk = new Promise<string>((resolve) => {
      const onFirstText = (sent: { turn: number }) => {
        if (sent.turn !== turnIndex) return;
        mock.events.off('first-text-sent', onFirstText);
        resolve('the mock sent the first text chunk');
      };
      mock.events.on('first-text-sent', onFirstText);
      void finished.then(() => mock.events.off('first-text-sent', onFirstText));
      if (context.cliEvent) {
        void context.cliEvent(turnIndex, 'stall', fallbackMs).then((seen) => {
          if (seen) resolve('the official CLI logged that its stream stalls after the first text');
        });
      }
    });
    race.push(
      firstChunk.then(async (what) => {
        // On the shim's own time: a shim waiting for a CPU has not had the chance to print it.
        const shown = await Promise.race([
          live.waitFor(isAssistantText, 0),
          fairDeadline(timers, KILL_TEXT_WAIT_MS, shim.cpuWait).then(() => undefined),
        ]);
        return {
          trigger: 'first-text' as const,
          cause: shown
            ? `${what} and the shim printed it (line ${shown.event.line})`
            : `${what} (the shim printed no text within ${seconds(KILL_TEXT_WAIT_MS)})`,
        };
      }),
    );
  } else if (turn.kill === 'during-tool') {
    race.push(...toolRunning(context, shim, live, 0, turnIndex, turn, finished, fallbackMs));
  }
  const triggered = await Promise.race(race);
  if (turnResultSeen(live, 0)) {
    context.note('runner', `turn ${turnIndex + 1} ended before the kill was due`);
    return undefined;
  }
  // The app ends the pid it started (cmd.exe for a .cmd shim on Windows); what that pid started keeps running.
  const tree = await treeBeforeKill(shim);
  if (turnResultSeen(live, 0)) {
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
