// Removing a run's folders, and what it means when they cannot be removed (R20). On Windows a folder a live process
// works in cannot be removed (EBUSY, EPERM, ENOTEMPTY): a process of the run that outlived everything the harness
// did is still there. Then what the run left is ended and the removal tried again; if it still fails, the run gets
// a `process.descendants-gone` finding naming the run's processes still alive (or an unknown process) — a finding
// on the shim, never an error of the harness.
import { performance } from 'node:perf_hooks';
import type { PlatformName } from '../process/platform.js';
import { type ProcessInfo, processTableFor } from '../process/process-table.js';
import type { ShimExit } from '../process/shim-process.js';
import { runFinding } from '../rules/finding.js';
import type { Finding } from '../rules/types.js';
import type { RunResult } from './results/run-types.js';
import { type DirectoryRemover, type RunDirectories, removeRunDirectories } from './setup/workspace.js';

/** Ends processes the run left (best effort: a process that cannot be ended stays). */
export type ProcessEnder = (processes: ProcessInfo[]) => Promise<void>;

export interface CleanupOptions {
  platform: PlatformName;
  /** The run's processes as the harness executed them: their tracked descendants and untied orphans. */
  processes: readonly { exit: Pick<ShimExit, 'descendantsSeen' | 'untied'> }[];
  remove?: DirectoryRemover;
  end?: ProcessEnder;
  /** The processes running now (default: the platform's process table). */
  running?: () => Promise<ProcessInfo[]>;
}

/** Why the folders stayed: the removal's error and the run's processes still alive after they were ended. */
export interface CleanupFailure {
  error: string;
  alive: ProcessInfo[];
  /** Processes orphaned to init during the run with nothing tying them to it (never ended by guess), still alive. */
  untied: ProcessInfo[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const endBySignal: ProcessEnder = async (processes) => {
  for (const info of processes) {
    try {
      process.kill(info.pid, 'SIGKILL'); // TerminateProcess on Windows
    } catch {
      // gone, or not ours to end: the second removal says whether it mattered
    }
  }
};

async function attempt(remove: DirectoryRemover, directories: RunDirectories): Promise<string | undefined> {
  try {
    await remove(directories);
    return undefined;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    // Node's own messages start with the code already ("EBUSY: resource busy or locked, ...").
    return code && !message.startsWith(code) ? `${code}: ${message}` : message;
  }
}

/** The processes of `candidates` still running now (same pid and start time, not a zombie). */
function stillRunning(candidates: ProcessInfo[], running: ProcessInfo[]): ProcessInfo[] {
  const now = new Set(running.filter((info) => info.state !== 'Z').map((info) => `${info.pid}@${info.start}`));
  const seen = new Set<string>();
  return candidates.filter((info) => {
    const key = `${info.pid}@${info.start}`;
    if (!now.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Removes the run's folders; undefined once they are gone. When they cannot be removed, ends the run's tracked
 * processes still alive, waits a little, and tries again; the failure that remains is returned.
 */
export async function removeRunFolders(
  directories: RunDirectories,
  options: CleanupOptions,
): Promise<CleanupFailure | undefined> {
  const remove = options.remove ?? removeRunDirectories;
  const first = await attempt(remove, directories);
  if (first === undefined) return undefined;
  const running = options.running ?? (() => processTableFor(options.platform).snapshot());
  const tracked = options.processes.flatMap((executed) => executed.exit.descendantsSeen);
  const untiedSeen = options.processes.flatMap((executed) => executed.exit.untied ?? []);
  const listed = async () => {
    try {
      return await running();
    } catch {
      return [];
    }
  };
  await (options.end ?? endBySignal)(stillRunning(tracked, await listed()));
  const endedAt = performance.now();
  let error: string | undefined = first;
  // A process just ended may take a moment to release its folder (Windows closes its handles as it goes).
  while (error !== undefined && performance.now() - endedAt < 1000) {
    await sleep(200);
    error = await attempt(remove, directories);
  }
  if (error === undefined) return undefined;
  const now = await listed();
  return { error, alive: stillRunning(tracked, now), untied: stillRunning(untiedSeen, now) };
}

const named = (processes: ProcessInfo[]) => processes.map((info) => `${info.name} (pid ${info.pid})`).join(', ');

/** The finding of folders that could not be removed, naming what still holds them as far as the run knows. */
export function cleanupFinding(failure: CleanupFailure, root: string): Finding {
  const holders =
    failure.alive.length > 0
      ? `the run's processes still alive after the harness ended them: ${named(failure.alive)}`
      : failure.untied.length > 0
        ? `an unknown process; still alive are processes orphaned to init during the run with nothing tying them to it: ${named(failure.untied)}`
        : "an unknown process (none of the run's tracked processes is alive)";
  return runFinding(
    'process.descendants-gone',
    `the run's folder ${root} could not be removed (${failure.error.split('\n')[0]}); it is held by ${holders}`,
  );
}

/** The run's result with the cleanup finding: a MUST, so the run fails (an error of the harness stays an error). */
export function withCleanupFinding(result: RunResult, failure: CleanupFailure, root: string): RunResult {
  return {
    ...result,
    findings: [...result.findings, cleanupFinding(failure, root)],
    status: result.status === 'error' ? 'error' : 'failed',
  };
}
