// Starts one shim process and watches it to the end: raw stdout bytes (R9), stderr, timing, its
// descendants (R6), a timeout after which the whole tree is killed, and a cap on captured output so a
// flooding shim cannot exhaust memory. Every path through here ends with no process left behind: the running
// shim is a ShimRun (shim-run/shim-run.ts), ended by shim-run/shim-ending.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RunCgroup } from './cgroup.js';
import { signalProcessGroup } from './kill-tree.js';
import { isWindows, type PlatformName, runnerPlatform, usesProcessGroups } from './platform.js';
import { type ProcessTable, pollIntervalFor, processTableFor } from './process-table.js';
import { type SpawnCommand, shimSpawnCommand } from './shim-command.js';
import type { ShimProcess } from './shim-process.js';
import { endShim } from './shim-run/shim-ending.js';
import { ShimRun } from './shim-run/shim-run.js';
import { describeSpawnError, notStarted } from './start-failure.js';

export const DEFAULT_MAX_STDOUT_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_STDERR_BYTES = 4 * 1024 * 1024;
/** Environment variable set to a fresh id in every run; descendants inherit it (see DescendantTracker). */
export const RUN_MARKER_VARIABLE = 'YUME_CONFORMANCE_RUN_ID';

export interface SpawnShimOptions {
  /** Path (or PATH name) of the shim. */
  shim: string;
  /** The shim's argv (without the shim itself). */
  args: readonly string[];
  cwd: string;
  /** The complete environment (nothing else is inherited). */
  env: Record<string, string>;
  /** 'closed' for spawn-per-turn runs (EOF at once), 'pipe' for persistent mode. */
  stdin: 'closed' | 'pipe';
  /** After this the whole tree is killed and the run reports a timeout. */
  timeoutMs: number;
  maxStdoutBytes?: number;
  maxStderrBytes?: number;
  /** How long stdout may stay open after the shim exited (a descendant holding it) before the tree is killed. */
  stdioGraceMs?: number;
  /** How long descendants may take to go after the shim exited before they are reported and killed. */
  descendantGraceMs?: number;
  /** Time between two samples of the shim's descendants (default: the platform's, pollIntervalFor). */
  pollIntervalMs?: number;
  platform?: PlatformName;
  execPath?: string;
  processTable?: ProcessTable;
  /** The run's cgroup v2 leaf (Linux): the shim starts inside it, and whatever is left in it is ended. */
  cgroup?: RunCgroup;
  /** Called for every stdout chunk as it arrives (ms since spawn). */
  onStdout?: (chunk: Buffer, atMs: number) => void;
}

/** Starts a shim. Spawn failures do not throw: they end in `done` with `spawnError`. */
export function spawnShim(options: SpawnShimOptions): ShimProcess {
  const platform = options.platform ?? runnerPlatform();
  const processGroup = usesProcessGroups(platform);
  const started = performance.now();
  const elapsedMs = () => performance.now() - started;

  let command: SpawnCommand;
  try {
    command = shimSpawnCommand(options.shim, options.args, {
      platform,
      execPath: options.execPath ?? process.execPath,
      comspec: options.env.ComSpec ?? options.env.COMSPEC,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return notStarted({ file: options.shim, args: [...options.args], kind: 'direct' }, reason, elapsedMs);
  }

  // Every process of this run inherits the marker; the tracker uses it to find escaped descendants.
  const environmentMarker = `${RUN_MARKER_VARIABLE}=${randomUUID()}`;
  const launched = options.cgroup ? options.cgroup.wrap(command) : command;
  // node:child_process directly: execa's plumbing (promises, stream wrappers, signal handlers) cost the runner
  // 1.3–2 ms of CPU per start, measured, and this module collects output and decides the end itself.
  let subprocess: ChildProcess;
  const spawnStarted = performance.now();
  try {
    subprocess = spawn(launched.file, launched.args, {
      cwd: options.cwd,
      env: { ...options.env, [RUN_MARKER_VARIABLE]: environmentMarker.slice(RUN_MARKER_VARIABLE.length + 1) },
      stdio: [options.stdin === 'closed' ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: processGroup,
      windowsHide: true,
      windowsVerbatimArguments: command.windowsVerbatimArguments ?? false,
    });
  } catch (error) {
    // Arguments Node refuses before starting anything (a NUL byte in an argument or the environment).
    return notStarted(command, describeSpawnError(error as Error, options.shim), elapsedMs);
  }
  // The call returns once the child has replaced itself with the shim (or failed to): the runner's thread, and
  // with it every other run's mock and pipes, waits that long. Reported for npm run bench's cost split.
  const spawnMs = performance.now() - spawnStarted;

  const run = new ShimRun(subprocess, {
    shim: options.shim,
    command,
    platform,
    processGroup,
    started,
    spawnMs,
    timeoutMs: options.timeoutMs,
    stdioGraceMs: options.stdioGraceMs ?? 1000,
    descendantGraceMs: options.descendantGraceMs ?? 1000,
    maxStdoutBytes: options.maxStdoutBytes ?? DEFAULT_MAX_STDOUT_BYTES,
    maxStderrBytes: options.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES,
    pollIntervalMs: options.pollIntervalMs ?? pollIntervalFor(platform),
    environmentMarker,
    table: options.processTable ?? processTableFor(platform),
    ...(options.cgroup ? { cgroup: options.cgroup } : {}),
    ...(options.onStdout ? { onStdout: options.onStdout } : {}),
  });
  return shimHandle(run, endShim(run));
}

/** The runner's handle on a running shim. */
function shimHandle(run: ShimRun, done: ShimProcess['done']): ShimProcess {
  const { subprocess, pid, tree } = run;
  return {
    pid,
    command: run.settings.command,
    elapsedMs: run.elapsedMs,
    write: (text) => {
      const stdin = subprocess.stdin;
      if (!stdin || stdin.destroyed || stdin.writableEnded) return false;
      stdin.write(text);
      return true;
    },
    closeStdin: () => {
      subprocess.stdin?.end();
    },
    signalGroup: (signal) => {
      if (pid === undefined || isWindows(run.settings.platform)) return false;
      return signalProcessGroup(pid, signal);
    },
    kill: run.kill,
    descendants: () => tree.tracker?.seen() ?? [],
    /** The tree right before a kill the runner makes itself (the app's SIGKILL of the pid): each member is tracked. */
    snapshotTree: () => tree.alive(),
    cpuWait: run.cpuWait,
    watchExit: run.watchExit,
    exited: () => run.exitSeen || run.exitWatch?.interval() !== undefined,
    done,
  };
}
