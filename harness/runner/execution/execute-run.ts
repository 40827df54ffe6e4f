// Drives the shim through a scenario's turns: one process per turn (spawn-per-turn, stdin closed) or one
// process fed with stdin frames (persistent). While the shim runs it opens the mock's streaming gate on the
// shim's first assistant-text line (or after 3 s), delivers interrupts at the scripted moment, and answers
// tool approvals. It observes; the checks in check-run.ts judge.

import type { MockServer } from '../../mock/mock-server.js';
import type { Turn } from '../../mock/scenario/scenario-types.js';
import type { RunCgroup } from '../../process/cgroup.js';
import type { ShimExit, ShimProcess } from '../../process/shim-process.js';
import { spawnShim } from '../../process/spawn-shim.js';
import { TimerScope } from '../../process/timer-scope.js';
import type { NotVerified } from '../../rules/not-verified.js';
import { type BuiltInvocation, buildInvocation, type InvocationValues } from '../config/invocation.js';
import type { RunSpec, SuiteSettings, TimelineEntry } from '../results/run-types.js';
import { ExitClock, type ExitClockExpiry, type ExitWindow } from './exit-clock.js';
import {
  type InterruptContext,
  type InterruptRecord,
  interruptWhenDue,
  type KillRecord,
  killWhenDue,
} from './interrupt-trigger.js';
import { LiveStdout } from './live-stdout.js';
import { watchGate } from './streaming-gate.js';

export type { InterruptRecord };

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
  cliEvent?: (turn: number, event: 'stall' | 'tool-start', timeoutMs: number) => Promise<boolean>;
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
type ScopedInput = ExecutionInput & { timers: TimerScope };

function turnValues(input: ExecutionInput, turn: Turn, resumeId: string | undefined): InvocationValues {
  return {
    ...input.baseValues,
    prompt: turn.prompt,
    resumeId: turn.resume ? resumeId : undefined,
    persistent: input.persistent,
  };
}

function startProcess(
  input: ExecutionInput,
  built: Exclude<BuiltInvocation, { notVerified: NotVerified }>,
  live: LiveStdout,
): ShimProcess {
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

function reportedSession(live: LiveStdout): string | undefined {
  const init = live.events.find((timed) => timed.event.kind === 'init');
  return init?.event.kind === 'init' ? init.event.sessionId : undefined;
}

function interruptContext(input: ScopedInput): InterruptContext {
  return {
    mock: input.hooks.mock,
    timers: input.timers,
    platform: input.settings.platform,
    timeoutMs: input.settings.timeoutMs,
    note: input.hooks.note,
    ...(input.hooks.cliEvent ? { cliEvent: input.hooks.cliEvent } : {}),
    ...(input.hooks.interruptFallbackMs ? { fallbackMs: input.hooks.interruptFallbackMs } : {}),
  };
}

/** Spawn-per-turn: one process per turn, stdin closed. */
async function executeSpawnPerTurn(input: ScopedInput): Promise<ExecutionOutcome> {
  const { spec, hooks } = input;
  const processes: ExecutedProcess[] = [];
  let resumeId: string | undefined;
  for (const [index, turn] of spec.scenario.turns.entries()) {
    const invocation = buildInvocation(
      spec.invocation,
      turnValues(input, turn, resumeId ?? input.baseValues.sessionId),
    );
    if ('notVerified' in invocation) return { notVerified: invocation.notVerified };
    // The argument-error scenario: a flag no shim accepts, after everything the invocation passes (R2).
    const built = spec.scenario.badArgument
      ? { ...invocation, args: [...invocation.args, spec.scenario.badArgument] }
      : invocation;
    hooks.mock.setTurn(index);
    hooks.setCliTurn?.(index);
    const live = new LiveStdout();
    hooks.note(
      'runner',
      `turn ${index + 1}: start ${[input.settings.shim, ...built.args].map((arg) => (/\s/.test(arg) ? JSON.stringify(arg) : arg)).join(' ')}`,
    );
    const shim = startProcess(input, built, live);
    const clock = new ExitClock(shim, input.timers);
    live.onEvent((timed) => {
      if (timed.event.kind === 'result') clock.start('result');
    });
    if (built.stdinPrompt !== undefined) {
      shim.write(built.stdinPrompt);
      shim.closeStdin();
    }
    const interrupts: InterruptRecord[] = [];
    const gateTimeouts: number[] = [];
    const gatesUndecided: number[] = [];
    const openGate = watchGate({ ...input.hooks, timers: input.timers }, shim, live, 0, index, (undecided) =>
      (undecided ? gatesUndecided : gateTimeouts).push(index),
    );
    const done = shim.done;
    const interrupting = turn.interrupt
      ? interruptWhenDue(interruptContext(input), shim, live, 0, index, turn, 'sigint-group', interrupts, done, clock)
      : Promise.resolve();
    const killing = turn.kill
      ? killWhenDue(interruptContext(input), shim, live, index, turn, done)
      : Promise.resolve(undefined);
    const exit = await done;
    clock.stop();
    live.close();
    openGate();
    await interrupting;
    const killed = await killing;
    hooks.note('runner', describeExit(exit, `turn ${index + 1}`));
    const reportedSessionId = reportedSession(live);
    const executed: ExecutedProcess = {
      label: spec.scenario.turns.length > 1 ? `turn ${index + 1}` : 'the shim',
      turns: [index],
      argv: built.args,
      exit,
      live,
      interrupts,
      gateTimeouts,
      gatesUndecided,
      stdinLines: [],
      turnStarts: new Map([[index, 0]]),
      ...(reportedSessionId === undefined ? {} : { reportedSessionId }),
      ...(clock.expired ? { exitClock: clock.expired } : {}),
      ...(clock.window ? { exitWindow: clock.window } : {}),
      ...(killed ? { killed } : {}),
    };
    if (clock.expired) hooks.note('runner', exitClockNote(clock.expired, `turn ${index + 1}`));
    resumeId = resumeId ?? reportedSessionId;
    processes.push(executed);
    if (executed.exit.spawnError) break; // nothing more can run
  }
  return { processes };
}

/** Persistent mode: one process; each turn writes its raw stdin lines, then a `user` frame. */
async function executePersistent(input: ScopedInput): Promise<ExecutionOutcome> {
  const { spec, hooks, settings } = input;
  const built = buildInvocation(spec.invocation, { ...input.baseValues, persistent: true });
  if ('notVerified' in built) return { notVerified: built.notVerified };
  const live = new LiveStdout();
  hooks.mock.setTurn(0);
  hooks.setCliTurn?.(0);
  hooks.note('runner', `start ${[settings.shim, ...built.args].join(' ')} (persistent mode)`);
  const shim = startProcess(input, built, live);
  const clock = new ExitClock(shim, input.timers);
  const interrupts: InterruptRecord[] = [];
  const gateTimeouts: number[] = [];
  const gatesUndecided: number[] = [];
  const stdinLines: { turn: number; text: string }[] = [];
  const turns: number[] = [];
  const turnStarts = new Map<number, number>();
  let exited = false;
  const done = shim.done.then((exit) => {
    exited = true;
    live.close();
    return exit;
  });
  const write = (turn: number, text: string) => {
    stdinLines.push({ turn, text });
    hooks.note('stdin', text.replace(/\r?\n$/, ''));
    shim.write(text);
  };
  for (const [index, turn] of spec.scenario.turns.entries()) {
    if (exited) break;
    hooks.mock.setTurn(index);
    hooks.setCliTurn?.(index);
    const fromIndex = live.events.length;
    turns.push(index);
    turnStarts.set(index, fromIndex);
    const resultsBefore = live.count('result');
    const openGate = watchGate({ ...input.hooks, timers: input.timers }, shim, live, fromIndex, index, (undecided) =>
      (undecided ? gatesUndecided : gateTimeouts).push(index),
    );
    for (const raw of turn.stdin ?? []) write(index, raw.endsWith('\n') ? raw : `${raw}\n`);
    write(index, `${JSON.stringify({ type: 'user', content: turn.prompt })}\n`);
    const turnEnded = live.waitFor(() => live.count('result') > resultsBefore, fromIndex);
    const background: Promise<unknown>[] = [];
    if (turn.interrupt)
      background.push(
        interruptWhenDue(
          interruptContext(input),
          shim,
          live,
          fromIndex,
          index,
          turn,
          'interrupt-frame',
          interrupts,
          turnEnded,
        ),
      );
    if (turn.approvals)
      background.push(answerApprovals(turn.approvals, live, fromIndex, turnEnded, (frame) => write(index, frame)));
    const outcome = await Promise.race([
      turnEnded.then((found) => (found ? ('ended' as const) : ('exited' as const))),
      done.then(() => 'exited' as const),
      input.timers.delay(settings.timeoutMs).then(() => 'timeout' as const),
    ]);
    openGate();
    await Promise.all(background);
    if (outcome !== 'ended') {
      hooks.note(
        'runner',
        outcome === 'exited'
          ? `the process exited during turn ${index + 1}`
          : `turn ${index + 1} got no result within ${settings.timeoutMs} ms`,
      );
      break;
    }
  }
  let stdinClosedAtMs: number | undefined;
  if (!exited) {
    stdinClosedAtMs = shim.elapsedMs();
    hooks.note('runner', 'stdin closed (EOF)');
    shim.watchExit?.(); // timed from before the EOF leaves (see interruptWhenDue)
    shim.closeStdin();
    clock.start('stdin-eof');
  }
  const exit = await done;
  clock.stop();
  if (clock.expired) hooks.note('runner', exitClockNote(clock.expired, 'persistent process'));
  hooks.note('runner', describeExit(exit, 'persistent process'));
  const reportedSessionId = reportedSession(live);
  return {
    processes: [
      {
        label: 'persistent process',
        turns,
        argv: built.args,
        exit,
        live,
        interrupts,
        gateTimeouts,
        gatesUndecided,
        stdinLines,
        turnStarts,
        ...(stdinClosedAtMs === undefined ? {} : { stdinClosedAtMs }),
        ...(reportedSessionId === undefined ? {} : { reportedSessionId }),
        ...(clock.expired ? { exitClock: clock.expired } : {}),
        ...(clock.window ? { exitWindow: clock.window } : {}),
      },
    ],
  };
}

/** Interactive mode: answers each tool_use of the turn with the next scripted approval. */
async function answerApprovals(
  approvals: boolean[],
  live: LiveStdout,
  fromIndex: number,
  turnEnded: Promise<unknown>,
  send: (frame: string) => void,
): Promise<void> {
  const answered = new Set<string>();
  for (const approved of approvals) {
    const next = live.waitFor((event) => event.kind === 'tool_use' && !answered.has(event.id), fromIndex);
    const found = await Promise.race([next, turnEnded.then(() => undefined)]);
    if (found?.event.kind !== 'tool_use') return;
    answered.add(found.event.id);
    send(`${JSON.stringify({ type: 'tool_approval', id: found.event.id, approved })}\n`);
  }
}

const MOMENT_TEXT = { result: 'its last result', 'stdin-eof': 'stdin EOF', interrupt: 'the interrupt' } as const;

function exitClockNote(expiry: ExitClockExpiry, label: string): string {
  const elapsedMs = expiry.killedAtMs - expiry.startedAtMs;
  const own = elapsedMs - expiry.ownMs >= 50 ? `, ${(expiry.ownMs / 1000).toFixed(1)} s of it the shim's own time` : '';
  return `${label}: still running ${(elapsedMs / 1000).toFixed(1)} s after ${MOMENT_TEXT[expiry.after]}${own}: the harness ended its process tree`;
}

export function describeExit(exit: ShimExit, label: string): string {
  if (exit.spawnError) return `${label}: could not start (${exit.spawnError})`;
  const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.exitCode}`;
  const when = exit.exitedAtMs === undefined ? '' : ` ${(exit.exitedAtMs / 1000).toFixed(2)} s after its start`;
  const ended = exit.descendantsKilled.map((info) => `${info.name} pid ${info.pid}`);
  const extras = [
    exit.timedOut && 'timed out',
    exit.flooded && 'flooded stdout',
    exit.stdioHeldOpen && 'stdout held open',
    exit.killedByHarness && 'tree killed by the harness',
    ended.length > 0 && `ended: ${ended.slice(0, 8).join(', ')}${ended.length > 8 ? ', …' : ''}`,
    ...(exit.treeKillFailures ?? []).map((failure) => `${failure}: each pid of the tree's snapshot was ended`),
    exit.processTableUnreadable && `process table unreadable: ${exit.processTableUnreadable}`,
  ].filter(Boolean);
  return `${label}: exited with ${how}${when}${extras.length ? ` (${extras.join(', ')})` : ''}`;
}

/** Runs the scenario; persistent when the scenario asks for it or when an interrupt must go through stdin (Windows). */
export async function executeRun(input: ExecutionInput): Promise<ExecutionOutcome> {
  const timers = new TimerScope();
  try {
    return await (input.persistent
      ? executePersistent({ ...input, timers })
      : executeSpawnPerTurn({ ...input, timers }));
  } finally {
    timers.close();
  }
}
