// Around each shim process an execution starts: spawning it with the run's settings, the context its watchers
// (streaming gate, interrupt, kill) are handed, and the session id it reported.
import type { RunCgroup } from '../../process/cgroup.js';
import type { ShimProcess } from '../../process/shim-process.js';
import { spawnShim } from '../../process/spawn-shim.js';
import type { ReadyInvocation } from '../config/invocation.js';
import type { ExecutionInput, ScopedInput } from './execution-types.js';
import type { LiveStdout } from './live-stdout.js';
import type { InterruptContext } from './moment-watch.js';
import type { GateInput } from './streaming-gate.js';

export function startProcess(input: ExecutionInput, built: ReadyInvocation, live: LiveStdout): ShimProcess {
  const { settings } = input;
  return spawnShim({
    shim: settings.shim,
    args: [...built.args, ...settings.shimArgs],
    cwd: input.cwd,
    env: { ...input.env, ...built.env },
    stdin: input.persistent || built.stdinPrompt !== undefined ? 'pipe' : 'closed',
    timeoutMs: settings.timeoutMs,
    platform: settings.platform,
    ...(settings.execPath ? { execPath: settings.execPath } : {}),
    ...(settings.maxStdoutBytes ? { maxStdoutBytes: settings.maxStdoutBytes } : {}),
    ...withCgroup(settings.suiteCgroup?.leaf()),
    onStdout: (chunk, atMs) => live.push(chunk, atMs),
  });
}

function withCgroup(cgroup: RunCgroup | undefined): { cgroup?: RunCgroup } {
  return cgroup ? { cgroup } : {};
}

export function reportedSession(live: LiveStdout): string | undefined {
  const init = live.events.find((timed) => timed.event.kind === 'init');
  return init?.event.kind === 'init' ? init.event.sessionId : undefined;
}

/** The last new session id the shim announced with `system` `session_id` (after a compaction, say), if any. */
export function announcedSession(live: LiveStdout): string | undefined {
  let announced: string | undefined;
  for (const { event } of live.events) {
    if (event.kind === 'system' && event.subtype === 'session_id' && event.sessionId) announced = event.sessionId;
  }
  return announced;
}

export function interruptContext(input: ScopedInput): InterruptContext {
  // The run's waits on the fake CLI's log end with its timer scope, when the run is over.
  const { cliEvent } = input.hooks;
  const signal = input.timers.signal;
  return {
    mock: input.hooks.mock,
    timers: input.timers,
    platform: input.settings.platform,
    timeoutMs: input.settings.timeoutMs,
    note: input.hooks.note,
    ...(cliEvent ? { cliEvent: (turn, event, timeoutMs) => cliEvent(turn, event, { timeoutMs, signal }) } : {}),
    ...(input.hooks.interruptFallbackMs ? { fallbackMs: input.hooks.interruptFallbackMs } : {}),
  };
}

export function gateInput(input: ScopedInput): GateInput {
  return { ...input.hooks, timers: input.timers };
}
