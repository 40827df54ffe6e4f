// Ending a shim and everything it started. POSIX: the shim's process group, then any tracked descendant
// that left the group, SIGTERM first and SIGKILL after a grace period. Windows has no signals or groups:
// `taskkill /pid N /T /F` ends a process with its child tree, once for the root and once per tracked
// descendant (a descendant whose parent already exited is no longer reachable through the root's tree).
import { execa } from 'execa';
import type { PlatformName } from './platform.js';
import type { ProcessInfo } from './process-table.js';

/** The taskkill argv that ends `pid` and its child tree by force. */
export function taskkillCommand(pid: number): { file: string; args: string[] } {
  return { file: 'taskkill', args: ['/pid', String(pid), '/T', '/F'] };
}

/** Sends a signal to a whole POSIX process group; false when the group is already gone. */
export function signalProcessGroup(groupId: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-groupId, signal);
    return true;
  } catch {
    return false;
  }
}

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

export interface KillTreeOptions {
  platform: PlatformName;
  /** The shim's pid; on POSIX also its process group id. */
  rootPid: number | undefined;
  /** Whether the root leads its own process group. */
  processGroup: boolean;
  /** Returns the tracked descendants that still run. */
  alive: () => Promise<ProcessInfo[]>;
  /** Time between SIGTERM and SIGKILL. */
  graceMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ends the root and its tracked descendants; returns the descendants that were still running. */
export async function killTree(options: KillTreeOptions): Promise<ProcessInfo[]> {
  const { platform, rootPid, processGroup } = options;
  const graceMs = options.graceMs ?? 1000;
  const before = await options.alive();
  if (platform === 'win32') {
    const targets = [...(rootPid === undefined ? [] : [rootPid]), ...before.map((info) => info.pid)];
    for (const pid of targets) {
      const command = taskkillCommand(pid);
      await execa(command.file, command.args, { reject: false, timeout: 10_000, windowsHide: true });
    }
    return before;
  }
  const sendAll = (signal: NodeJS.Signals, remaining: ProcessInfo[]) => {
    if (rootPid !== undefined) {
      if (processGroup) signalProcessGroup(rootPid, signal);
      signalProcess(rootPid, signal);
    }
    for (const info of remaining) signalProcess(info.pid, signal);
  };
  sendAll('SIGTERM', before);
  let remaining = before;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await sleep(50);
    remaining = await options.alive();
    if (remaining.length === 0 && !rootRuns(rootPid)) return before;
  }
  sendAll('SIGKILL', remaining);
  return before;
}

/** Whether the root still runs (a zombie root, not yet reaped by us, counts as ended via its exit event). */
function rootRuns(rootPid: number | undefined): boolean {
  if (rootPid === undefined) return false;
  try {
    process.kill(rootPid, 0);
    return true;
  } catch {
    return false;
  }
}
