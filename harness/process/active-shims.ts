// Every shim process this runner has started and not yet seen end, so that a runner that is itself stopped
// (SIGINT, SIGTERM, SIGHUP; Ctrl-C or Ctrl-Break on Windows) can end them all, with their trees, at once, and a
// runner that exits while shims still run (an uncaught error, process.exit) ends them first: nothing a run
// started outlives the runner.
export interface Killable {
  /** Ends the shim and its tree the orderly way (its run then reports the kill). */
  kill(): void;
  /** Ends it at once, synchronously (SIGKILL to its process group): the runner process is exiting. */
  endAtExit?(): void;
  /** Its process id, when it has one (the suite reads the running shims' resident sizes). */
  pid?: number;
}

const active = new Set<Killable>();
let exitHookInstalled = false;

/** Registers a running shim; returns the function that unregisters it. */
export function trackShim(shim: Killable): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const running of active) {
        try {
          running.endAtExit?.();
        } catch {
          // already gone
        }
      }
    });
  }
  active.add(shim);
  return () => active.delete(shim);
}

/** Process ids of the shims running now. */
export function activeShimPids(): number[] {
  return [...active].flatMap((shim) => (shim.pid === undefined ? [] : [shim.pid]));
}

/** Ends every shim still running (each one's `done` then settles as for any harness kill). */
export function killActiveShims(): number {
  const count = active.size;
  for (const shim of active) shim.kill();
  return count;
}
