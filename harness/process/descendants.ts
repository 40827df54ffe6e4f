// Records every process a shim started during its run (R6): members of its process group and, through
// the parent chain, processes that moved to a group of their own. A process that has exited, or is a
// zombie waiting for a reaper, counts as gone.
//
// Sampling is cheap where the table allows it (Linux: follow /proc/<pid>/task/*/children from the shim
// down), and cheaper still where the run has a cgroup: its member list is every process of the run, however
// it detached, in one read; a full sweep — every process newer than the shim, its group members, anything carrying the run's
// environment marker — happens only when the runner asks which descendants are still alive.
import { type ProcessInfo, type ProcessTable, ProcessTableUnreadable } from './process-table.js';

/** Identity of a process across snapshots: its pid plus its start time (so a reused pid is not confused). */
function identity(info: ProcessInfo): string {
  return `${info.pid}@${info.start}`;
}

const gone = (info: ProcessInfo) => info.state === 'Z' || info.state === 'X';

/** Orders two numeric start times (Linux ticks, Windows creation ticks); undefined where either is not a number. */
function compareStarts(a: string, b: string): number | undefined {
  if (!/^\d+$/.test(a) || !/^\d+$/.test(b)) return undefined;
  const difference = BigInt(a) - BigInt(b);
  return difference === 0n ? 0 : difference > 0n ? 1 : -1;
}

/** Whether start time `a` is known not to be before `b`. */
const startedAfter = (a: string, b: string) => (compareStarts(a, b) ?? -1) >= 0;

/**
 * Whether `info` is known to be older than the process now holding the pid it names as parent (started at
 * `parentStart`), and so cannot be its child. Windows never reparents: a long-lived process keeps naming a parent
 * that exited long ago, whose pid a run's process may hold now (Wine reuses pids within seconds; its services,
 * started by the first process of the Wine session, were taken for a run's leftovers and killed). Where start
 * times are not numbers (macOS `ps` dates), nothing is known: POSIX reparents, so a parent pid there is the live
 * parent.
 */
const olderThanParent = (info: ProcessInfo, parentStart: string) => compareStarts(info.start, parentStart) === -1;

/**
 * Every process some run's tracker took as its own (pid@start), across the runs of this runner, most recent
 * last. A process one run tracks is tied to that run: another run's untied-orphan check (untied-orphans.ts)
 * must not count it as an escape of its own (a killed shim's tools are orphaned to init while other runs end).
 */
const trackedByRuns = new Set<string>();
const TRACKED_BY_RUNS_SIZE = 16_384;

/** Whether some run of this runner tracks (or tracked) `info` as its descendant. */
export function trackedByARun(info: ProcessInfo): boolean {
  return trackedByRuns.has(identity(info));
}

export interface DescendantTrackerOptions {
  rootPid: number;
  table: ProcessTable;
  intervalMs: number;
  /** Whether the root leads a process group whose members are all its descendants (POSIX, detached). */
  processGroup: boolean;
  /** NAME=value set only in this run's environment: a process carrying it is a descendant (see ProcessTable). */
  environmentMarker?: string;
  /** The run's own processes where the platform keeps such a list (its cgroup's members), root included. */
  members?: () => number[];
}

export class DescendantTracker {
  private readonly known = new Map<string, ProcessInfo>();
  private rootIdentity: string | undefined;
  private rootStart: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private unreadable: string | undefined;

  constructor(private readonly options: DescendantTrackerOptions) {}

  /** Starts sampling in the background. */
  start(): void {
    if (this.timer) return;
    void this.poll();
    this.timer = setInterval(() => void this.poll(), this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Takes one sample now (concurrent calls share it). */
  poll(): Promise<void> {
    this.polling ??= this.sample().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  /** The root's start time, once a sample saw it (the table's units). */
  rootStartTime(): string | undefined {
    return this.rootStart;
  }

  private remember(info: ProcessInfo): void {
    const key = identity(info);
    this.known.set(key, info);
    if (trackedByRuns.size >= TRACKED_BY_RUNS_SIZE) trackedByRuns.delete(trackedByRuns.values().next().value!);
    trackedByRuns.add(key);
  }

  /**
   * Why the process table could not be read, once a sample or sweep found it unreadable: what the run left
   * running is then unknown (an empty answer is not "nothing left").
   */
  tableUnreadable(): string | undefined {
    return this.unreadable;
  }

  private noteUnreadable(error: unknown): void {
    if (!(error instanceof ProcessTableUnreadable)) throw error;
    this.unreadable ??= error.message;
  }

  /** Every descendant seen so far (not the root itself). */
  seen(): ProcessInfo[] {
    return [...this.known.values()];
  }

  /**
   * Descendants that still run (zombies count as gone), after a full sweep for any not seen yet; with
   * `sweep` false (and a table that can look up one process), after a sample only.
   */
  async alive(options: { sweep?: boolean } = {}): Promise<ProcessInfo[]> {
    await this.poll();
    const { table, rootPid } = this.options;
    if (options.sweep === false && table.info) {
      const info = table.info.bind(table);
      return [...this.known.values()].flatMap((known) => {
        const now = info(known.pid);
        return now && identity(now) === identity(known) && !gone(now) ? [now] : [];
      });
    }
    // Processes a run starts have pids above the shim's (barring pid wrap-around): sweep only those.
    let current: ProcessInfo[];
    try {
      current = await table.snapshot(rootPid);
    } catch (error) {
      this.noteUnreadable(error);
      return [];
    }
    this.addFrom(current);
    // The marker is looked for among the processes just listed that are not known already (nor zombies).
    await this.addMarked(current.filter((info) => !gone(info) && !this.known.has(identity(info))));
    const byIdentity = new Map(current.map((info) => [identity(info), info]));
    const alive: ProcessInfo[] = [];
    for (const info of this.known.values()) {
      const now = byIdentity.get(identity(info)) ?? (info.pid <= rootPid ? table.info?.(info.pid) : undefined);
      if (now && identity(now) === identity(info) && !gone(now)) alive.push(now);
    }
    return alive;
  }

  private async sample(): Promise<void> {
    const { table } = this.options;
    try {
      if (this.options.members && table.info) this.addMembers(this.options.members(), table.info.bind(table));
      else if (table.childrenOf && table.info)
        this.followChildren(table.childrenOf.bind(table), table.info.bind(table));
      else this.addFrom(await table.snapshot());
    } catch (error) {
      // A failed sample is retried at the next tick; an unreadable table is remembered.
      if (error instanceof ProcessTableUnreadable) this.unreadable ??= error.message;
    }
  }

  /** Linux fast path: walk the children lists from the root and every known descendant. */
  private followChildren(childrenOf: (pid: number) => number[], info: (pid: number) => ProcessInfo | undefined): void {
    const { rootPid } = this.options;
    const root = info(rootPid);
    if (root && this.rootIdentity === undefined) {
      this.rootIdentity = identity(root);
      this.rootStart = root.start;
    }
    const queue: number[] = [];
    if (root && identity(root) === this.rootIdentity) queue.push(rootPid);
    for (const known of this.known.values()) queue.push(known.pid);
    const visited = new Set<number>();
    while (queue.length > 0) {
      const pid = queue.shift()!;
      if (visited.has(pid)) continue;
      visited.add(pid);
      for (const child of childrenOf(pid)) {
        const childInfo = info(child);
        if (!childInfo || child === rootPid) continue;
        if (!this.known.has(identity(childInfo))) this.remember(childInfo);
        queue.push(child);
      }
    }
  }

  /** Adds the run's members not seen yet (a pid already known is the same process: it is still the run's). */
  private addMembers(members: number[], info: (pid: number) => ProcessInfo | undefined): void {
    const { rootPid } = this.options;
    if (this.rootIdentity === undefined) {
      const root = info(rootPid);
      if (root) {
        this.rootIdentity = identity(root);
        this.rootStart = root.start;
      }
    }
    const knownPids = new Set([...this.known.values()].map((known) => known.pid));
    for (const pid of members) {
      if (pid === rootPid || knownPids.has(pid)) continue;
      const memberInfo = info(pid);
      if (memberInfo && !gone(memberInfo)) this.remember(memberInfo);
    }
  }

  /** Adds, from a list of processes, the root's group members and every process whose parent chain reaches it. */
  private addFrom(processes: ProcessInfo[]): void {
    const { rootPid, processGroup } = this.options;
    const root = processes.find((info) => info.pid === rootPid);
    if (root && this.rootIdentity === undefined) {
      this.rootIdentity = identity(root);
      this.rootStart = root.start;
    }
    // Each parent with its start time: a child is never older than its parent (see olderThanParent).
    const parents = new Map<number, string>();
    if (root && identity(root) === this.rootIdentity) parents.set(rootPid, root.start);
    // Windows never reparents: a child still names the shim's pid as its parent after the shim exited.
    // The pid may be reused by then, so only processes created after the shim count.
    const orphanOfRoot = (info: ProcessInfo) =>
      !processGroup &&
      !root &&
      this.rootStart !== undefined &&
      info.ppid === rootPid &&
      startedAfter(info.start, this.rootStart);
    const childOfParent = (info: ProcessInfo) => {
      const parentStart = parents.get(info.ppid);
      return parentStart !== undefined && !olderThanParent(info, parentStart);
    };
    for (const info of processes) if (this.known.has(identity(info))) parents.set(info.pid, info.start);
    let added = true;
    while (added) {
      added = false;
      for (const info of processes) {
        if (info.pid === rootPid || this.known.has(identity(info))) continue;
        const inGroup = processGroup && info.pgid === rootPid;
        if (inGroup || childOfParent(info) || orphanOfRoot(info)) {
          this.remember(info);
          parents.set(info.pid, info.start);
          added = true;
        }
      }
    }
  }

  /** Adds processes carrying the run's environment marker (the root excepted), among `candidates`. */
  private async addMarked(candidates: ProcessInfo[]): Promise<void> {
    const { environmentMarker, table, rootPid } = this.options;
    if (!environmentMarker || !table.withEnvironmentEntry) return;
    try {
      for (const info of await table.withEnvironmentEntry(environmentMarker, rootPid, candidates)) {
        if (info.pid !== rootPid && info.pid !== process.pid) this.remember(info);
      }
    } catch {
      // best effort: the group and the parent chain still apply
    }
  }
}
