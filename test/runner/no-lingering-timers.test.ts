// A finished run leaves nothing that keeps Node running: a delay raced against something that won (the turn
// timeout of persistent mode, the interrupt fallback, stdio grace) used to hold `yume-conformance` open for up
// to 30 s after its report. Timer scopes and withTimeout clear them (harness/process/timer-scope.ts).
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../harness/index.js';
import { TimerScope, withTimeout } from '../../harness/process/timer-scope.js';

const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

/** Records every timer set from now on; pending() lists those still set and keeping the process alive. */
function trackTimers() {
  const original = { set: globalThis.setTimeout, clear: globalThis.clearTimeout };
  const live = new Map<NodeJS.Timeout, string>();
  let created = 0;
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    created += 1;
    const timer: NodeJS.Timeout = original.set(
      (...inner: unknown[]) => {
        live.delete(timer);
        callback(...inner);
      },
      ms,
      ...args,
    );
    live.set(timer, `${ms} ms timer set at ${new Error().stack?.split('\n')[2]?.trim()}`);
    return timer;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((timer: NodeJS.Timeout | undefined) => {
    if (timer) live.delete(timer);
    original.clear(timer);
  }) as typeof clearTimeout;
  return {
    created: () => created,
    pending: () => [...live].filter(([timer]) => timer.hasRef()).map(([, where]) => where),
    restore: () => {
      globalThis.setTimeout = original.set;
      globalThis.clearTimeout = original.clear;
    },
  };
}

describe('timers of a run', () => {
  it('a scope clears its delays on close, and a closed scope delays forever', async () => {
    const before = timers();
    const scope = new TimerScope();
    let settled = false;
    void scope.delay(60_000).then(() => (settled = true));
    await scope.delay(5);
    expect(scope.pending).toBe(1);
    expect(timers()).toBe(before + 1);
    scope.close();
    expect(scope.pending).toBe(0);
    expect(timers()).toBe(before);
    const afterClose = scope.delay(1);
    expect(
      await Promise.race([
        afterClose.then(() => 'settled'),
        new Promise((resolve) => setTimeout(() => resolve('pending'), 30)),
      ]),
    ).toBe('pending');
    expect(settled).toBe(false);
  });

  it('withTimeout gives the value or the fallback and clears its timer either way', async () => {
    const before = timers();
    expect(await withTimeout(Promise.resolve('value'), 60_000, 'fallback')).toBe('value');
    expect(timers()).toBe(before);
    expect(await withTimeout(new Promise(() => undefined), 5, 'fallback')).toBe('fallback');
    expect(timers()).toBe(before);
  });

  it.each(['plain-text', 'interrupt', 'persistent-mode'])(
    'runConformance (%s) leaves no timer running',
    async (scenario) => {
      const tracked = trackTimers();
      try {
        const report = await runConformance({ providers: ['openai-chat'], scenarios: [scenario] });
        expect(report.summary.failed).toBe(0);
        expect(report.runs.length).toBeGreaterThan(0);
        expect(tracked.created()).toBeGreaterThan(0); // the tracking sees the harness's timers
        expect(tracked.pending()).toEqual([]);
      } finally {
        tracked.restore();
      }
    },
  );
});
