import { describe, expect, it } from 'vitest';
import { DescendantTracker } from '../../harness/process/descendants.js';
import type { ProcessInfo, ProcessTable } from '../../harness/process/process-table.js';

/** A process table whose snapshots the test scripts one by one. */
class ScriptedTable implements ProcessTable {
  constructor(private readonly snapshots: ProcessInfo[][]) {}
  private index = 0;
  async snapshot(): Promise<ProcessInfo[]> {
    const snapshot = this.snapshots[Math.min(this.index, this.snapshots.length - 1)]!;
    this.index += 1;
    return snapshot;
  }
}

const proc = (pid: number, ppid: number, pgid: number, state = 'S', start = `t${pid}`): ProcessInfo => ({
  pid,
  ppid,
  pgid,
  state,
  start,
  name: `p${pid}`,
});

describe('DescendantTracker', () => {
  it('follows the parent chain to a tool that moved to its own process group', async () => {
    const table = new ScriptedTable([
      [proc(1, 0, 1), proc(100, 1, 100), proc(101, 100, 100), proc(102, 101, 102), proc(500, 1, 500)],
      // the shim (100) exits; its group member 101 and the detached 102 live on, reparented to 1
      [proc(1, 0, 1), proc(101, 1, 100), proc(102, 1, 102), proc(500, 1, 500)],
    ]);
    const tracker = new DescendantTracker({ rootPid: 100, table, intervalMs: 1000, processGroup: true });
    await tracker.poll();
    expect(
      tracker
        .seen()
        .map((info) => info.pid)
        .sort(),
    ).toEqual([101, 102]);
    expect((await tracker.alive()).map((info) => info.pid).sort()).toEqual([101, 102]);
  });

  it('counts a zombie as gone and does not confuse a reused pid with the descendant', async () => {
    const table = new ScriptedTable([
      [proc(100, 1, 100), proc(101, 100, 100), proc(102, 100, 100)],
      [proc(101, 1, 100, 'Z'), proc(102, 1, 1, 'S', 'later')],
    ]);
    const tracker = new DescendantTracker({ rootPid: 100, table, intervalMs: 1000, processGroup: true });
    await tracker.poll();
    expect(await tracker.alive()).toEqual([]);
  });

  it('sees a group member whose parent already exited only through the group (POSIX)', async () => {
    const snapshot = [proc(100, 1, 100), proc(103, 1, 100)];
    const withGroup = new DescendantTracker({
      rootPid: 100,
      table: new ScriptedTable([snapshot]),
      intervalMs: 1000,
      processGroup: true,
    });
    await withGroup.poll();
    expect(withGroup.seen().map((info) => info.pid)).toEqual([103]);
    // Windows has no groups: only the parent chain counts.
    const noGroup = new DescendantTracker({
      rootPid: 100,
      table: new ScriptedTable([snapshot]),
      intervalMs: 1000,
      processGroup: false,
    });
    await noGroup.poll();
    expect(noGroup.seen()).toEqual([]);
  });

  it('finds a descendant that escaped group and parent chain before any sample, by the run marker', async () => {
    const escaped = proc(300, 1, 300);
    const table: ProcessTable = {
      snapshot: async () => [proc(1, 0, 1), escaped, proc(400, 1, 400)],
      withEnvironmentEntry: async (entry) => (entry === 'YUME_CONFORMANCE_RUN_ID=abc' ? [escaped] : []),
    };
    const tracker = new DescendantTracker({
      rootPid: 100,
      table,
      intervalMs: 1000,
      processGroup: true,
      environmentMarker: 'YUME_CONFORMANCE_RUN_ID=abc',
    });
    expect((await tracker.alive()).map((info) => info.pid)).toEqual([300]);
  });

  it('follows children lists on the fast path and finds a double-forked group member in the final sweep', async () => {
    const processes = new Map([
      [100, proc(100, 1, 100)],
      [101, proc(101, 100, 100)],
      [102, proc(102, 101, 102)],
      [103, proc(103, 1, 100)],
      [50, proc(50, 1, 50)],
    ]);
    const children: Record<number, number[]> = { 100: [101], 101: [102] };
    let snapshots = 0;
    const table: ProcessTable = {
      snapshot: async (newerThan = 0) => {
        snapshots += 1;
        return [...processes.values()].filter((info) => info.pid > newerThan);
      },
      childrenOf: (pid) => children[pid] ?? [],
      info: (pid) => processes.get(pid),
    };
    const tracker = new DescendantTracker({ rootPid: 100, table, intervalMs: 1000, processGroup: true });
    await tracker.poll();
    expect(snapshots).toBe(0); // polling read only the children lists
    expect(
      tracker
        .seen()
        .map((info) => info.pid)
        .sort(),
    ).toEqual([101, 102]);
    // 103 (in the group, already reparented to 1) is found by the sweep; 50 is older than the shim.
    expect((await tracker.alive()).map((info) => info.pid).sort()).toEqual([101, 102, 103]);
  });

  it('on Windows (no groups, no reparenting) finds a child of the exited shim, but not an older process reusing its pid', async () => {
    const table = new ScriptedTable([
      [proc(100, 4, 100, 'R', '1000')],
      // the shim (100) exited; 300 still names it as parent and is newer; 301 is older and unrelated
      [proc(300, 100, 300, 'R', '1500'), proc(301, 100, 301, 'R', '900')],
    ]);
    const tracker = new DescendantTracker({ rootPid: 100, table, intervalMs: 5000, processGroup: false });
    await tracker.poll();
    expect((await tracker.alive()).map((info) => info.pid)).toEqual([300]);
  });

  it('on Windows does not take a process older than the descendant whose reused pid it names as parent', async () => {
    const table = new ScriptedTable([
      [proc(100, 4, 100, 'R', '1000'), proc(200, 100, 200, 'R', '1100')],
      // 300 names 200 as its parent but is older than 200: an earlier holder of pid 200 started it (Wine's services,
      // started with the Wine session, name its first process). 301 is 200's real child.
      [
        proc(100, 4, 100, 'R', '1000'),
        proc(200, 100, 200, 'R', '1100'),
        proc(300, 200, 300, 'R', '500'),
        proc(301, 200, 301, 'R', '1200'),
      ],
    ]);
    const tracker = new DescendantTracker({ rootPid: 100, table, intervalMs: 5000, processGroup: false });
    await tracker.poll();
    expect((await tracker.alive()).map((info) => info.pid).sort()).toEqual([200, 301]);
  });

  it("with the run's member list (a cgroup) samples it alone, and finds a process no children list shows", async () => {
    const processes = new Map<number, ProcessInfo>([
      [100, proc(100, 1, 100)],
      [101, proc(101, 100, 100)],
      // double-forked into its own session: neither a child of the shim nor in its group
      [102, proc(102, 1, 102)],
      [500, proc(500, 1, 500)],
    ]);
    let childrenReads = 0;
    let memberReads = 0;
    const table: ProcessTable = {
      snapshot: async (newerThan = 0) => [...processes.values()].filter((info) => info.pid > newerThan),
      childrenOf: (pid) => {
        childrenReads += 1;
        return pid === 100 ? [101] : [];
      },
      info: (pid) => processes.get(pid),
    };
    const tracker = new DescendantTracker({
      rootPid: 100,
      table,
      intervalMs: 1000,
      processGroup: true,
      members: () => {
        memberReads += 1;
        return [100, 101, 102];
      },
    });
    await tracker.poll();
    expect(childrenReads).toBe(0);
    expect(memberReads).toBe(1);
    expect(
      tracker
        .seen()
        .map((info) => info.pid)
        .sort(),
    ).toEqual([101, 102]);
    expect(tracker.rootStartTime()).toBe('t100');
    // A member that ended is gone; 500 was never the run's.
    processes.set(101, proc(101, 1, 100, 'Z'));
    expect((await tracker.alive()).map((info) => info.pid)).toEqual([102]);
  });

  it('without a sweep looks only at the descendants it knows, and never scans the table', async () => {
    const processes = new Map<number, ProcessInfo>([
      [100, proc(100, 1, 100)],
      [101, proc(101, 100, 100)],
      [102, proc(102, 100, 100)],
    ]);
    let scans = 0;
    const table: ProcessTable = {
      snapshot: async () => {
        scans += 1;
        return [...processes.values()];
      },
      withEnvironmentEntry: async () => {
        scans += 1;
        return [];
      },
      childrenOf: (pid) => (pid === 100 ? [101, 102] : []),
      info: (pid) => processes.get(pid),
    };
    const tracker = new DescendantTracker({ rootPid: 100, table, intervalMs: 1000, processGroup: true });
    await tracker.poll();
    processes.delete(100);
    processes.set(101, proc(101, 1, 100, 'Z'));
    // 103 appeared outside the chain: only a sweep would find it.
    processes.set(103, proc(103, 1, 100));
    expect((await tracker.alive({ sweep: false })).map((info) => info.pid)).toEqual([102]);
    expect(scans).toBe(0);
    expect((await tracker.alive()).map((info) => info.pid).sort()).toEqual([102, 103]);
    expect(scans).toBeGreaterThan(0);
  });
});
