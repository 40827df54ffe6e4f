// Ends a tool's whole process tree (R6). A Bash command runs as the leader of its own process group; on
// POSIX the group is killed, and on Linux every process still carrying the run's marker variable is killed
// too, which also catches children that moved to another group or session (`setsid cmd &`) and orphans that
// were re-parented after bash exited. Windows uses `taskkill /T /F`.
import { readdirSync, readFileSync } from 'node:fs';

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
    if (pid !== undefined) {
      void import('node:child_process').then(({ execFile }) =>
        execFile('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true, timeout: 5000 }, () => undefined),
      );
    }
    return;
  }
  if (pid !== undefined) killQuietly(-pid, 'SIGKILL');
  for (const marked of markedProcesses(marker)) killQuietly(marked, 'SIGKILL');
}
