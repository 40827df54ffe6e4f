// Runs one official CLI for one turn: argv array (no shell), its own process group (POSIX), stdin closed
// (or written once and closed), stdout read as JSON lines, stderr kept for error messages. An interrupt
// sends SIGINT to the whole group (gemini's launcher ignores signals to its own pid), then SIGKILL after a
// grace period; whatever the CLI leaves behind is killed when it exits (R6), and by its watchdog when the shim
// dies without a chance to do it (SIGKILL, tools/watchdog.ts).
import type { ChildProcess } from 'node:child_process';
import { cmdInvocation, UnquotableArgumentError } from '../../../common/windows-command-line.js';
import type { InterruptSignal } from '../../tools/interrupt.js';
import { killTree } from '../../tools/process-tree.js';
import { trackToolProcess } from '../../tools/running-tools.js';
import { markedEnv, ToolWatchdog } from '../../tools/watchdog.js';
import type { LocatedBinary } from './binary.js';

export interface CliRunOptions {
  binary: LocatedBinary;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  stdinText?: string;
  signal: InterruptSignal;
  /** Every stdout line that is a JSON object, in order. */
  onEvent: (event: Record<string, unknown>) => void;
  /** Stdout lines that are not JSON objects (banners, warnings). */
  onOtherLine?: (line: string) => void;
  onStderr?: (text: string) => void;
  /** Time between SIGINT to the group and SIGKILL (R6 leaves the shim 2 s in all). */
  interruptGraceMs?: number;
  /** A CLI that runs longer than this is killed (a turn of an agent can be long; default 30 min). */
  timeoutMs?: number;
  platform?: NodeJS.Platform;
}

export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The CLI could not be started at all (ENOENT, EACCES...). */
  spawnError?: NodeJS.ErrnoException;
  /** The last few KB of stderr. */
  stderrTail: string;
  interrupted: boolean;
  timedOut: boolean;
}

const STDERR_TAIL_BYTES = 8 * 1024;
/** After the CLI exits, how long a descendant may keep its stdout open before it is killed. */
const STDIO_GRACE_MS = 1000;

type Spawn = typeof import('node:child_process').spawn;
type ExitStatus = Omit<CliExit, 'stderrTail' | 'interrupted' | 'timedOut'>;

export async function runCli(options: CliRunOptions): Promise<CliExit> {
  // Loaded here, not at the top: the shim is one bundle, and REST-provider runs should not pay for these.
  const [{ spawn }, { randomUUID }] = await Promise.all([import('node:child_process'), import('node:crypto')]);
  const platform = options.platform ?? process.platform;
  let invocation: CliInvocation;
  try {
    invocation = cliInvocation(options, platform);
  } catch (error) {
    // An argument cmd.exe cannot carry: the CLI cannot be started this way, which the caller reports
    // like any other start failure (the error's code and one-line message).
    if (!(error instanceof UnquotableArgumentError)) throw error;
    return { code: null, signal: null, spawnError: error, stderrTail: '', interrupted: false, timedOut: false };
  }
  return new Promise((resolve) => new CliProcess(options, platform, randomUUID(), resolve).start(spawn, invocation));
}

interface CliInvocation {
  file: string;
  args: string[];
  /** Windows: the command line is already quoted for cmd.exe. */
  verbatim: boolean;
}

/** The program and arguments to start: a batch file on Windows goes through cmd.exe (throws what it cannot carry). */
function cliInvocation(options: CliRunOptions, platform: NodeJS.Platform): CliInvocation {
  if (platform !== 'win32' || !options.binary.batch)
    return { file: options.binary.file, args: [...options.args], verbatim: false };
  const comSpec = options.env.ComSpec ?? options.env.COMSPEC;
  return { ...cmdInvocation(options.binary.file, [...options.args], comSpec), verbatim: true };
}

/** One started CLI: its outputs, its interrupt, its timeout, and its end (with its whole tree and watcher). */
class CliProcess {
  private child: ChildProcess | undefined;
  private stderrTail = '';
  private interrupted = false;
  private timedOut = false;
  private settled = false;
  private exitStatus: ExitStatus | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private watchdog: ToolWatchdog | undefined;
  private untrack: () => void = () => undefined;
  private readonly onAbort = () => this.interrupt();
  private readonly onProcessExit = () => {
    this.killAll();
    this.watchdog?.killNow();
  };

  constructor(
    private readonly options: CliRunOptions,
    private readonly platform: NodeJS.Platform,
    private readonly marker: string,
    private readonly resolve: (exit: CliExit) => void,
  ) {}

  start(spawn: Spawn, invocation: CliInvocation): void {
    const { options, platform } = this;
    // The watcher first: until it learns the CLI's group, it finds the CLI by its run marker (Linux).
    this.watchdog = ToolWatchdog.start(spawn, { env: options.env, marker: this.marker, platform });
    let child: ChildProcess;
    try {
      child = spawn(invocation.file, invocation.args, {
        cwd: options.cwd,
        env: markedEnv(options.env, this.marker),
        stdio: [options.stdinText === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        detached: platform !== 'win32',
        windowsVerbatimArguments: invocation.verbatim,
        windowsHide: true,
      });
    } catch (error) {
      this.finish({ code: null, signal: null, spawnError: error as NodeJS.ErrnoException });
      return;
    }
    this.child = child;
    this.watchdog.watch(child.pid);
    this.untrack = trackToolProcess(child.pid, this.marker);
    process.on('exit', this.onProcessExit);
    child.on('error', (error: NodeJS.ErrnoException) => this.finish({ code: null, signal: null, spawnError: error }));
    if (options.stdinText !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined); // the CLI may exit before reading it
      child.stdin.end(options.stdinText);
    }
    this.readOutputs(child);
    this.followExit(child);
    if (options.signal.aborted) this.interrupt();
    else options.signal.addEventListener('abort', this.onAbort);
    const timeout = () => {
      this.timedOut = true;
      this.killAll();
    };
    this.timers.push(setTimeout(timeout, options.timeoutMs ?? 30 * 60 * 1000));
  }

  /** Stdout as JSON lines (the last one flushed on 'close'), stderr kept as a tail and passed on. */
  private readOutputs(child: ChildProcess): void {
    const lines = new LineSplitter((line) => handleLine(line, this.options));
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => lines.push(chunk));
    child.on('close', () => lines.end());
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
      this.options.onStderr?.(chunk);
    });
  }

  private followExit(child: ChildProcess): void {
    child.on('exit', (code, signal) => {
      this.exitStatus = { code, signal };
      // A descendant holding stdout would keep 'close' from firing: end it after a grace period.
      const cut = () => {
        this.killAll();
        child.stdout?.destroy();
        child.stderr?.destroy();
      };
      this.timers.push(setTimeout(cut, STDIO_GRACE_MS));
    });
    child.on('close', (code, signal) => this.finish(this.exitStatus ?? { code, signal }));
  }

  private interrupt(): void {
    if (this.settled || this.interrupted) return;
    this.interrupted = true;
    if (this.platform === 'win32') this.killAll();
    else {
      try {
        process.kill(-this.child!.pid!, 'SIGINT'); // the whole group: the CLI's worker processes and tools
      } catch {
        // already gone
      }
    }
    this.timers.push(setTimeout(() => this.killAll(), this.options.interruptGraceMs ?? 1000));
  }

  private killAll(): void {
    killTree(this.child?.pid, this.marker);
  }

  private finish(exit: ExitStatus): void {
    if (this.settled) return;
    this.settled = true;
    this.untrack();
    for (const timer of this.timers) clearTimeout(timer);
    this.options.signal.removeEventListener('abort', this.onAbort);
    process.removeListener('exit', this.onProcessExit);
    if (this.platform !== 'win32') this.killAll(); // leftovers of the group (background commands the CLI started)
    const { stderrTail, interrupted, timedOut } = this;
    // The CLI is finished once its watcher is gone too: none outlives its tool while the shim lives.
    void this.watchdog?.stop().then(() => this.resolve({ ...exit, stderrTail, interrupted, timedOut }));
  }
}

/** Splits a text stream into lines (a final line without a newline comes out on end()). */
class LineSplitter {
  private pending = '';

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    this.pending += chunk;
    let newline = this.pending.indexOf('\n');
    while (newline >= 0) {
      this.onLine(this.pending.slice(0, newline));
      this.pending = this.pending.slice(newline + 1);
      newline = this.pending.indexOf('\n');
    }
  }

  end(): void {
    if (this.pending) this.onLine(this.pending);
    this.pending = '';
  }
}

/** One stdout line: a JSON object is an event; anything else (banners, warnings) another line. */
function handleLine(line: string, options: Pick<CliRunOptions, 'onEvent' | 'onOtherLine'>): void {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (text.trim() === '') return;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    options.onOtherLine?.(text);
    return;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) options.onEvent(value as Record<string, unknown>);
  else options.onOtherLine?.(text);
}
