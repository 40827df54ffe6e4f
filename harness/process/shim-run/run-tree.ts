// The shim's process tree: the descendants the tracker follows (R6), the members of the run's cgroup whatever
// they did to leave the group or the tree, and the harness's kills of it all (timeout, flood, interrupt
// escalation, leftovers) with what they ended and what survived.
import type { RunCgroup } from '../cgroup.js';
import { DescendantTracker } from '../descendants.js';
import { killTree } from '../kill-tree.js';
import type { PlatformName } from '../platform.js';
import type { ProcessInfo, ProcessTable } from '../process-table.js';

export interface RunTreeOptions {
  platform: PlatformName;
  /** The shim's pid (undefined: nothing was started). */
  pid: number | undefined;
  /** Whether the shim leads its own process group. */
  processGroup: boolean;
  table: ProcessTable;
  /** Time between two samples of the shim's descendants. */
  intervalMs: number;
  /** `NAME=value` every process of the run inherits (see DescendantTracker). */
  environmentMarker: string;
  cgroup?: RunCgroup;
}

export class RunTree {
  /** Samples the shim's descendants in the background from the start. */
  readonly tracker: DescendantTracker | undefined;
  /** The members found running when the harness ended the tree, by pid. */
  readonly killed = new Map<number, ProcessInfo>();
  readonly treeKillFailures: string[] = [];
  /** Members still running after every attempt to end them. */
  survivors: ProcessInfo[] = [];
  /** The harness had to kill processes. */
  killedByHarness = false;

  constructor(private readonly options: RunTreeOptions) {
    const { pid, table, intervalMs, processGroup, environmentMarker, cgroup } = options;
    this.tracker =
      pid === undefined
        ? undefined
        : new DescendantTracker({
            rootPid: pid,
            table,
            intervalMs,
            processGroup,
            environmentMarker,
            ...(cgroup ? { members: cgroup.members } : {}),
          });
    this.tracker?.start();
  }

  /** The run's processes still running. `sweep` false: only the descendants already known (and the cgroup's members) are looked at. */
  async alive(sweep = true): Promise<ProcessInfo[]> {
    const tracked = this.tracker ? await this.tracker.alive({ sweep }) : [];
    return [...tracked, ...this.cgroupMembers(tracked)];
  }

  /**
   * The timeout, flood, interrupt-escalation and leftover kills: the tree as it is now (`fresh`: a sweep just
   * made), ended at once.
   */
  async killEverything(fresh?: ProcessInfo[]): Promise<void> {
    const { platform, pid, processGroup, cgroup } = this.options;
    this.killedByHarness = true;
    const snapshot = fresh ?? (await this.alive());
    cgroup?.kill();
    const outcome = await killTree({ platform, rootPid: pid, processGroup, alive: () => this.alive(), snapshot });
    for (const info of snapshot) this.killed.set(info.pid, info);
    if (outcome.treeKillFailure) this.treeKillFailures.push(outcome.treeKillFailure);
    this.survivors = outcome.survivors;
  }

  /** With a cgroup, its members are the run's processes whatever they did to leave the group or the tree. */
  private cgroupMembers(known: ProcessInfo[]): ProcessInfo[] {
    const { cgroup, pid, table } = this.options;
    if (!cgroup) return [];
    const seen = new Set(known.map((info) => info.pid));
    return cgroup
      .members()
      .filter((member) => member !== pid && !seen.has(member))
      .flatMap((member) => {
        const info = table.info?.(member);
        return info && info.state !== 'Z' ? [info] : [];
      });
  }
}
