// The per-process timeout on the shim's own time (own-time-timeout.ts), and what stands in for a CPU-wait
// measure where there is none: the load average against the cores (cpu-wait.ts machineOversubscribed).
import { describe, expect, it, vi } from 'vitest';
import { machineOversubscribed } from '../../harness/process/cpu-wait.js';
import { ownTimeTimeout } from '../../harness/process/own-time-timeout.js';

function expiry(timeoutMs: number, cpuWait: () => number | undefined, oversubscribed = () => false) {
  const started = performance.now();
  return new Promise<{ undecided: boolean; afterMs: number }>((resolve) => {
    ownTimeTimeout(
      timeoutMs,
      cpuWait,
      (undecided) => resolve({ undecided, afterMs: performance.now() - started }),
      oversubscribed,
    );
  });
}

describe('the per-process timeout', () => {
  it('runs out after its length when the shim waited for no CPU', async () => {
    const outcome = await expiry(100, () => 0);
    expect(outcome.undecided).toBe(false);
    expect(outcome.afterMs).toBeGreaterThanOrEqual(95);
  });

  it('is not extended when the shim waited for no CPU (on a fake clock, so a busy machine cannot delay it)', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      let expired: boolean | undefined;
      ownTimeTimeout(
        100,
        () => 0,
        (undecided) => (expired = undecided),
        () => false,
      );
      vi.advanceTimersByTime(99);
      expect(expired).toBeUndefined();
      vi.advanceTimersByTime(1);
      expect(expired).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is extended by the time the shim waited for a CPU', async () => {
    const from = performance.now();
    const outcome = await expiry(100, () => (performance.now() - from) * 0.5);
    expect(outcome.undecided).toBe(false);
    expect(outcome.afterMs).toBeGreaterThanOrEqual(190);
  });

  it('ends undecided at 4× its length when the machine took the time', async () => {
    let waited = 0;
    const outcome = await expiry(50, () => (waited += 1000));
    expect(outcome.undecided).toBe(true);
    expect(outcome.afterMs).toBeGreaterThanOrEqual(195);
  });

  it('without a CPU-wait measure, is undecided when the machine is oversubscribed, and only then', async () => {
    expect(
      (
        await expiry(
          50,
          () => undefined,
          () => true,
        )
      ).undecided,
    ).toBe(true);
    expect(
      (
        await expiry(
          50,
          () => undefined,
          () => false,
        )
      ).undecided,
    ).toBe(false);
  });

  it('counts the machine oversubscribed when the load average is above the cores', () => {
    expect(machineOversubscribed(() => [4.5, 1, 1], 2)).toBe(true);
    expect(machineOversubscribed(() => [1.5, 9, 9], 2)).toBe(false);
    // Windows reports no load: not known to be oversubscribed.
    expect(machineOversubscribed(() => [0, 0, 0], 2)).toBe(false);
  });
});
