// Runs one official CLI for one turn: argv array (no shell), its own process group (POSIX), stdin closed
// (or written once and closed), stdout read as JSON lines, stderr kept for error messages. An interrupt
// sends SIGINT to the whole group (gemini's launcher ignores signals to its own pid), then SIGKILL after a
// grace period; whatever the CLI leaves behind is killed when it exits (R6), and by its watchdog when the shim
// dies without a chance to do it (SIGKILL, tools/watchdog.ts).
import type { ChildProcess } from 'node:child_process';
import { cmdInvocation, UnquotableArgumentError } from '../../../common/windows-command-line.js';
import type { InterruptSignal } from '../../tools/interrupt.js';
import { killTree } from '../../tools/process-tree.js';
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

export async function runCli(options: CliRunOptions): Promise<CliExit> {
  // Loaded here, not at the top: the shim is one bundle, and REST-provider runs should not pay for these.
  const [{ spawn }, { randomUUID }] = await Promise.all([import('node:child_process'), import('node:crypto')]);
  const platform = options.platform ?? process.platform;
  const marker = randomUUID();
  let file = options.binary.file;
  let args = [...options.args];
  let verbatim = false;
  if (platform === 'win32' && options.binary.batch) {
    try {
      ({ file, args } = cmdInvocation(options.binary.file, args, options.env.ComSpec ?? options.env.COMSPEC));
    } catch (error) {
      // An argument cmd.exe cannot carry: the CLI cannot be started this way, which the caller reports
      // like any other start failure (the error's code and one-line message).
      if (!(error instanceof UnquotableArgumentError)) throw error;
      return { code: null, signal: null, spawnError: error, stderrTail: '', interrupted: false, timedOut: false };
    }
    verbatim = true;
  }

  return new Promise((resolve) => {
    let child: ChildProcess;
    let stderrTail = '';
    let interrupted = false;
    let timedOut = false;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    // The watcher first: until it learns the CLI's group, it finds the CLI by its run marker (Linux).
    const watchdog = ToolWatchdog.start(spawn, { env: options.env, marker, platform });
    const killAll = () => killTree(child?.pid, marker);
    const onProcessExit = () => {
      killAll();
      watchdog.killNow();
    };

    const finish = (exit: Omit<CliExit, 'stderrTail' | 'interrupted' | 'timedOut'>) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      process.removeListener('exit', onProcessExit);
      if (platform !== 'win32') killAll(); // leftovers of the group (background commands the CLI started)
      // The CLI is finished once its watcher is gone too: none outlives its tool while the shim lives.
      void watchdog.stop().then(() => resolve({ ...exit, stderrTail, interrupted, timedOut }));
    };

    try {
      child = spawn(file, args, {
        cwd: options.cwd,
        env: markedEnv(options.env, marker),
        stdio: [options.stdinText === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        detached: platform !== 'win32',
        windowsVerbatimArguments: verbatim,
        windowsHide: true,
      });
    } catch (error) {
      finish({ code: null, signal: null, spawnError: error as NodeJS.ErrnoException });
      return;
    }
    watchdog.watch(child.pid);
    process.on('exit', onProcessExit);

    child.on('error', (error: NodeJS.ErrnoException) => finish({ code: null, signal: null, spawnError: error }));
    if (options.stdinText !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined); // the CLI may exit before reading it
      child.stdin.end(options.stdinText);
    }

    let pending = '';
    const flushLine = (line: string) => {
      const text = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (text.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        options.onOtherLine?.(text);
        return;
      }
      if (value && typeof value === 'object' && !Array.isArray(value))
        options.onEvent(value as Record<string, unknown>);
      else options.onOtherLine?.(text);
    };
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      pending += chunk;
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        flushLine(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
      options.onStderr?.(chunk);
    });

    let exitStatus: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    child.on('exit', (code, signal) => {
      exitStatus = { code, signal };
      // A descendant holding stdout would keep 'close' from firing: end it after a grace period.
      timers.push(
        setTimeout(() => {
          killAll();
          child.stdout?.destroy();
          child.stderr?.destroy();
        }, STDIO_GRACE_MS),
      );
    });
    child.on('close', (code, signal) => {
      if (pending) flushLine(pending);
      pending = '';
      finish(exitStatus ?? { code, signal });
    });

    function onAbort(): void {
      if (settled || interrupted) return;
      interrupted = true;
      if (platform === 'win32') killAll();
      else {
        try {
          process.kill(-child.pid!, 'SIGINT'); // the whole group: the CLI's worker processes and tools
        } catch {
          // already gone
        }
      }
      timers.push(setTimeout(killAll, options.interruptGraceMs ?? 1000));
    }
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort);

    timers.push(
      setTimeout(
        () => {
          timedOut = true;
          killAll();
        },
        options.timeoutMs ?? 30 * 60 * 1000,
      ),
    );
  });
}
