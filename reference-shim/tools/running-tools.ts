// The tool processes running now (Bash commands, official CLIs), so that a shim ending abruptly can end them at
// once: when the process that started the shim is gone (cli/run.ts, common/starter-watch.ts), nothing reads the
// shim any more and it exits without finishing its turn. Everything here is synchronous: no event-loop turn runs
// between noticing and exiting, so no tool result is sent on and no further provider call is made.
import { killTree } from './process-tree.js';

/** Each running tool's root pid, with its run marker (process-tree.ts). */
const running = new Map<number, string>();

/** Records a started tool process; the returned function forgets it once it has ended. */
export function trackToolProcess(pid: number | undefined, marker: string): () => void {
  if (pid === undefined) return () => undefined;
  running.set(pid, marker);
  return () => void running.delete(pid);
}

/** How long one `taskkill /T` may take here (a few dozen ms on Windows; under Wine it fails within ~200 ms). */
const TASKKILL_WAIT_MS = 1000;

function endQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Ends every running tool's tree, synchronously. POSIX: its process group and marked processes (killTree).
 * Windows: `taskkill /T /F` for the tree, then the root itself, should taskkill have failed (Wine's has no /T).
 * The slower fallback of a normal end (listing the tree through the process query) is not waited for here: a
 * tool that runs its own launcher (a CLI's .cmd) relies on what it started ending with its starter as well.
 */
export function endRunningToolsNow(platform: NodeJS.Platform = process.platform): void {
  for (const [pid, marker] of running) {
    if (platform === 'win32') {
      // Asked for here, not imported: a turn without tools does not load child_process (start-up time).
      process.getBuiltinModule('node:child_process').spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], {
        stdio: 'ignore',
        windowsHide: true,
        timeout: TASKKILL_WAIT_MS,
      });
      endQuietly(pid);
    } else killTree(pid, marker);
  }
  running.clear();
}
