// Delays that end with the work they belong to. A pending timer keeps Node running, so a delay raced against
// something that won (a 30 s turn timeout, a 1 s grace) would hold a finished `yume-conformance` open for that
// long. Delays made through a scope are cleared when the scope closes; a cleared delay never settles.

export class TimerScope {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly closing = new AbortController();
  private closed = false;

  /** Aborted when the scope closes: waits that poll on their own timers (a fake CLI's log) stop with it. */
  get signal(): AbortSignal {
    return this.closing.signal;
  }

  /** Resolves after `ms`, unless the scope closes first. */
  delay(ms: number): Promise<void> {
    if (this.closed) return new Promise<void>(() => undefined);
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }

  /** Timers still pending (for tests). */
  get pending(): number {
    return this.timers.size;
  }

  close(): void {
    this.closed = true;
    this.closing.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

/**
 * `promise`'s value, or `fallback` once `ms` have passed; the timer is cleared either way. I/O that was due when
 * the timer fired goes first (setImmediate runs after it): after a stall of the runner's loop the timer and
 * the event it waited for are both due, and the event must win.
 */
export async function withTimeout<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<F>((resolve) => (timer = setTimeout(() => setImmediate(() => resolve(fallback)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
