// What every fake CLI process shares: stdout/stderr writing, the D4 log, signals, stalls, stdin, and
// running the scripted tools in the workspace with their side effects recorded.

import type { OfficialCliName, ScriptToolCall, ScriptTurn } from './script-types.js';
import type { CliLogEntry, FakeCliState, SessionNote } from './state.js';
import { appendLog } from './state.js';
import {
  CHANGING_TOOLS,
  diffSnapshots,
  runAppTool,
  snapshotWorkspace,
  stopRunningCommand,
  type ToolOutcome,
} from './workspace-tools.js';

export const DEFAULT_STALL_TIMEOUT_MS = 30_000;
export const DEFAULT_STDIN_WAIT_MS = 5_000;
/**
 * How long a CLI whose command died of SIGINT/SIGTERM/SIGHUP waits for that signal to reach its own
 * handler. A group signal reaches the CLI and its command in the same kill(), so the handler is already
 * queued; the bound only matters when the command alone was signalled (then the CLI reports it and goes on).
 */
export const GROUP_SIGNAL_WAIT_MS = 1_000;
/** Signals a process group receives on an interrupt; SIGKILL comes from the CLI itself or a timeout. */
const INTERRUPT_SIGNALS: ReadonlySet<string> = new Set(['SIGINT', 'SIGTERM', 'SIGHUP']);

type Distribute<T> = T extends unknown ? Omit<T, 'cli' | 'pid' | 'turnIndex' | 'time'> : never;
export type LogFields = Distribute<CliLogEntry>;

/** Where a CLI's prompt came from, for the log. */
export function promptSource(argvPrompt: string | undefined, stdinText: string): 'argv' | 'stdin' | 'argv+stdin' {
  const fromStdin = stdinText.trim() !== '';
  if (argvPrompt !== undefined && argvPrompt !== '') return fromStdin ? 'argv+stdin' : 'argv';
  return 'stdin';
}

export class CliRuntime {
  readonly turn: ScriptTurn;
  private interruptHandler: ((signal: NodeJS.Signals) => void) | undefined;
  private exiting = false;
  /** What the exit entry reports: whether the CLI printed its final event (result, turn.completed/failed). */
  private finalEventPrinted = false;
  private lastStderrLine: string | undefined;
  private printedLines = 0;
  private sessionNote: SessionNote = {};
  /** Resolves when a signal reached this process's interrupt handler. */
  private readonly signalled: Promise<void>;
  private markSignalled: () => void = () => undefined;

  constructor(
    readonly cli: OfficialCliName,
    readonly state: FakeCliState,
    readonly logFile: string | undefined,
    readonly workspace: string,
  ) {
    this.turn = state.scenario.turns[state.turnIndex]!;
    this.signalled = new Promise((resolve) => (this.markSignalled = resolve));
  }

  /**
   * Prints one stdout line. Once the CLI is exiting (stopped by a signal, or its turn is over) nothing more
   * is printed: the play that was under way when the signal came must not go on talking while stdout flushes.
   */
  line(value: unknown): void {
    if (this.exiting) return;
    process.stdout.write(`${JSON.stringify(value)}\n`);
    this.printedLines += 1;
    const type = (value as { type?: unknown } | null)?.type;
    if (type === 'result' || type === 'turn.completed' || type === 'turn.failed') this.finalEventPrinted = true;
  }

  stderr(text: string): void {
    if (this.exiting) return;
    process.stderr.write(text);
    const last = text.trim().split('\n').at(-1)?.trim();
    if (last) this.lastStderrLine = last;
  }

  log(fields: LogFields): void {
    appendLog(this.logFile, {
      ...fields,
      cli: this.cli,
      pid: process.pid,
      turnIndex: this.state.turnIndex,
      time: new Date().toISOString(),
    } as CliLogEntry);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** What this run added to its CLI session, logged with its exit for the runs that resume the session. */
  noteSession(note: SessionNote): void {
    this.sessionNote = note;
  }

  /** Ends the process once stdout and stderr are flushed. */
  async exit(code: number): Promise<never> {
    this.exiting = true;
    stopRunningCommand();
    this.log({
      event: 'exit',
      code,
      ...this.sessionNote,
      finalEvent: this.finalEventPrinted,
      lines: this.printedLines,
      ...(this.lastStderrLine === undefined ? {} : { stderrLine: this.lastStderrLine }),
    });
    await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
    await new Promise<void>((resolve) => process.stderr.write('', () => resolve()));
    process.exit(code);
  }

  /**
   * Installs the CLI's reaction to SIGINT/SIGTERM/SIGHUP. The handler prints what the CLI prints when
   * stopped and calls exit(); a running tool command is ended first (it shares the process group anyway).
   */
  onInterrupt(handler: (signal: NodeJS.Signals) => void): void {
    this.interruptHandler = handler;
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, () => {
        if (this.exiting) {
          // The signal did reach the CLI, which was already ending: logged, nothing more to do.
          this.log({ event: 'signal', signal, handled: 'exiting' });
          return;
        }
        this.log({ event: 'signal', signal, handled: 'stopped' });
        this.markSignalled();
        stopRunningCommand();
        this.interruptHandler?.(signal);
      });
    }
  }

  /** Holds a stream open like a provider that stops sending; resolves only if nothing stops the CLI. */
  async stall(): Promise<void> {
    this.log({ event: 'stall' });
    await this.sleep(this.state.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS);
  }

  /**
   * Reads stdin to EOF, as codex and gemini do when it is not a terminal. `idleMs` stops waiting when no
   * byte came for that long (gemini); without it the wait lasts up to `state.stdinWaitMs` and is logged
   * as stdin left open by the shim (codex blocks for ever there).
   */
  async readStdin(idleMs?: number): Promise<string> {
    if (process.stdin.isTTY) return '';
    const limit = idleMs ?? this.state.stdinWaitMs ?? DEFAULT_STDIN_WAIT_MS;
    const started = Date.now();
    return new Promise((resolve) => {
      let text = '';
      let timer: NodeJS.Timeout;
      const done = (timedOut: boolean) => {
        clearTimeout(timer);
        process.stdin.removeAllListeners('data');
        process.stdin.removeAllListeners('end');
        process.stdin.removeAllListeners('error');
        process.stdin.pause();
        process.stdin.unref?.();
        if (timedOut && idleMs === undefined) this.log({ event: 'stdin-open', waitedMs: Date.now() - started });
        resolve(text);
      };
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => done(true), limit);
      };
      arm();
      process.stdin.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (idleMs !== undefined) arm();
      });
      process.stdin.on('end', () => done(false));
      process.stdin.on('error', () => done(false));
    });
  }

  /** The tool call's input as an object (invalid raw arguments give an empty one). */
  inputOf(call: ScriptToolCall): Record<string, unknown> {
    if (call.input && typeof call.input === 'object') return call.input as Record<string, unknown>;
    return {};
  }

  /**
   * A command that died of an interrupt signal was most likely hit by a signal to the whole process group,
   * which this process got too. Node may hand the command's exit to the script before its own signal
   * handler runs (seen on a loaded machine); going on would report the killed command and play the rest
   * of the turn as if nothing had happened. So the CLI first lets its handler run, as a real CLI that is
   * being stopped would, and once it is stopping this call never returns.
   */
  private async settleInterruptedCommand(outcome: ToolOutcome): Promise<void> {
    if (outcome.signal && INTERRUPT_SIGNALS.has(outcome.signal) && this.interruptHandler && !this.exiting) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.signalled,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, GROUP_SIGNAL_WAIT_MS))),
      ]);
      clearTimeout(timer);
    }
    await this.haltIfExiting();
  }

  /** Never resolves once the CLI is exiting (process.exit follows); resolves at once otherwise. */
  async haltIfExiting(): Promise<void> {
    if (this.exiting) await new Promise<never>(() => undefined);
  }

  /** Runs one scripted tool in the workspace and logs its start, outcome and the files it changed. */
  async runTool(
    call: ScriptToolCall,
    cliToolId: string,
    denied?: string,
    reportsError: (outcome: ToolOutcome) => boolean = (outcome) => outcome.isError,
  ): Promise<ToolOutcome> {
    const input = this.inputOf(call);
    this.log({ event: 'tool-start', callId: call.id, name: call.name, cliToolId });
    let outcome: ToolOutcome;
    let effects: Record<string, string | null> = {};
    if (denied !== undefined) {
      outcome = { isError: true, output: denied, failure: 'denied' };
    } else if (call.rawArguments !== undefined && call.input === undefined) {
      outcome = { isError: true, output: `invalid tool arguments: ${call.rawArguments}`, failure: 'bad-input' };
    } else if (CHANGING_TOOLS.has(call.name)) {
      const before = snapshotWorkspace(this.workspace);
      outcome = await runAppTool(this.workspace, call.name, input);
      effects = diffSnapshots(before, snapshotWorkspace(this.workspace));
    } else {
      outcome = await runAppTool(this.workspace, call.name, input);
    }
    await this.settleInterruptedCommand(outcome);
    this.log({
      event: 'tool',
      callId: call.id,
      name: call.name,
      cliToolId,
      input,
      isError: outcome.isError,
      reportedIsError: reportsError(outcome),
      output: outcome.output.slice(0, 10_000),
      effects,
    });
    return outcome;
  }
}
