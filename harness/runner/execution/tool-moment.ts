// The `during-tool` moment: the scripted tool runs. After the mock served the response holding the tool call, a
// process under the shim runs that call's command. Any other process (a wrapper's `sleep 0.5`, a launcher's
// helpers) is not the tool, so a shim started through a wrapper is not interrupted (or killed) before the model
// even asked for the tool. Where command lines cannot be read, the printed tool_use and a delay stand in.
import type { MockServer } from '../../mock/mock-server.js';
import type { Turn } from '../../mock/scenario/scenario-types.js';
import { canReadCommandLines, commandLineOf, runsCommand } from '../../process/command-line.js';
import { fairDeadline } from './fair-deadline.js';
import type { Triggered } from './moment-fallback.js';
import type { InterruptContext, WatchedTurn } from './moment-watch.js';

/** After the tool's process appeared, time for the shim to register it before the interrupt. */
const TOOL_SETTLE_MS = 200;
/** Where command lines cannot be read: after the shim printed the tool_use, time for the tool to start. */
const TOOL_START_DELAY_MS = 500;
const POLL_MS = 50;

/** The mock's answer that holds the tool call: when it was served, and which request it answered. */
interface ServedCall {
  atMs: number;
  request: number;
}

/** When the mock served the turn's first response holding a tool call. */
function servedToolCall(mock: MockServer, turnIndex: number, turn: Turn): ServedCall | undefined {
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

/** Where command lines cannot be read: the shim printed the tool_use, then the tool had time to start. */
async function toolUsePrinted(
  context: InterruptContext,
  watched: WatchedTurn,
  served: ServedCall,
): Promise<Triggered | undefined> {
  const use = watched.live.events.slice(watched.fromIndex).find((timed) => timed.event.kind === 'tool_use');
  if (!use) return undefined;
  await fairDeadline(context.timers, TOOL_START_DELAY_MS, watched.shim.cpuWait);
  return {
    trigger: 'tool-use-printed',
    cause: `the shim printed the tool_use (line ${use.event.line}) after the mock served the tool call (request #${served.request + 1}); command lines cannot be read here, so the runner waited ${TOOL_START_DELAY_MS} ms for the tool to start`,
  };
}

/** A process under the shim that runs one of the scripted commands, once the shim had time to register it. */
async function scriptedToolProcess(
  context: InterruptContext,
  watched: WatchedTurn,
  served: ServedCall,
  commands: string[],
): Promise<Triggered | undefined> {
  // Read afresh each time: a child forked by the shim shows the shim's command line until it execs.
  for (const info of watched.shim.descendants()) {
    const argv = await commandLineOf(info.pid, context.platform);
    if (!argv) continue; // ended, or not readable yet
    const command = commands.find((wanted) => runsCommand(argv, wanted));
    if (command === undefined) continue;
    context.note('runner', `tool process ${info.pid} runs the scripted command: ${argv.join(' ')}`);
    await fairDeadline(context.timers, TOOL_SETTLE_MS, watched.shim.cpuWait);
    return {
      trigger: 'tool-process',
      cause: `the scripted tool's process ${info.pid} (${argv.join(' ')}) was running after the mock served the tool call (request #${served.request + 1})`,
    };
  }
  return undefined;
}

/** Resolves once a process under the shim runs one of the turn's scripted commands, after the mock served the call. */
function toolProcessStarted(context: InterruptContext, watched: WatchedTurn): Promise<Triggered> {
  const commands = scriptedCommands(watched.turn);
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
    void watched.finished.then(() => stop(undefined));
    let busy = false;
    const poll = setInterval(() => {
      if (busy || over) return;
      const served = servedToolCall(context.mock, watched.turnIndex, watched.turn);
      if (!served) return;
      busy = true;
      void (
        byCommandLine
          ? scriptedToolProcess(context, watched, served, commands)
          : toolUsePrinted(context, watched, served)
      )
        .then((found) => {
          if (found) stop(found);
        })
        .finally(() => {
          busy = false;
        });
    }, POLL_MS);
  });
}

/**
 * The moments a scripted tool runs: its own process under the shim (after the mock served the call), or, with
 * an official CLI on PATH (which the shim may or may not use), the fake CLI's log saying it started the tool.
 */
export function toolRunning(context: InterruptContext, watched: WatchedTurn, fallbackMs: number): Promise<Triggered>[] {
  const moments = [toolProcessStarted(context, watched)];
  if (context.cliEvent) {
    // A wait that timed out leaves it to the other moments or the fallback.
    moments.push(
      context.cliEvent(watched.turnIndex, 'tool-start', fallbackMs).then(async (seen) => {
        if (!seen) return new Promise<never>(() => undefined);
        await fairDeadline(context.timers, TOOL_START_DELAY_MS, watched.shim.cpuWait);
        return { trigger: 'cli-tool-start' as const, cause: 'the official CLI logged that it started the tool' };
      }),
    );
  }
  return moments;
}
