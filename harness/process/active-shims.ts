// Every shim process this runner has started and not yet seen end, so that a runner that is itself stopped
// (SIGINT, SIGTERM, SIGHUP; Ctrl-C or Ctrl-Break on Windows) can end them all, with their trees, at once.
export interface Killable {
  kill(): void;
}

const active = new Set<Killable>();

/** Registers a running shim; returns the function that unregisters it. */
export function trackShim(shim: Killable): () => void {
  active.add(shim);
  return () => active.delete(shim);
}

/** Ends every shim still running (each one's `done` then settles as for any harness kill). */
export function killActiveShims(): number {
  const count = active.size;
  for (const shim of active) shim.kill();
  return count;
}

export function activeShimCount(): number {
  return active.size;
}
