// One started shim while it runs: its output capture, its process tree, the timeout on its own time, the kill
// that the timeout, a flood or the runner asks for, and the timing of its exit. shim-ending.ts ends it.
import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { trackShim } from '../active-shims.js';
import type { RunCgroup } from '../cgroup.js';
import { type CpuWaitClock, cpuWaitClock } from '../cpu-wait.js';
import { type ExitWatch, exitWatcher } from '../exit-watcher.js';
import { type OwnTimeTimeout, ownTimeTimeout } from '../own-time-timeout.js';
import { hasProcFiles, type PlatformName } from '../platform.js';
import type { ProcessTable } from '../process-table.js';
import type { SpawnCommand } from '../shim-command.js';
import { OutputCapture } from './output-capture.js';
import { RunTree } from './run-tree.js';

/** How the shim's process ended: its exit, or the error that kept it from starting. */
export interface ProcessEnd {
  code: number | null;
  signal: string | null;
  error?: Error;
}

export interface ShimRunSettings {
  /** The shim as the user named it (for messages). */
  shim: string;
  command: SpawnCommand;
  platform: PlatformName;
  processGroup: boolean;
  /** performance.now() when the start began. */
  started: number;
  /** ms the runner spent inside the spawn call. */
  spawnMs: number;
  timeoutMs: number;
  stdioGraceMs: number;
  descendantGraceMs: number;
  maxStdoutBytes: number;
  maxStderrBytes: number;
  pollIntervalMs: number;
  /** `NAME=value` every process of the run inherits. */
  environmentMarker: string;
  table: ProcessTable;
  cgroup?: RunCgroup;
  onStdout?: (chunk: Buffer, atMs: number) => void;
}

export class ShimRun {
  readonly pid: number | undefined;
  readonly tree: RunTree;
  readonly output: OutputCapture;
  readonly exited: Promise<ProcessEnd>;
  /** Both of stdout and stderr closed. */
  readonly stdioClosed: Promise<unknown>;
  /** Settles once a kill is asked for (timeout, flood, the runner). */
  readonly killAsked: Promise<void>;
  readonly timeout: OwnTimeTimeout;
  /** Forgets the shim in the list the runner's exit hook ends. */
  readonly untrack: () => void;
  killRequested = false;
  timedOut = false;
  timeoutUndecided = false;
  /** Once the shim is gone its pid may be reused: only the cgroup's pressure is read after the exit. */
  exitSeen = false;
  /** The exit's time as a thread the runner's loop cannot stall saw it (exit-watcher.ts), once a deadline is on. */
  exitWatch: ExitWatch | undefined;
  private wakeUp: () => void = () => undefined;
  private readonly runCpuWait: CpuWaitClock;

  constructor(
    readonly subprocess: ChildProcess,
    readonly settings: ShimRunSettings,
  ) {
    const { platform, cgroup } = settings;
    this.pid = subprocess.pid;
    this.killAsked = new Promise<void>((resolve) => {
      this.wakeUp = resolve;
    });
    this.tree = new RunTree({
      platform,
      pid: this.pid,
      processGroup: settings.processGroup,
      table: settings.table,
      intervalMs: settings.pollIntervalMs,
      environmentMarker: settings.environmentMarker,
      ...(cgroup ? { cgroup } : {}),
    });
    this.runCpuWait = cpuWaitClock({ platform, pid: this.pid, ...(cgroup ? { cgroupPath: cgroup.path } : {}) });
    this.output = new OutputCapture({
      maxStdoutBytes: settings.maxStdoutBytes,
      maxStderrBytes: settings.maxStderrBytes,
      ...(settings.onStdout ? { onStdout: settings.onStdout } : {}),
      onFlood: this.kill,
    });
    subprocess.stdout?.on('data', (chunk: Buffer) => this.output.takeStdout(chunk, this.elapsedMs()));
    subprocess.stderr?.on('data', (chunk: Buffer) => this.output.takeStderr(chunk));
    // A write to a shim that already exited must not crash the harness.
    subprocess.stdin?.on('error', () => undefined);
    this.exited = new Promise<ProcessEnd>((resolve) => {
      subprocess.once('exit', (code, signal) => resolve({ code, signal }));
      subprocess.once('error', (error) => resolve({ code: null, signal: null, error }));
    });
    this.stdioClosed = Promise.all([streamClosed(subprocess.stdout), streamClosed(subprocess.stderr)]);
    // On the shim's own time: a shim that waited for a CPU is not ended for the machine's load (own-time-timeout.ts).
    this.timeout = ownTimeTimeout(settings.timeoutMs, this.cpuWait, (undecided) => {
      this.timedOut = true;
      this.timeoutUndecided = undecided;
      this.kill();
    });
    this.untrack = trackShim({
      kill: () => this.kill(),
      endAtExit: () => this.endAtExit(),
      ...(this.pid === undefined ? {} : { pid: this.pid }),
    });
  }

  /** ms since the start began. */
  readonly elapsedMs = (): number => performance.now() - this.settings.started;

  /** Asks for the whole tree to be ended now (shim-ending.ts does it). */
  readonly kill = (): void => {
    this.killRequested = true;
    this.wakeUp();
  };

  /** How long the run's processes have waited for a CPU so far. */
  readonly cpuWait: CpuWaitClock = () => (this.exitSeen && !this.settings.cgroup ? undefined : this.runCpuWait());

  /** Starts timing the exit on the exit watcher. */
  readonly watchExit = (): void => {
    // The watcher polls /proc/<pid>/stat: elsewhere the exit is timed by the runner's own loop.
    if (!this.exitWatch && !this.exitSeen && this.pid !== undefined && hasProcFiles(this.settings.platform)) {
      this.exitWatch = exitWatcher.watch(this.pid);
    }
  };

  /** The runner itself is exiting: the shim's group (or the shim) is ended at once. */
  private endAtExit(): void {
    if (this.settings.processGroup && this.pid !== undefined) process.kill(-this.pid, 'SIGKILL');
    else this.subprocess.kill('SIGKILL');
  }
}

function streamClosed(stream: NodeJS.ReadableStream | null | undefined): Promise<void> {
  return stream ? new Promise<void>((resolve) => stream.once('close', () => resolve())) : Promise.resolve();
}
