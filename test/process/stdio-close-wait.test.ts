import { describe, expect, it } from 'vitest';
import { STDIO_CAP_FACTOR, waitForStdioClose } from '../../harness/process/stdio-close-wait.js';

const GRACE_MS = 60;
const never = new Promise<void>(() => undefined);
const resolvedIn = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** A CPU-wait clock on which all the time since its creation was the machine's. */
const allMachineTime = () => {
  const start = performance.now();
  return () => performance.now() - start;
};

describe('waitForStdioClose', () => {
  it('is closed when the pipes close within the grace', async () => {
    const outcome = await waitForStdioClose({ closed: resolvedIn(5), graceMs: GRACE_MS, cpuWait: () => 0 });
    expect(outcome).toEqual({ closed: true, undecided: false });
  });

  it('is held open, decided, when the grace passes in the shim own time', async () => {
    const start = performance.now();
    const outcome = await waitForStdioClose({ closed: never, graceMs: GRACE_MS, cpuWait: () => 0 });
    expect(outcome).toEqual({ closed: false, undecided: false });
    expect(performance.now() - start).toBeGreaterThanOrEqual(GRACE_MS - 2);
  });

  it('extends the grace by the CPU wait and is undecided at the cap', async () => {
    const start = performance.now();
    const outcome = await waitForStdioClose({ closed: never, graceMs: GRACE_MS, cpuWait: allMachineTime() });
    expect(outcome).toEqual({ closed: false, undecided: true });
    expect(performance.now() - start).toBeGreaterThanOrEqual(GRACE_MS * STDIO_CAP_FACTOR - 2);
  });

  it('extends the grace by the runner loop stalls: a close in the extension is in time', async () => {
    const outcome = await waitForStdioClose({
      closed: resolvedIn(GRACE_MS * 2),
      graceMs: GRACE_MS,
      cpuWait: () => 0,
      stalledMsBetween: (from, to) => to - from,
    });
    expect(outcome).toEqual({ closed: true, undecided: false });
  });

  it('without a CPU-wait measure, is undecided only while the machine is oversubscribed', async () => {
    const busy = await waitForStdioClose({ closed: never, graceMs: GRACE_MS, oversubscribed: () => true });
    const idle = await waitForStdioClose({ closed: never, graceMs: GRACE_MS, oversubscribed: () => false });
    expect(busy).toEqual({ closed: false, undecided: true });
    expect(idle).toEqual({ closed: false, undecided: false });
  });
});
