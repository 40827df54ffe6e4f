// The kills the harness makes, on Linux with real processes: a snapshot of the tree right before the app-style
// kill (so a tool whose parent dies between two samples is still reported and ended), a tree kill that fails
// (Wine's taskkill has no /T; real taskkill fails on access denied) falling back to ending each pid of the
// snapshot, and a process table that cannot be read making the process rules unknown instead of "nothing left".
import { describe, expect, it } from 'vitest';
import { DescendantTracker } from '../../harness/process/descendants.js';
import { killTree } from '../../harness/process/kill-tree.js';
import {
  LinuxProcessTable,
  type ProcessInfo,
  type ProcessTable,
  ProcessTableUnreadable,
} from '../../harness/process/process-table.js';
import { spawnShim } from '../../harness/process/spawn-shim.js';
import { baseEnv, posix, runs } from './helpers/fixture-processes.js';

/** A table that only lists processes, as the Windows and `ps` tables do: no /proc walk, no environment marker. */
class ListOnlyTable implements ProcessTable {
  private readonly linux = new LinuxProcessTable();
  snapshot(newerThanPid?: number): Promise<ProcessInfo[]> {
    return this.linux.snapshot(newerThanPid);
  }
}

/** A shim that starts a tool in a session of its own (not in its group), prints the tool's pid, then waits. */
const STARTS_DETACHED_TOOL = [
  '-e',
  `const { spawn } = require('node:child_process');
   const tool = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { detached: true, stdio: 'ignore' });
   process.stdout.write(tool.pid + '\\n');
   setInterval(() => {}, 1000);`,
];

/** Starts that shim; `toolPid` resolves to the pid it prints. */
function startDetachedToolShim() {
  let printed = '';
  let announce: (pid: number) => void = () => undefined;
  const toolPid = new Promise<number>((resolve) => {
    announce = resolve;
  });
  const shim = spawnShim({
    shim: process.execPath,
    args: STARTS_DETACHED_TOOL,
    cwd: process.cwd(),
    env: baseEnv(),
    stdin: 'closed',
    timeoutMs: 15_000,
    processTable: new ListOnlyTable(),
    // One sample at the start (before the tool exists), none after: the tool is started between two samples.
    pollIntervalMs: 60_000,
    descendantGraceMs: 300,
    onStdout: (chunk) => {
      printed += chunk.toString();
      if (printed.includes('\n')) announce(Number(printed.trim()));
    },
  });
  return { shim, toolPid };
}

describe.runIf(posix)('the app-style kill (SIGKILL of the shim pid)', () => {
  it('without a snapshot, a tool whose parent died between two samples is missed', async () => {
    const started = startDetachedToolShim();
    const shim = started.shim;
    const toolPid = await started.toolPid;
    process.kill(shim.pid!, 'SIGKILL');
    const exit = await shim.done;
    try {
      expect(await runs(toolPid)).toBe(true);
      expect(exit.descendantsLeft.map((info) => info.pid)).not.toContain(toolPid);
    } finally {
      process.kill(toolPid, 'SIGKILL');
    }
  });

  it('with the snapshot taken right before the kill, the tool lives through the grace, then is reported and ended', async () => {
    const started = startDetachedToolShim();
    const shim = started.shim;
    const toolPid = await started.toolPid;
    const tree = await shim.snapshotTree!();
    expect(tree.map((info) => info.pid)).toContain(toolPid);
    process.kill(shim.pid!, 'SIGKILL');
    const exit = await shim.done;
    expect(exit.descendantsLeft.map((info) => info.pid)).toContain(toolPid);
    expect(exit.descendantsKilled.map((info) => info.pid)).toContain(toolPid);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await runs(toolPid)).toBe(false);
  });
});

describe.runIf(posix)('a tree kill that fails (Windows paths)', () => {
  it('ends each pid of the snapshot and reports the failed taskkill', async () => {
    const keep = ['-e', 'setTimeout(() => {}, 20000)'];
    const { spawn } = await import('node:child_process');
    const root = spawn(process.execPath, keep, { stdio: 'ignore' });
    const member = spawn(process.execPath, keep, { stdio: 'ignore' });
    const table = new LinuxProcessTable();
    const memberInfo = table.info(member.pid!)!;
    const calls: string[][] = [];
    const outcome = await killTree({
      platform: 'win32',
      rootPid: root.pid,
      processGroup: false,
      snapshot: [memberInfo],
      alive: async () => [memberInfo].filter((info) => table.info(info.pid)?.state !== 'Z' && table.info(info.pid)),
      taskkill: async (args) => {
        calls.push(args);
        return { exitCode: 1, output: 'Error: Unknown or invalid command line option specified.' };
      },
      endPid: (pid) => {
        process.kill(pid, 'SIGKILL');
        return true;
      },
    });
    expect(calls).toEqual([['/pid', String(root.pid), '/T', '/F']]);
    expect(outcome.treeKillFailure).toBe(
      `taskkill /pid ${root.pid} /T /F failed (exit 1: Error: Unknown or invalid command line option specified.)`,
    );
    expect(outcome.survivors).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await runs(root.pid!)).toBe(false);
    expect(await runs(member.pid!)).toBe(false);
  });

  it('names a member it could not end as a survivor', async () => {
    const stubborn: ProcessInfo = { pid: 424242, ppid: 1, pgid: 424242, state: 'R', start: '1', name: 'locked.exe' };
    const outcome = await killTree({
      platform: 'win32',
      rootPid: undefined,
      processGroup: false,
      snapshot: [stubborn],
      alive: async () => [stubborn],
      taskkill: async () => ({ exitCode: 0, output: '' }),
      endPid: () => false,
    });
    expect(outcome.treeKillFailure).toBeUndefined();
    expect(outcome.survivors).toEqual([stubborn]);
  });

  it('ends a hung shim at its timeout through the per-pid fallback when taskkill cannot run', async () => {
    // On Linux there is no taskkill at all: the tree kill fails, and the fallback must still end the shim.
    const shim = spawnShim({
      shim: process.execPath,
      args: ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'],
      cwd: process.cwd(),
      env: baseEnv(),
      stdin: 'closed',
      timeoutMs: 500,
      platform: 'win32',
      processTable: new LinuxProcessTable(),
    });
    const exit = await shim.done;
    expect(exit.timedOut).toBe(true);
    expect(exit.treeKillFailures?.[0]).toMatch(new RegExp(`^taskkill /pid ${shim.pid} /T /F failed`));
    expect(exit.signal).toBe('SIGKILL');
    expect(await runs(shim.pid!)).toBe(false);
  });
});

describe('an unreadable process table', () => {
  class StubTable implements ProcessTable {
    async snapshot(): Promise<ProcessInfo[]> {
      throw new ProcessTableUnreadable(
        "powershell.exe Get-CimInstance Win32_Process listed 0 process(es), not the runner's own (pid 7) (it printed nothing)",
      );
    }
  }

  it('is remembered with its cause, and never reads as "nothing was left"', async () => {
    const tracker = new DescendantTracker({
      rootPid: 100,
      table: new StubTable(),
      intervalMs: 1000,
      processGroup: false,
    });
    expect(tracker.tableUnreadable()).toBeUndefined();
    expect(await tracker.alive()).toEqual([]);
    expect(tracker.tableUnreadable()).toContain("not the runner's own (pid 7)");
  });

  it.runIf(posix)('reaches the run as the reason its process rules are unknown', async () => {
    const exit = await spawnShim({
      shim: process.execPath,
      args: ['-e', 'process.stdout.write("x\\n")'],
      cwd: process.cwd(),
      env: baseEnv(),
      stdin: 'closed',
      timeoutMs: 10_000,
      processTable: new StubTable(),
    }).done;
    expect(exit.processTableUnreadable).toContain('powershell.exe Get-CimInstance Win32_Process listed 0 process(es)');
  });
});
