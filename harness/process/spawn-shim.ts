// Starts one shim process and watches it to the end: raw stdout bytes (R9), stderr, timing, its
// descendants (R6), a timeout after which the whole tree is killed, and a cap on captured output so a
// flooding shim cannot exhaust memory. Every path through here ends with no process left behind.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { trackShim } from './active-shims.js';
import type { RunCgroup } from './cgroup.js';
import { cpuWaitClock } from './cpu-wait.js';
import { DescendantTracker } from './descendants.js';
import { type ExitWatch, exitWatcher } from './exit-watcher.js';
import { killTree, signalProcessGroup } from './kill-tree.js';
import { loopStalls } from './loop-stalls.js';
import { ownTimeTimeout } from './own-time-timeout.js';
import { hasProcFiles, isWindows, type PlatformName, runnerPlatform, usesProcessGroups } from './platform.js';
import { type ProcessInfo, type ProcessTable, pollIntervalFor, processTableFor } from './process-table.js';
import { type SpawnCommand, shimSpawnCommand } from './shim-command.js';
import type { ShimExit, ShimProcess, StdoutChunkTime } from './shim-process.js';
import { describeSpawnError, notStarted, wrapperStartFailure } from './start-failure.js';
import { withTimeout } from './timer-scope.js';
import { untiedOrphans } from './untied-orphans.js';

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a shim. Spawn failures do not throw: they end in `done` with `spawnError`. */
export function spawnShim(options: SpawnShimOptions): ShimProcess {
  const platform = options.platform ?? runnerPlatform();
  const maxStdout = options.maxStdoutBytes ?? DEFAULT_MAX_STDOUT_BYTES;
  const maxStderr = options.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES;
  const stdioGraceMs = options.stdioGraceMs ?? 1000;
  const descendantGraceMs = options.descendantGraceMs ?? 1000;
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
  const pid = subprocess.pid;

  const stdoutParts: Buffer[] = [];
  const stdoutChunks: StdoutChunkTime[] = [];
  let stdoutBytes = 0;
  let storedStdout = 0;
  const stderrParts: Buffer[] = [];
  let stderrBytes = 0;
  let storedStderr = 0;
  let flooded = false;
  let timedOut = false;
  let killRequested = false;
  let killedByHarness = false;

  const table = options.processTable ?? processTableFor(platform);
  const tracker =
    pid === undefined
      ? undefined
      : new DescendantTracker({
          rootPid: pid,
          table,
          intervalMs: options.pollIntervalMs ?? pollIntervalFor(platform),
          processGroup,
          environmentMarker,
          ...(options.cgroup ? { members: options.cgroup.members } : {}),
        });
  tracker?.start();
  // Once the shim is gone its pid may be reused: only the cgroup's pressure is read after the exit.
  let exitSeen = false;
  const runCpuWait = cpuWaitClock({ platform, pid, ...(options.cgroup ? { cgroupPath: options.cgroup.path } : {}) });
  const cpuWait = () => (exitSeen && !options.cgroup ? undefined : runCpuWait());
  // The exit's time as a thread the runner's loop cannot stall saw it (exit-watcher.ts), once a deadline is on.
  let exitWatch: ExitWatch | undefined;
  const watchExit = () => {
    // The watcher polls /proc/<pid>/stat: elsewhere the exit is timed by the runner's own loop.
    if (!exitWatch && !exitSeen && pid !== undefined && hasProcFiles(platform)) exitWatch = exitWatcher.watch(pid);
  };

  let wakeUp: () => void = () => undefined;
  const killNow = () => {
    killRequested = true;
    wakeUp();
  };

  subprocess.stdout?.on('data', (chunk: Buffer) => {
    const atMs = elapsedMs();
    stdoutBytes += chunk.length;
    if (storedStdout < maxStdout) {
      const kept = chunk.length <= maxStdout - storedStdout ? chunk : chunk.subarray(0, maxStdout - storedStdout);
      stdoutParts.push(kept);
      storedStdout += kept.length;
      stdoutChunks.push({ end: storedStdout, atMs });
      options.onStdout?.(kept, atMs);
    }
    if (stdoutBytes > maxStdout && !flooded) {
      flooded = true;
      killNow();
    }
  });
  subprocess.stderr?.on('data', (chunk: Buffer) => {
    stderrBytes += chunk.length;
    if (storedStderr < maxStderr) {
      const kept = chunk.subarray(0, maxStderr - storedStderr);
      stderrParts.push(kept);
      storedStderr += kept.length;
    }
  });
  // A write to a shim that already exited must not crash the harness.
  subprocess.stdin?.on('error', () => undefined);

  const exited = new Promise<{ code: number | null; signal: string | null; error?: Error }>((resolve) => {
    subprocess.once('exit', (code, signal) => resolve({ code, signal }));
    subprocess.once('error', (error) => resolve({ code: null, signal: null, error }));
  });
  const streamClosed = (stream: NodeJS.ReadableStream | null | undefined) =>
    stream ? new Promise<void>((resolve) => stream.once('close', () => resolve())) : Promise.resolve();
  const stdioClosed = Promise.all([streamClosed(subprocess.stdout), streamClosed(subprocess.stderr)]);

  // On the shim's own time: a shim that waited for a CPU is not ended for the machine's load (own-time-timeout.ts).
  let timeoutUndecided = false;
  const timeout = ownTimeTimeout(options.timeoutMs, cpuWait, (undecided) => {
    timedOut = true;
    timeoutUndecided = undecided;
    killNow();
  });

  // With a cgroup, its members are the run's processes whatever they did to leave the group or the tree.
  const cgroupMembers = (known: ProcessInfo[]): ProcessInfo[] => {
    if (!options.cgroup) return [];
    const seen = new Set(known.map((info) => info.pid));
    return options.cgroup
      .members()
      .filter((member) => member !== pid && !seen.has(member))
      .flatMap((member) => {
        const info = table.info?.(member);
        return info && info.state !== 'Z' ? [info] : [];
      });
  };
  /** `sweep` false: only the descendants already known (and the cgroup's members) are looked at. */
  const aliveDescendants = async (sweep = true) => {
    const tracked = tracker ? await tracker.alive({ sweep }) : [];
    return [...tracked, ...cgroupMembers(tracked)];
  };
  const descendantsKilled = new Map<number, ProcessInfo>();
  const treeKillFailures: string[] = [];
  let survivors: ProcessInfo[] = [];
  // The timeout, flood, interrupt-escalation and leftover kills: the tree as it is now (`fresh`: a sweep just
  // made), ended at once.
  const killEverything = async (fresh?: ProcessInfo[]) => {
    killedByHarness = true;
    const snapshot = fresh ?? (await aliveDescendants());
    options.cgroup?.kill();
    const outcome = await killTree({ platform, rootPid: pid, processGroup, alive: aliveDescendants, snapshot });
    for (const info of snapshot) descendantsKilled.set(info.pid, info);
    if (outcome.treeKillFailure) treeKillFailures.push(outcome.treeKillFailure);
    survivors = outcome.survivors;
  };
  /** The tree right before a kill the runner makes itself (the app's SIGKILL of the pid): each member is tracked. */
  const snapshotTree = () => aliveDescendants();

  const untrack = trackShim({
    kill: () => killNow(),
    endAtExit: () => {
      if (processGroup && pid !== undefined) process.kill(-pid, 'SIGKILL');
      else subprocess.kill('SIGKILL');
    },
    ...(pid === undefined ? {} : { pid }),
  });
  const done = (async (): Promise<ShimExit> => {
    const killSignal = new Promise<'kill'>((resolve) => {
      wakeUp = () => resolve('kill');
      if (killRequested) resolve('kill');
    });
    let exit = await Promise.race([exited, killSignal.then(() => undefined)]);
    let exitedAtMs: number | undefined;
    if (exit === undefined) {
      // Timeout, flood or an explicit kill while the shim still ran.
      await killEverything();
      exit = await withTimeout(exited, 5000, { code: null, signal: 'SIGKILL' as const });
    } else {
      exitedAtMs = elapsedMs();
    }
    const cpuWaitAtExitMs = cpuWait();
    exitSeen = true;
    const watched = exitedAtMs === undefined ? undefined : exitWatch?.interval();
    exitWatch?.stop();
    timeout.clear();

    // Stdout still open after the exit means a descendant holds it: wait a little, then end them.
    let stdioHeldOpen = false;
    const closedInTime = await withTimeout(
      stdioClosed.then(() => true),
      stdioGraceMs,
      false,
    );
    if (!closedInTime) stdioHeldOpen = true;

    // Descendants still running after the shim is gone: give them a moment to finish on their own. While
    // waiting, only the ones known are looked at again (a full sweep of the process table each 100 ms cost
    // more than anything else the harness does while a run ends); one more full sweep before deciding.
    let left = await aliveDescendants();
    // The grace is the descendants' time, not the runner's: stretches in which its loop stalled are added.
    const graceStart = performance.now();
    const graceEnd = graceStart + (stdioHeldOpen ? 0 : descendantGraceMs);
    const graceLeft = () => performance.now() < graceEnd + loopStalls.stalledMsBetween(graceStart, performance.now());
    let waited = false;
    while (left.length > 0 && graceLeft()) {
      await sleep(100);
      waited = true;
      left = await aliveDescendants(false);
    }
    // Where the table cannot look up one process (Windows, `ps`), every look in the loop was a full sweep already.
    if (waited && left.length === 0 && table.info) left = await aliveDescendants();
    if (left.length > 0 || stdioHeldOpen || killRequested) await killEverything(table.info ? undefined : left);
    tracker?.stop();
    if (!closedInTime) {
      const closedAfterKill = await withTimeout(
        stdioClosed.then(() => true),
        2000,
        false,
      );
      if (!closedAfterKill) {
        subprocess.stdout?.destroy();
        subprocess.stderr?.destroy();
      }
    }
    untrack();
    const cpuMs = await options.cgroup?.remove();
    // Windows never reparents to init (its children keep naming the dead parent): nothing to look for there.
    const untied =
      !options.cgroup && !isWindows(platform) && pid !== undefined ? await untiedOrphans(table, pid, tracker) : [];
    return {
      command,
      pid,
      stdout: Buffer.concat(stdoutParts),
      stdoutChunks,
      stdoutBytes,
      stderr: Buffer.concat(stderrParts),
      stderrBytes,
      exitCode: exit.code,
      signal: exit.signal,
      spawnError:
        'error' in exit && exit.error
          ? describeSpawnError(exit.error, options.shim)
          : options.cgroup
            ? wrapperStartFailure(exit.code, stdoutBytes, Buffer.concat(stderrParts), options.shim, options.cgroup.path)
            : undefined,
      timedOut,
      ...(timeoutUndecided ? { timeoutUndecided } : {}),
      flooded,
      stdioHeldOpen,
      exitedAtMs,
      endedAtMs: elapsedMs(),
      startedAt: started,
      ...(cpuWaitAtExitMs === undefined ? {} : { cpuWaitAtExitMs }),
      ...(watched
        ? {
            exitInterval: {
              ...(watched.aliveAt === undefined ? {} : { aliveAtMs: watched.aliveAt - started }),
              goneByMs: watched.goneBy - started,
            },
          }
        : {}),
      spawnMs,
      ...(cpuMs === undefined ? {} : { cpuMs }),
      descendantsSeen: tracker?.seen() ?? [],
      descendantsLeft: left,
      descendantsKilled: [...descendantsKilled.values()],
      killedByHarness,
      ...(treeKillFailures.length > 0 ? { treeKillFailures } : {}),
      ...(survivors.length > 0 ? { survivors } : {}),
      ...(tracker?.tableUnreadable() ? { processTableUnreadable: tracker.tableUnreadable()! } : {}),
      ...(untied.length > 0 ? { untied } : {}),
    };
  })();

  return {
    pid,
    command,
    elapsedMs,
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
      if (pid === undefined || isWindows(platform)) return false;
      return signalProcessGroup(pid, signal);
    },
    kill: killNow,
    descendants: () => tracker?.seen() ?? [],
    snapshotTree,
    cpuWait,
    watchExit,
    exited: () => exitSeen || exitWatch?.interval() !== undefined,
    done,
  };
}
