// Ends a tool's whole process tree (R6). A Bash command runs as the leader of its own process group; on
// POSIX the group is killed, and on Linux every process still carrying the run's marker variable is killed
// too, which also catches children that moved to another group or session (`setsid cmd &`) and orphans that
// were re-parented after bash exited. Windows uses `taskkill /T /F`; where that fails (Wine's taskkill has no
// /T; access denied), the tree is listed through the process query and each of its pids is ended.
import { readdirSync, readFileSync } from 'node:fs';
import {
  parseWindowsProcessLines,
  WINDOWS_PROCESS_QUERY_COMMAND,
  windowsTreeBelow,
} from '../../common/windows-processes.js';

export const RUN_MARKER_VARIABLE = 'YUME_SHIM_TOOL_RUN';

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone, or not ours
  }
}

/** Linux: pids whose environment carries `YUME_SHIM_TOOL_RUN=<marker>`. */
export function markedProcesses(marker: string): number[] {
  if (process.platform !== 'linux') return [];
  const needle = Buffer.from(`\0${RUN_MARKER_VARIABLE}=${marker}\0`);
  const needleAtStart = needle.subarray(1);
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`);
      if (environ.includes(needle) || environ.subarray(0, needleAtStart.length).equals(needleAtStart)) found.push(pid);
    } catch {
      // exited meanwhile, or belongs to another user
    }
  }
  return found;
}

/** Kills the process group led by `pid` and every process marked with `marker`. */
export function killTree(pid: number | undefined, marker: string): void {
  if (process.platform === 'win32') {
    if (pid !== undefined) void killWindowsTree(pid);
    return;
  }
  if (pid !== undefined) killQuietly(-pid, 'SIGKILL');
  for (const marked of markedProcesses(marker)) killQuietly(marked, 'SIGKILL');
}

export interface WindowsTreeKillDeps {
  /** Runs a program; ok is false when it failed or exited non-zero. */
  run: (file: string, args: string[], timeoutMs: number) => Promise<{ ok: boolean; stdout: string }>;
  /** Ends one pid at once (TerminateProcess through Node). */
  end: (pid: number) => void;
  /** This process's pid, the guard's anchor when the root has already left the table. */
  selfPid: number;
}

async function runQuietly(file: string, args: string[], timeoutMs: number): Promise<{ ok: boolean; stdout: string }> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { windowsHide: true, timeout: timeoutMs, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => resolve({ ok: !error, stdout: String(stdout ?? '') }),
    );
  });
}

/** Trees being ended now, by root pid: a second call for the same root (abort, then its grace timer) waits for it. */
const windowsKills = new Map<number, Promise<number[]>>();

/**
 * Windows: `taskkill /pid N /T /F`. When it fails, nothing may have been ended (Wine's taskkill refuses /T), and a
 * process such as the CLI behind a `.cmd` (cmd.exe, then node) would keep the turn waiting on its output: the
 * tree is then listed (WINDOWS_PROCESS_QUERY) and the root and every member ended by pid. Members count only if
 * they started no earlier than the root, or than this shim when the root already exited (a reused parent pid).
 * Resolves to the pids ended by the fallback (none when taskkill succeeded).
 */
export function killWindowsTree(rootPid: number, deps?: WindowsTreeKillDeps): Promise<number[]> {
  const running = windowsKills.get(rootPid);
  if (running) return running;
  const kill = endWindowsTree(
    rootPid,
    deps ?? { run: runQuietly, end: (pid) => killQuietly(pid, 'SIGKILL'), selfPid: process.pid },
  );
  windowsKills.set(rootPid, kill);
  return kill.finally(() => windowsKills.delete(rootPid));
}

async function endWindowsTree(rootPid: number, deps: WindowsTreeKillDeps): Promise<number[]> {
  if ((await deps.run('taskkill', ['/pid', String(rootPid), '/T', '/F'], 5000)).ok) return [];
  const listed = await deps.run(WINDOWS_PROCESS_QUERY_COMMAND.file, WINDOWS_PROCESS_QUERY_COMMAND.args, 20_000);
  const list = listed.ok ? parseWindowsProcessLines(listed.stdout) : [];
  const anchor = list.find((info) => info.pid === rootPid) ?? list.find((info) => info.pid === deps.selfPid);
  const members = anchor ? windowsTreeBelow(list, rootPid, anchor.start).map((info) => info.pid) : [];
  const ended = [rootPid, ...members];
  for (const pid of ended) deps.end(pid);
  return ended;
}
