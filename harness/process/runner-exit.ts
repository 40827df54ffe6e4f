// Shims still running when the runner process itself exits (an uncaught error, process.exit) are ended first,
// with their process groups: nothing a run started outlives the runner. The orderly paths (stop signals,
// timeouts) go through killActiveShims() and the run's cgroup instead.
import type { ChildProcess } from 'node:child_process';

const startedShims = new Set<{ child: ChildProcess; processGroup: boolean }>();
let exitHookInstalled = false;

/** Registers a started shim; returns the function that forgets it once it is over. */
export function endOnRunnerExit(child: ChildProcess, processGroup: boolean): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const started of startedShims) {
        try {
          if (started.processGroup && started.child.pid !== undefined) process.kill(-started.child.pid, 'SIGKILL');
          else started.child.kill('SIGKILL');
        } catch {
          // already gone
        }
      }
    });
  }
  const entry = { child, processGroup };
  startedShims.add(entry);
  return () => startedShims.delete(entry);
}
