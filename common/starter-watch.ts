// Notices that the process which started this one is gone, so that a process started through a launcher does
// not outlive it. On Windows an npm-installed program is a `.cmd`: cmd.exe starts Node, and the app's stop
// (`start_kill`, docs/protocol.md#r14-the-yume-app-profile-follows-the-app) ends the pid it started, cmd.exe
// alone. Windows has no process groups and never ends a child with its parent, so Node, and whatever it
// started, would run on with nobody to read them. The reference shim and the fake CLIs' `.cmd` launchers watch
// their starter with this and end themselves, tools included.
//
// How "gone" is seen: on POSIX the kernel hands an orphan to another parent, so the parent pid changes. Windows
// never does (a child keeps naming its dead parent's pid), so the starter's pid is asked whether it still runs
// (process.kill(pid, 0): OpenProcess and GetExitCodeProcess). A starter already gone when the watch begins
// cannot be watched (nothing tells its death from a launcher that exits at once by design), and on Windows a
// pid reused within one interval hides the death: in both cases the process runs on, as it would without this.

/** How often the starter is looked at: a process whose launcher was killed ends within about this. */
export const STARTER_POLL_MS = 100;

export interface StarterWatchOptions {
  platform: NodeJS.Platform;
  /** The starter's pid: process.ppid when this process began. */
  starter: number;
  /** This process's parent pid now (POSIX); default process.ppid. */
  currentParent?: () => number;
  /** Whether `pid` still runs (Windows); default process.kill(pid, 0), where only ESRCH means gone. */
  isRunning?: (pid: number) => boolean;
  intervalMs?: number;
}

export interface StarterWatch {
  stop(): void;
}

export function processIsRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Whether the starter is gone, by the platform's sign (see the top of this file). */
function starterGone(options: StarterWatchOptions): boolean {
  if (options.platform === 'win32') return !(options.isRunning ?? processIsRunning)(options.starter);
  return (options.currentParent ?? (() => process.ppid))() !== options.starter;
}

/**
 * Calls `onGone` once, within an interval of the starter's end. Undefined when the starter cannot be watched:
 * already gone, or pid 0 or 1 (no starter, or an orphan already). The timer never keeps the process alive.
 */
export function watchStarter(onGone: () => void, options: StarterWatchOptions): StarterWatch | undefined {
  if (options.starter <= 1 || starterGone(options)) return undefined;
  const timer = setInterval(() => {
    if (!starterGone(options)) return;
    clearInterval(timer);
    onGone();
  }, options.intervalMs ?? STARTER_POLL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
