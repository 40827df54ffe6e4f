// Drives the shim through a scenario's turns: one process per turn (spawn-per-turn, stdin closed, here) or one
// process fed with stdin frames (persistent-execution.ts). While the shim runs it opens the mock's streaming
// gate on the shim's first assistant-text line (or after 3 s), delivers interrupts and kills at the scripted
// moment, and answers tool approvals. It observes; the checks in check-run.ts judge.

import type { Turn } from '../../mock/scenario/scenario-types.js';
import { TimerScope } from '../../process/timer-scope.js';
import {
  type BuiltInvocation,
  buildInvocation,
  type InvocationValues,
  type ReadyInvocation,
} from '../config/invocation.js';
import type { ExecutedProcess, ExecutionInput, ExecutionOutcome, ScopedInput } from './execution-types.js';
import { ExitClock } from './exit-clock.js';
import { describeExit, exitClockNote } from './exit-notes.js';
import { interruptWhenDue } from './interrupt-trigger.js';
import { killWhenDue } from './kill-trigger.js';
import { LiveStdout } from './live-stdout.js';
import type { WatchedTurn } from './moment-watch.js';
import { executePersistent } from './persistent-execution.js';
import { announcedSession, gateInput, interruptContext, reportedSession, startProcess } from './process-start.js';
import { watchGate } from './streaming-gate.js';

export type { ExecutedProcess, ExecutionInput, ExecutionOutcome } from './execution-types.js';

function turnValues(input: ExecutionInput, turn: Turn, resumeId: string | undefined): InvocationValues {
  return {
    ...input.baseValues,
    prompt: turn.prompt,
    resumeId: turn.resume ? resumeId : undefined,
    persistent: input.persistent,
  };
}

/** The invocation of one turn's process, or why it cannot be verified. */
function turnInvocation(input: ExecutionInput, turn: Turn, resumeId: string | undefined): BuiltInvocation {
  const { spec } = input;
  const invocation = buildInvocation(spec.invocation, turnValues(input, turn, resumeId));
  if ('notVerified' in invocation) return invocation;
  // The argument-error scenario: a flag no shim accepts, after everything the invocation passes (R2).
  return spec.scenario.badArgument
    ? { ...invocation, args: [...invocation.args, spec.scenario.badArgument] }
    : invocation;
}

/** Runs one turn's process to its end while the streaming gate, the interrupt and the kill watch it. */
async function runTurnProcess(
  input: ScopedInput,
  index: number,
  turn: Turn,
  built: ReadyInvocation,
): Promise<ExecutedProcess> {
  const { spec, hooks } = input;
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
  const gateTimeouts: number[] = [];
  const gatesUndecided: number[] = [];
  const openGate = watchGate(gateInput(input), { shim, live, fromIndex: 0, turnIndex: index }, (undecided) =>
    (undecided ? gatesUndecided : gateTimeouts).push(index),
  );
  const done = shim.done;
  const watched: WatchedTurn = { shim, live, fromIndex: 0, turnIndex: index, turn, finished: done };
  const interrupting = turn.interrupt
    ? interruptWhenDue(interruptContext(input), watched, { method: 'sigint-group', clock })
    : Promise.resolve(undefined);
  const killing = turn.kill ? killWhenDue(interruptContext(input), watched) : Promise.resolve(undefined);
  const exit = await done;
  clock.stop();
  live.close();
  openGate();
  const interrupted = await interrupting;
  const killed = await killing;
  hooks.note('runner', describeExit(exit, `turn ${index + 1}`));
  const reportedSessionId = reportedSession(live);
  const announcedSessionId = announcedSession(live);
  if (clock.expired) hooks.note('runner', exitClockNote(clock.expired, `turn ${index + 1}`));
  return {
    label: spec.scenario.turns.length > 1 ? `turn ${index + 1}` : 'the shim',
    turns: [index],
    argv: built.args,
    exit,
    live,
    interrupts: interrupted ? [interrupted] : [],
    gateTimeouts,
    gatesUndecided,
    stdinLines: [],
    turnStarts: new Map([[index, 0]]),
    ...(reportedSessionId === undefined ? {} : { reportedSessionId }),
    ...(announcedSessionId === undefined ? {} : { announcedSessionId }),
    ...(clock.expired ? { exitClock: clock.expired } : {}),
    ...(clock.window ? { exitWindow: clock.window } : {}),
    ...(killed ? { killed } : {}),
  };
}

/**
 * The id the next turn resumes with (docs/protocol.md#r21-compaction). The app reads a session id from `init`
 * only, so under its invocation the latest init's id is the one. Otherwise the session keeps its first id
 * unless the shim announced a new one with `system` `session_id`.
 */
function nextResumeId(current: string | undefined, executed: ExecutedProcess, initOnly: boolean): string | undefined {
  if (initOnly) return executed.reportedSessionId ?? current;
  return executed.announcedSessionId ?? current ?? executed.reportedSessionId;
}

/** Spawn-per-turn: one process per turn, stdin closed. */
async function executeSpawnPerTurn(input: ScopedInput): Promise<ExecutionOutcome> {
  const processes: ExecutedProcess[] = [];
  const initOnly = input.spec.invocation.kind === 'yume-app';
  let resumeId: string | undefined;
  for (const [index, turn] of input.spec.scenario.turns.entries()) {
    const resumeWith = resumeId ?? input.baseValues.sessionId;
    const built = turnInvocation(input, turn, resumeWith);
    if ('notVerified' in built) return { notVerified: built.notVerified };
    const executed = await runTurnProcess(input, index, turn, built);
    if (turn.resume && resumeWith !== undefined) executed.resumedWith = resumeWith;
    resumeId = nextResumeId(resumeId, executed, initOnly);
    processes.push(executed);
    if (executed.exit.spawnError) break; // nothing more can run
  }
  return { processes };
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
