// Nothing a run started outlives it (Linux): each run's shim starts inside a cgroup v2 leaf of its own, so
// every process it starts is in that leaf however it detaches (new session, new group, double fork, empty
// environment). `cgroup.procs` lists them and `cgroup.kill` ends them all at once. A PID namespace is not
// used on purpose: the shim would become its init, ignore signals it does not handle and take every
// descendant down with it, hiding the very leftovers the suite must report.
//
// The shim joins its leaf before it runs a single instruction of its own: it is started through
// `/bin/sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' LEAF FILE ARGS...`, a fixed script whose only
// inputs are argv entries (never parsed by the shell), so nothing escapes between fork and join.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SpawnCommand } from './shim-command.js';

export type IsolationMechanism = 'cgroup-v2' | 'process-group' | 'process-tree';

/** Set to `process-group` to force the fallback (tests; machines where cgroups misbehave). */
export const ISOLATION_VARIABLE = 'YUME_CONFORMANCE_ISOLATION';

const JOIN_SCRIPT = 'echo $$ > "$0/cgroup.procs" && exec "$@"';

export interface RunCgroup {
  readonly path: string;
  /** The command that starts `command` inside this leaf. */
  wrap(command: SpawnCommand): SpawnCommand;
  /** Pids in the leaf now. */
  members(): number[];
  /** Ends every process in the leaf (cgroup.kill). */
  kill(): void;
  /**
   * Ends what is left and waits for the leaf to empty (up to `waitMs`); an empty leaf is kept for a later run.
   * Resolves to the CPU ms its processes used (cpu.stat, every process the shim started counted, orphans too),
   * or undefined where the kernel gives no cpu.stat.
   */
  remove(waitMs?: number): Promise<number | undefined>;
}

/** CPU ms a cgroup's processes have used so far (cpu.stat usage_usec, present with or without the cpu controller). */
export function cgroupCpuMs(directory: string): number | undefined {
  try {
    const match = /^usage_usec (\d+)$/m.exec(readFileSync(path.join(directory, 'cpu.stat'), 'utf8'));
    return match ? Number(match[1]) / 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** The cgroup v2 mount point and this process's cgroup in it, or why there is none. */
function locateOwnCgroup(): { directory: string } | { problem: string } {
  let mounts: string;
  let own: string;
  try {
    mounts = readFileSync('/proc/self/mounts', 'utf8');
    own = readFileSync('/proc/self/cgroup', 'utf8');
  } catch (error) {
    return { problem: `cannot read /proc: ${(error as Error).message}` };
  }
  const mount = mounts
    .split('\n')
    .map((line) => line.split(' '))
    .find((fields) => fields[2] === 'cgroup2')?.[1];
  if (!mount) return { problem: 'no cgroup v2 hierarchy is mounted' };
  const unified = own.split('\n').find((line) => line.startsWith('0::'));
  if (!unified) return { problem: 'this process is in no cgroup v2 group' };
  return { directory: path.join(mount, unified.slice(3)) };
}

/** Empty suite cgroups of runners that are gone (a runner killed outright cannot remove its own). */
function removeStaleSuites(parent: string): void {
  try {
    for (const name of readdirSync(parent)) {
      const owner = /^yume-conformance-(\d+)(?:-\d+)?$/.exec(name)?.[1];
      if (!owner || processRuns(Number(owner))) continue;
      const suite = path.join(parent, name);
      for (const leaf of readdirSync(suite, { withFileTypes: true })) {
        if (leaf.isDirectory()) rmdirQuietly(path.join(suite, leaf.name));
      }
      rmdirQuietly(suite);
    }
  } catch {
    // nothing to tidy, or not allowed to
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function rmdirQuietly(directory: string): void {
  try {
    rmdirSync(directory); // fails while a process is still in it: it is left alone
  } catch {
    // busy or gone
  }
}

let suites = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One suite invocation's cgroup, holding a leaf per running run. A leaf its run left empty is kept for a later
 * run instead of being removed and made again: creating and destroying a cgroup costs the kernel about 4 ms,
 * a large part of the runner's own CPU per run. An emptied leaf holds nothing of the run that used it.
 */
export class SuiteCgroup {
  private leaves = 0;
  private readonly idle: string[] = [];

  private constructor(readonly directory: string) {}

  /**
   * The suite's cgroup where one can be made (Linux, cgroup v2, writable, cgroup.kill available), else why
   * not. `env` may force the fallback (ISOLATION_VARIABLE=process-group).
   */
  static create(
    platform: NodeJS.Platform,
    env: NodeJS.ProcessEnv = process.env,
  ): { cgroup: SuiteCgroup; mechanism: 'cgroup-v2' } | { mechanism: IsolationMechanism; detail: string } {
    if (platform === 'win32')
      return { mechanism: 'process-tree', detail: 'Windows: taskkill /T ends the process tree' };
    const fallback = (detail: string) => ({ mechanism: 'process-group' as const, detail });
    if (env[ISOLATION_VARIABLE] === 'process-group') return fallback(`${ISOLATION_VARIABLE}=process-group`);
    if (platform !== 'linux') return fallback('cgroups exist only on Linux');
    if (!existsSync('/bin/sh')) return fallback('no /bin/sh to start shims inside a cgroup');
    const own = locateOwnCgroup();
    if ('problem' in own) return fallback(own.problem);
    removeStaleSuites(own.directory);
    suites += 1;
    // One per suite invocation, several may run in one process (the programmatic API): pid and a counter.
    const directory = path.join(own.directory, `yume-conformance-${process.pid}-${suites}`);
    try {
      mkdirSync(directory);
      if (!existsSync(path.join(directory, 'cgroup.kill'))) {
        rmdirSync(directory);
        return fallback('this kernel has no cgroup.kill (Linux 5.14 or later is needed)');
      }
    } catch (error) {
      return fallback(
        `cannot create a cgroup under ${own.directory}: ${(error as NodeJS.ErrnoException).code ?? error}`,
      );
    }
    return { cgroup: new SuiteCgroup(directory), mechanism: 'cgroup-v2' };
  }

  /** An empty leaf for one run's process (undefined if none can be made: the run falls back to groups). */
  leaf(): RunCgroup | undefined {
    const directory = this.emptyLeaf();
    if (!directory) return undefined;
    const members = () => {
      try {
        return readFileSync(path.join(directory, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
      } catch {
        return [];
      }
    };
    const kill = () => {
      try {
        writeFileSync(path.join(directory, 'cgroup.kill'), '1');
      } catch {
        // already removed
      }
    };
    // A kept leaf's count goes on from its earlier runs: this run's CPU is what it adds.
    const cpuAtStart = cgroupCpuMs(directory);
    return {
      path: directory,
      wrap: (command) => ({
        ...command,
        file: '/bin/sh',
        args: ['-c', JOIN_SCRIPT, directory, command.file, ...command.args],
      }),
      members,
      kill,
      remove: async (waitMs = 2000) => {
        if (members().length > 0) kill();
        const deadline = Date.now() + waitMs;
        while (members().length > 0 && Date.now() < deadline) await sleep(20);
        const cpuNow = cgroupCpuMs(directory);
        // Empty: kept for the next run. Still busy (a process in uninterruptible sleep): left to close().
        if (members().length === 0) this.idle.push(directory);
        return cpuNow === undefined || cpuAtStart === undefined ? undefined : cpuNow - cpuAtStart;
      },
    };
  }

  private emptyLeaf(): string | undefined {
    const kept = this.idle.pop();
    if (kept !== undefined) return kept;
    this.leaves += 1;
    const directory = path.join(this.directory, `run-${this.leaves}`);
    try {
      mkdirSync(directory);
      return directory;
    } catch {
      return undefined;
    }
  }

  /** Removes the suite's cgroup: its leaves (kept empty ones, and any a run could not empty), then itself. */
  close(): void {
    this.idle.length = 0;
    try {
      for (const entry of readdirSync(this.directory, { withFileTypes: true }))
        if (entry.isDirectory()) rmdirQuietly(path.join(this.directory, entry.name));
      rmdirSync(this.directory);
    } catch {
      // a leaf still busy: nothing more can be done from here
    }
  }
}
