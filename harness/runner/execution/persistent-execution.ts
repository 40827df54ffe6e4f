// Persistent mode: one shim process fed with stdin frames. Each turn writes its raw stdin lines, then a `user`
// frame, while the streaming gate, the interrupt and the tool approvals watch it; after the last turn stdin is
// closed and the exit clock runs from the EOF.
import type { Turn } from '../../mock/scenario/scenario-types.js';
import type { ShimExit, ShimProcess } from '../../process/shim-process.js';
import { buildInvocation, type ReadyInvocation } from '../config/invocation.js';
import type { ExecutedProcess, ExecutionOutcome, ScopedInput } from './execution-types.js';
import { ExitClock } from './exit-clock.js';
import { describeExit, exitClockNote } from './exit-notes.js';
import { type InterruptRecord, interruptWhenDue } from './interrupt-trigger.js';
import { LiveStdout } from './live-stdout.js';
import type { WatchedTurn } from './moment-watch.js';
import { gateInput, interruptContext, reportedSession, startProcess } from './process-start.js';
import { watchGate } from './streaming-gate.js';

/** The persistent process and what the runner records while it feeds it turns. */
interface PersistentSession {
  input: ScopedInput;
  shim: ShimProcess;
  live: LiveStdout;
  clock: ExitClock;
  /** Settles with the exit once the process ended (stdout is closed by then). */
  done: Promise<ShimExit>;
  exited: boolean;
  interrupts: InterruptRecord[];
  gateTimeouts: number[];
  gatesUndecided: number[];
  stdinLines: { turn: number; text: string }[];
  turns: number[];
  turnStarts: Map<number, number>;
}

function startSession(input: ScopedInput, built: ReadyInvocation): PersistentSession {
  const { hooks, settings } = input;
  const live = new LiveStdout();
  hooks.mock.setTurn(0);
  hooks.setCliTurn?.(0);
  hooks.note('runner', `start ${[settings.shim, ...built.args].join(' ')} (persistent mode)`);
  const shim = startProcess(input, built, live);
  const session: PersistentSession = {
    input,
    shim,
    live,
    clock: new ExitClock(shim, input.timers),
    done: shim.done.then((exit) => {
      session.exited = true;
      live.close();
      return exit;
    }),
    exited: false,
    interrupts: [],
    gateTimeouts: [],
    gatesUndecided: [],
    stdinLines: [],
    turns: [],
    turnStarts: new Map(),
  };
  return session;
}

function write(session: PersistentSession, turn: number, text: string): void {
  session.stdinLines.push({ turn, text });
  session.input.hooks.note('stdin', text.replace(/\r?\n$/, ''));
  session.shim.write(text);
}

/** Interactive mode: answers each tool_use of the turn with the next scripted approval. */
async function answerApprovals(watched: WatchedTurn, send: (frame: string) => void): Promise<void> {
  const { live, fromIndex, finished } = watched;
  const answered = new Set<string>();
  for (const approved of watched.turn.approvals ?? []) {
    const next = live.waitFor((event) => event.kind === 'tool_use' && !answered.has(event.id), fromIndex);
    const found = await Promise.race([next, finished.then(() => undefined)]);
    if (found?.event.kind !== 'tool_use') return;
    answered.add(found.event.id);
    send(`${JSON.stringify({ type: 'tool_approval', id: found.event.id, approved })}\n`);
  }
}

/** What runs beside a turn until it ends: its scripted interrupt (an interrupt frame) and its tool approvals. */
function turnWatchers(session: PersistentSession, watched: WatchedTurn): Promise<unknown>[] {
  const background: Promise<unknown>[] = [];
  if (watched.turn.interrupt)
    background.push(
      interruptWhenDue(interruptContext(session.input), watched, { method: 'interrupt-frame' }).then((sent) => {
        if (sent) session.interrupts.push(sent);
      }),
    );
  if (watched.turn.approvals)
    background.push(answerApprovals(watched, (frame) => write(session, watched.turnIndex, frame)));
  return background;
}

/** Plays one turn on the process; false when the process exited or the turn got no result in time. */
async function playTurn(session: PersistentSession, index: number, turn: Turn): Promise<boolean> {
  const { input, shim, live } = session;
  const { hooks, settings } = input;
  hooks.mock.setTurn(index);
  hooks.setCliTurn?.(index);
  const fromIndex = live.events.length;
  session.turns.push(index);
  session.turnStarts.set(index, fromIndex);
  const resultsBefore = live.count('result');
  const openGate = watchGate(gateInput(input), { shim, live, fromIndex, turnIndex: index }, (undecided) =>
    (undecided ? session.gatesUndecided : session.gateTimeouts).push(index),
  );
  for (const raw of turn.stdin ?? []) write(session, index, raw.endsWith('\n') ? raw : `${raw}\n`);
  write(session, index, `${JSON.stringify({ type: 'user', content: turn.prompt })}\n`);
  const turnEnded = live.waitFor(() => live.count('result') > resultsBefore, fromIndex);
  const background = turnWatchers(session, { shim, live, fromIndex, turnIndex: index, turn, finished: turnEnded });
  const outcome = await Promise.race([
    turnEnded.then((found) => (found ? ('ended' as const) : ('exited' as const))),
    session.done.then(() => 'exited' as const),
    input.timers.delay(settings.timeoutMs).then(() => 'timeout' as const),
  ]);
  openGate();
  await Promise.all(background);
  if (outcome === 'ended') return true;
  hooks.note(
    'runner',
    outcome === 'exited'
      ? `the process exited during turn ${index + 1}`
      : `turn ${index + 1} got no result within ${settings.timeoutMs} ms`,
  );
  return false;
}

/** After the turns: closes stdin (the exit clock runs from the EOF) and waits for the process to end. */
async function closeSession(session: PersistentSession, built: ReadyInvocation): Promise<ExecutedProcess> {
  const { shim, live, clock, input } = session;
  const { hooks } = input;
  let stdinClosedAtMs: number | undefined;
  if (!session.exited) {
    stdinClosedAtMs = shim.elapsedMs();
    hooks.note('runner', 'stdin closed (EOF)');
    shim.watchExit?.(); // timed from before the EOF leaves (see interruptWhenDue)
    shim.closeStdin();
    clock.start('stdin-eof');
  }
  const exit = await session.done;
  clock.stop();
  if (clock.expired) hooks.note('runner', exitClockNote(clock.expired, 'persistent process'));
  hooks.note('runner', describeExit(exit, 'persistent process'));
  const reportedSessionId = reportedSession(live);
  return {
    label: 'persistent process',
    turns: session.turns,
    argv: built.args,
    exit,
    live,
    interrupts: session.interrupts,
    gateTimeouts: session.gateTimeouts,
    gatesUndecided: session.gatesUndecided,
    stdinLines: session.stdinLines,
    turnStarts: session.turnStarts,
    ...(stdinClosedAtMs === undefined ? {} : { stdinClosedAtMs }),
    ...(reportedSessionId === undefined ? {} : { reportedSessionId }),
    ...(clock.expired ? { exitClock: clock.expired } : {}),
    ...(clock.window ? { exitWindow: clock.window } : {}),
  };
}

/** Persistent mode: one process; each turn writes its raw stdin lines, then a `user` frame. */
export async function executePersistent(input: ScopedInput): Promise<ExecutionOutcome> {
  const built = buildInvocation(input.spec.invocation, { ...input.baseValues, persistent: true });
  if ('notVerified' in built) return { notVerified: built.notVerified };
  const session = startSession(input, built);
  for (const [index, turn] of input.spec.scenario.turns.entries()) {
    if (session.exited) break;
    if (!(await playTurn(session, index, turn))) break;
  }
  return { processes: [await closeSession(session, built)] };
}
