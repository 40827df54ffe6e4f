// What the runner holds of one started shim: the handle while it runs (ShimProcess) and, once it and its
// tree are gone, what happened (ShimExit).

import type { CpuWaitClock } from './cpu-wait.js';
import type { ProcessInfo } from './process-table.js';
import type { SpawnCommand } from './shim-command.js';

export interface StdoutChunkTime {
  /** Byte offset just past this chunk in the captured stdout. */
  end: number;
  /** Arrival, ms since spawn. */
  atMs: number;
}

export interface ShimExit {
  command: SpawnCommand;
  pid: number | undefined;
  /** Captured stdout bytes, exactly as written (up to the cap). */
  stdout: Buffer;
  stdoutChunks: StdoutChunkTime[];
  /** Total bytes the shim wrote to stdout, including any beyond the cap. */
  stdoutBytes: number;
  stderr: Buffer;
  stderrBytes: number;
  exitCode: number | null;
  signal: string | null;
  /** The shim could not be started (missing file, not executable, ...): the reason. */
  spawnError?: string;
  timedOut: boolean;
  /** The timeout ran out while the machine's load took the shim's time (own-time-timeout.ts): undecided. */
  timeoutUndecided?: boolean;
  /** Stdout exceeded maxStdoutBytes; the tree was killed. */
  flooded: boolean;
  /** Stdout or stderr stayed open after the shim exited: a descendant inherited and kept it. */
  stdioHeldOpen: boolean;
  /**
   * The pipes stayed open past the grace with the machine, not the shim, taking the time (the grace reached its
   * cap, or ran out unmeasured on an oversubscribed machine): not the shim's fault unless a holder was found.
   */
  stdioUndecided?: boolean;
  /** ms since spawn at which the shim process exited (undefined if it never did on its own). */
  exitedAtMs: number | undefined;
  /** ms since spawn at which everything was over. */
  endedAtMs: number;
  /** performance.now() at spawn: turns the ms-since-spawn times into the runner's clock (loop-stalls.ts). */
  startedAt?: number;
  /** The run's CPU wait (cpu-wait.ts) when the exit was seen, where it could still be read. */
  cpuWaitAtExitMs?: number;
  /**
   * When it exited, ms since spawn, as the exit watcher saw it (exit-watcher.ts; only while a deadline was on):
   * running at aliveAtMs (absent: never seen running once watched), gone by goneByMs.
   */
  exitInterval?: { aliveAtMs?: number; goneByMs: number };
  /**
   * ms the runner spent inside the spawn call (fork, then the wait until the child runs the shim); the runner's
   * thread runs nothing else meanwhile. Absent when nothing was spawned.
   */
  spawnMs?: number;
  /** CPU ms of the shim and everything it started, from its cgroup leaf (Linux with a cgroup; else absent). */
  cpuMs?: number;
  /** Every descendant seen during the run. */
  descendantsSeen: ProcessInfo[];
  /** Descendants still running after the shim exited (and its grace); the harness killed them. */
  descendantsLeft: ProcessInfo[];
  /** Descendants the harness found running when it ended the tree (timeout, flood, leftovers). */
  descendantsKilled: ProcessInfo[];
  /** The harness had to kill processes (timeout, flood, held stdout or leftovers). */
  killedByHarness: boolean;
  /** Tree kills that failed (taskkill /T: Wine lacks /T, access denied, ...); each member was then ended by pid. */
  treeKillFailures?: string[];
  /** Members of the tree still running after every attempt to end them: the harness could not. */
  survivors?: ProcessInfo[];
  /** Why the process table could not be read: what the run left running is unknown. */
  processTableUnreadable?: string;
  /**
   * Without a cgroup (Linux): processes orphaned to init that started during the run and carry nothing that
   * ties them to it (no group, parent chain or run marker). They may be escapes or any other program's:
   * reported as not verified, never killed by guess.
   */
  untied?: ProcessInfo[];
}

export interface ShimProcess {
  readonly pid: number | undefined;
  readonly command: SpawnCommand;
  /** ms since spawn. */
  elapsedMs(): number;
  /** Writes to the shim's stdin (persistent mode). Returns false when stdin is closed. */
  write(text: string): boolean;
  closeStdin(): void;
  /** Sends a signal to the shim's process group (POSIX only). */
  signalGroup(signal: NodeJS.Signals): boolean;
  /** Kills the whole tree now (the result reports killedByHarness). */
  kill(): void;
  /** Descendants seen so far (sampled in the background). */
  descendants(): ProcessInfo[];
  /**
   * Takes a snapshot of the tree now, before a kill the runner makes: every member is then known to the
   * tracker, so none is missed when its parent dies between two samples. Resolves to the members running.
   */
  snapshotTree?(): Promise<ProcessInfo[]>;
  /** How long the run's processes have waited for a CPU so far (Linux; cpu-wait.ts). */
  cpuWait?: CpuWaitClock;
  /** Starts timing the exit on the exit watcher (a deadline is on; exit-watcher.ts). */
  watchExit?(): void;
  /** The shim's own process has exited: the runner saw it, or the exit watcher did (the runner's loop was busy). */
  exited?(): boolean;
  /** Settles once the shim and its tree are gone and output is collected. Never rejects. */
  readonly done: Promise<ShimExit>;
}

/** The CPU ms of a run's shim processes, when every one of them was measured (cgroup leaves), else undefined. */
export function runShimCpuMs(exits: readonly Pick<ShimExit, 'cpuMs'>[]): number | undefined {
  let sum = 0;
  for (const exit of exits) {
    if (exit.cpuMs === undefined) return undefined;
    sum += exit.cpuMs;
  }
  return exits.length > 0 ? sum : undefined;
}
