// The reference shim's tree kill on Windows (tools/process-tree.ts), on any OS through its injected runner: a
// taskkill /T that fails (Wine's has no /T) falls back to listing the tree and ending each pid, so a CLI behind a
// .cmd (cmd.exe, then node) cannot keep an interrupted turn waiting.
import { describe, expect, it } from 'vitest';
import {
  parseWindowsProcessLines,
  WINDOWS_PROCESS_QUERY_COMMAND,
  windowsTreeBelow,
} from '../../common/windows-processes.js';
import { killWindowsTree, type WindowsTreeKillDeps } from '../../reference-shim/tools/process-tree.js';

// pid ppid ticks name: the shim (100), its CLI through cmd.exe (200 → 210 node.exe → 220 a tool), an older
// process whose parent pid 200 was reused (150), and an unrelated process (300).
const TABLE = [
  '100 1 5000 node.exe',
  '150 200 4000 stale.exe',
  '200 100 6000 cmd.exe',
  '210 200 6100 node.exe',
  '220 210 6200 bash.exe',
  '300 1 7000 other.exe',
].join('\r\n');

function fakeWindows(options: { taskkillOk: boolean; table: string; queryOk?: boolean }) {
  const calls: string[] = [];
  const ended: number[] = [];
  const deps: WindowsTreeKillDeps = {
    run: async (file, args) => {
      calls.push([file, ...args].join(' '));
      if (file === 'taskkill') return { ok: options.taskkillOk, stdout: '' };
      return { ok: options.queryOk ?? true, stdout: options.table };
    },
    end: (pid) => ended.push(pid),
    selfPid: 100,
  };
  return { deps, calls, ended };
}

describe('windowsTreeBelow', () => {
  it('follows parent pids down from the root, skipping processes older than the anchor', () => {
    const list = parseWindowsProcessLines(TABLE);
    expect(windowsTreeBelow(list, 200, '6000').map((info) => info.pid)).toEqual([210, 220]);
    // Anchored on an older start, the reused parent pid would take the stale process in: the anchor matters.
    expect(windowsTreeBelow(list, 200, '3000').map((info) => info.pid)).toEqual([150, 210, 220]);
  });

  it("skips a process older than the member whose (reused) pid it names as parent, and keeps that member's children", () => {
    // 210 is the root's child; 400 names pid 210 as parent but started before 210 did (an earlier holder of pid
    // 210 started it: Wine's services, started with the session); 410 is 210's real child.
    const list = parseWindowsProcessLines(
      ['200 100 6000 cmd.exe', '210 200 6100 node.exe', '400 210 6050 services.exe', '410 210 6200 bash.exe'].join(
        '\n',
      ),
    );
    expect(windowsTreeBelow(list, 200, '6000').map((info) => info.pid)).toEqual([210, 410]);
  });
});

describe('killWindowsTree', () => {
  it('leaves it to taskkill /T /F when that succeeds', async () => {
    const { deps, calls, ended } = fakeWindows({ taskkillOk: true, table: TABLE });
    expect(await killWindowsTree(200, deps)).toEqual([]);
    expect(calls).toEqual(['taskkill /pid 200 /T /F']);
    expect(ended).toEqual([]);
  });

  it('when taskkill /T fails, lists the tree and ends the root and each member by pid', async () => {
    const { deps, calls, ended } = fakeWindows({ taskkillOk: false, table: TABLE });
    expect(await killWindowsTree(200, deps)).toEqual([200, 210, 220]);
    expect(calls).toEqual([
      'taskkill /pid 200 /T /F',
      [WINDOWS_PROCESS_QUERY_COMMAND.file, ...WINDOWS_PROCESS_QUERY_COMMAND.args].join(' '),
    ]);
    expect(ended).toEqual([200, 210, 220]);
  });

  it('anchors on the shim itself once the root has left the table', async () => {
    const withoutRoot = TABLE.split('\r\n')
      .filter((line) => !line.startsWith('200 '))
      .join('\r\n');
    const { deps, ended } = fakeWindows({ taskkillOk: false, table: withoutRoot });
    await killWindowsTree(200, deps);
    // 150 started before the shim: its parent pid 200 was another process's.
    expect(ended).toEqual([200, 210, 220]);
  });

  it('still ends the root when the table cannot be read', async () => {
    const { deps, ended } = fakeWindows({ taskkillOk: false, table: '', queryOk: false });
    expect(await killWindowsTree(200, deps)).toEqual([200]);
    expect(ended).toEqual([200]);
  });

  it('runs one kill per root at a time: a second call while one runs shares it', async () => {
    const { deps, calls } = fakeWindows({ taskkillOk: false, table: TABLE });
    const [first, second] = await Promise.all([killWindowsTree(200, deps), killWindowsTree(200, deps)]);
    expect(second).toEqual(first);
    expect(calls.filter((call) => call.startsWith('taskkill'))).toHaveLength(1);
  });
});
