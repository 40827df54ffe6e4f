// How a turn learns that it is interrupted (R6): the part of AbortSignal the loop, the providers and the tools
// use. Node's AbortController costs a one-turn process about 0.8 ms the first time one is made and listened to
// (its EventTarget machinery); this one costs next to nothing. Node's own signals satisfy the same interface,
// and a Node API that needs a real AbortSignal gets one from abortSignalFor().

export interface InterruptSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** An AbortController for InterruptSignal: abort() marks the signal and calls each listener once, in order. */
export class Interrupter {
  readonly signal: InterruptSignal;
  private aborted = false;
  private readonly listeners = new Set<() => void>();

  constructor() {
    const self = this;
    this.signal = {
      get aborted() {
        return self.aborted;
      },
      // As with EventTarget: a listener is added once, and one added after the abort is never called.
      addEventListener: (_type, listener) => void this.listeners.add(listener),
      removeEventListener: (_type, listener) => void this.listeners.delete(listener),
    };
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    // A listener removed by an earlier one is skipped, as EventTarget does.
    for (const listener of [...this.listeners]) {
      if (!this.listeners.delete(listener)) continue;
      try {
        listener();
      } catch (error) {
        // EventTarget reports a listener's error as uncaught, after the other listeners ran.
        process.nextTick(() => {
          throw error;
        });
      }
    }
  }
}

/** A Node AbortSignal that follows `signal`, for APIs that take only theirs (child_process with `signal`). */
export function abortSignalFor(signal: InterruptSignal): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const forward = (): void => controller.abort();
  if (signal.aborted) controller.abort();
  else signal.addEventListener('abort', forward, { once: true });
  return { signal: controller.signal, release: () => signal.removeEventListener('abort', forward) };
}
