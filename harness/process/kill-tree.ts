// Ending a shim and everything it started, from a snapshot of its tree taken right before the kill. POSIX:
// the shim's process group, then every member of the snapshot that left the group, SIGTERM first and SIGKILL
// after a grace period. Windows has no signals or groups: `taskkill /pid N /T /F` ends the root with its child
// tree, then each member of the snapshot is ended by its pid (one whose parent already exited is no longer
// reachable through the root's tree). A tree kill that fails is reported, and so is a member that survives.
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
  /** The tree's members taken right before the kill (default: `alive()` now): each is ended. */
  snapshot?: ProcessInfo[];
  /** Time between SIGTERM and SIGKILL. */
  graceMs?: number;
  /** Runs taskkill (Windows); injectable so the fallback is tested on any OS. */
  taskkill?: (args: string[]) => Promise<{ exitCode: number | undefined; output: string }>;
  /** Ends one process at once (Windows: TerminateProcess through Node); false when it could not. */
  endPid?: (pid: number) => boolean;
}

/** What a tree kill did: the members it ended, and what went wrong on the way. */
export interface TreeKillOutcome {
  /** The tree's members when the kill began (the root excluded). */
  snapshot: ProcessInfo[];
  /** The tree kill itself failed (taskkill /T): why. Each pid of the snapshot was then ended one by one. */
  treeKillFailure?: string;
  /** Members still running after every attempt: the harness could not end them. */
  survivors: ProcessInfo[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runTaskkill(args: string[]): Promise<{ exitCode: number | undefined; output: string }> {
  const result = await execa('taskkill', args, { reject: false, timeout: 10_000, windowsHide: true, all: true });
  return { exitCode: result.exitCode, output: String(result.all ?? result.message ?? '') };
}

function endProcess(pid: number): boolean {
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'; // already gone
  }
}

/**
 * Windows: `taskkill /T /F` on the root, then each member of the snapshot that still runs is ended by its pid
 * (a member whose parent exited earlier is not in the root's tree any more; and taskkill /T fails outright on
 * Wine, which lacks /T, or on access denied). A failed taskkill is returned, never ignored.
 */
async function killWindowsTree(options: KillTreeOptions, snapshot: ProcessInfo[]): Promise<TreeKillOutcome> {
  const { rootPid } = options;
  const taskkill = options.taskkill ?? runTaskkill;
  const endPid = options.endPid ?? endProcess;
  let treeKillFailure: string | undefined;
  if (rootPid !== undefined) {
    const command = taskkillCommand(rootPid);
    const result = await taskkill(command.args);
    if (result.exitCode !== 0) {
      const said = result.output.replace(/\0/g, '').trim().split(/\r?\n/).slice(0, 2).join(' ');
      treeKillFailure = `taskkill ${command.args.join(' ')} failed (exit ${result.exitCode ?? 'none'}${said ? `: ${said}` : ''})`;
      endPid(rootPid);
    }
  }
  const failedToEnd = snapshot.filter((info) => !endPid(info.pid));
  // An ended process takes a moment to leave the table: look again for up to a grace period.
  let survivors = snapshot;
  const deadline = Date.now() + (options.graceMs ?? 1000);
  while (survivors.length > 0) {
    const running = new Set((await options.alive()).map((info) => info.pid));
    survivors = snapshot.filter((info) => running.has(info.pid) || failedToEnd.includes(info));
    if (survivors.length === 0 || Date.now() >= deadline) break;
    await sleep(100);
  }
  return { snapshot, ...(treeKillFailure ? { treeKillFailure } : {}), survivors };
}

/** Ends the root and the members of its tree; returns the members that were running and what went wrong. */
export async function killTree(options: KillTreeOptions): Promise<TreeKillOutcome> {
  const { platform, rootPid, processGroup } = options;
  const graceMs = options.graceMs ?? 1000;
  const before = options.snapshot ?? (await options.alive());
  if (platform === 'win32') return killWindowsTree(options, before);
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
    if (remaining.length === 0 && !rootRuns(rootPid)) return { snapshot: before, survivors: [] };
  }
  sendAll('SIGKILL', remaining);
  return { snapshot: before, survivors: [] };
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
