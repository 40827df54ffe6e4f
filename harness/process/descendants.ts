// Records every process a shim started during its run (R6): members of its process group and, through
// the parent chain, processes that moved to a group of their own. A process that has exited, or is a
// zombie waiting for a reaper, counts as gone.
import type { ProcessInfo, ProcessTable } from './process-table.js';

/** Identity of a process across snapshots: its pid plus its start time (so a reused pid is not confused). */
function identity(info: ProcessInfo): string {
  return `${info.pid}@${info.start}`;
}

export interface DescendantTrackerOptions {
  rootPid: number;
  table: ProcessTable;
  intervalMs: number;
  /** Whether the root leads a process group whose members are all its descendants (POSIX, detached). */
  processGroup: boolean;
  /** NAME=value set only in this run's environment: a process carrying it is a descendant (see ProcessTable). */
  environmentMarker?: string;
}

export class DescendantTracker {
  private readonly known = new Map<string, ProcessInfo>();
  private rootIdentity: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

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

  /** Every descendant seen so far (not the root itself). */
  seen(): ProcessInfo[] {
    return [...this.known.values()];
  }

  /** Descendants seen so far that still run (zombies count as gone); takes a fresh sample first. */
  async alive(): Promise<ProcessInfo[]> {
    await this.poll();
    await this.addMarked();
    const current = new Map((await this.options.table.snapshot()).map((info) => [identity(info), info]));
    return this.seen()
      .map((info) => current.get(identity(info)))
      .filter((info): info is ProcessInfo => info !== undefined && info.state !== 'Z' && info.state !== 'X');
  }

  /** Adds processes carrying the run's environment marker (the root excepted). */
  private async addMarked(): Promise<void> {
    const { environmentMarker, table, rootPid } = this.options;
    if (!environmentMarker || !table.withEnvironmentEntry) return;
    try {
      for (const info of await table.withEnvironmentEntry(environmentMarker)) {
        if (info.pid !== rootPid && info.pid !== process.pid) this.known.set(identity(info), info);
      }
    } catch {
      // best effort: the group and the parent chain still apply
    }
  }

  private async sample(): Promise<void> {
    let processes: ProcessInfo[];
    try {
      processes = await this.options.table.snapshot();
    } catch {
      return; // a failed sample is retried at the next tick
    }
    const { rootPid, processGroup } = this.options;
    const root = processes.find((info) => info.pid === rootPid);
    if (root && this.rootIdentity === undefined) this.rootIdentity = identity(root);
    // Parents whose children count: the root while it lives, and every known descendant still present.
    const parents = new Set<number>();
    if (root && identity(root) === this.rootIdentity) parents.add(rootPid);
    for (const info of processes) {
      if (this.known.has(identity(info))) parents.add(info.pid);
    }
    let added = true;
    while (added) {
      added = false;
      for (const info of processes) {
        if (info.pid === rootPid || this.known.has(identity(info))) continue;
        const inGroup = processGroup && info.pgid === rootPid;
        if (inGroup || parents.has(info.ppid)) {
          this.known.set(identity(info), info);
          parents.add(info.pid);
          added = true;
        }
      }
    }
  }
}
