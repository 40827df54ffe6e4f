// The Windows process list, shared by the runner's process table (harness/process/process-table.ts) and the
// reference shim's tree kill (reference-shim/tools/process-tree.ts): one PowerShell query, one line per
// process, and the tree below a pid read from it. Windows never reparents: a child names its parent's pid
// after the parent exited, so a tree can be followed through parent pids alone, guarded by start times
// against a reused pid.

/** Prints "ProcessId ParentProcessId CreationDate.Ticks Name", one line per process. */
export const WINDOWS_PROCESS_QUERY =
  'Get-CimInstance Win32_Process | ForEach-Object { "$($_.ProcessId) $($_.ParentProcessId) $($_.CreationDate.Ticks) $($_.Name)" }';

/** The argv that runs WINDOWS_PROCESS_QUERY. */
export const WINDOWS_PROCESS_QUERY_COMMAND = {
  file: 'powershell.exe',
  args: ['-NoProfile', '-NonInteractive', '-Command', WINDOWS_PROCESS_QUERY],
};

export interface WindowsProcessLine {
  pid: number;
  ppid: number;
  /** CreationDate ticks (100 ns units), compared only with other rows of the same list. */
  start: string;
  name: string;
}

/** Parses the lines WINDOWS_PROCESS_QUERY prints; other lines are skipped. */
export function parseWindowsProcessLines(text: string): WindowsProcessLine[] {
  const processes: WindowsProcessLine[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s*(.*)$/.exec(line);
    if (!match) continue;
    processes.push({ pid: Number(match[1]), ppid: Number(match[2]), start: match[3]!, name: match[4]!.trim() });
  }
  return processes;
}

const notBefore = (a: string, b: string) => BigInt(a) >= BigInt(b);

/**
 * The processes below `rootPid` in `list` (the root excluded): its children, theirs, and so on. Only processes
 * started no earlier than `since` count (a start time of the same list: the root's, or when the root has exited
 * and left the list, that of a process known to be older than it), and none older than the member it names as
 * parent, so a process whose parent pid was merely reused is not taken for a member.
 */
export function windowsTreeBelow(list: WindowsProcessLine[], rootPid: number, since: string): WindowsProcessLine[] {
  const members: WindowsProcessLine[] = [];
  // Each parent with its start time (the root's: `since`).
  const parents = new Map([[rootPid, since]]);
  let added = true;
  while (added) {
    added = false;
    for (const info of list) {
      const parentStart = parents.get(info.ppid);
      if (info.pid === rootPid || parents.has(info.pid) || parentStart === undefined) continue;
      if (!notBefore(info.start, since) || !notBefore(info.start, parentStart)) continue;
      members.push(info);
      parents.set(info.pid, info.start);
      added = true;
    }
  }
  return members;
}
