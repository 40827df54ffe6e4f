// The suite's width as the machine shows it: the sampler applies the rule to its readings, tells each change,
// lets the pool start queued runs when it grows, samples on its own until stopped, and reads the machine's
// real core times and resident sizes.
import { describe, expect, it } from 'vitest';
import { weightedPool } from '../../harness/suite/schedule.js';
import {
  largestShimResident,
  machineCoreUse,
  residentBytes,
  SuiteWidth,
  type SuiteWidthOptions,
} from '../../harness/suite/suite-width.js';
import { SHRINK_AFTER, widthLimits } from '../../harness/suite/width-rule.js';

const plenty = () => 16 * 1024 ** 3;

/** A width fed a scripted sequence of core-use readings; samples are taken by hand. */
function scripted(readings: (number | undefined)[], more: Partial<SuiteWidthOptions> = {}) {
  const changes: string[] = [];
  let grows = 0;
  const width = new SuiteWidth({
    limits: widthLimits({ cores: 2 }),
    coreUse: () => readings.shift(),
    freeMemory: plenty,
    runBytes: () => 100 * 1024 ** 2,
    onChange: (current, why) => changes.push(`${current}: ${why}`),
    ...more,
  });
  width.start(() => {
    grows += 1;
  });
  width.stop();
  return { width, changes, grows: () => grows };
}

describe('SuiteWidth', () => {
  it('starts at the cores and grows one run per roomy sample, telling the pool and the progress each time', () => {
    const { width, changes, grows } = scripted([0.2, 0.5, 0.9]);
    expect(width.current).toBe(2);
    width.sample();
    width.sample();
    width.sample(); // between the thresholds: held, nothing said
    expect(width.current).toBe(4);
    expect(grows()).toBe(2);
    expect(changes).toEqual(['3: cores 20 % busy, 16384 MB free', '4: cores 50 % busy, 16384 MB free']);
    expect(width.peak).toBe(4);
  });

  it('gives runs back on a saturated machine, never below 2, and keeps its peak', () => {
    const { width, changes, grows } = scripted([0, ...Array.from({ length: SHRINK_AFTER * 4 }, () => 1)]);
    for (let index = 0; index < 1 + SHRINK_AFTER * 4; index += 1) width.sample();
    expect(width.current).toBe(2);
    expect(width.peak).toBe(3);
    expect(grows()).toBe(1);
    expect(changes.at(-1)).toBe(`2: cores 100 % busy for ${SHRINK_AFTER} samples, other programs counted`);
  });

  it('grows nothing while memory is short or the runs would not fit', () => {
    const { width } = scripted([0, 0], { freeMemory: () => 600 * 1024 ** 2, runBytes: () => 300 * 1024 ** 2 });
    width.sample();
    width.sample();
    expect(width.current).toBe(2);
  });

  it('grows nothing when no run waits', () => {
    const width = new SuiteWidth({ limits: widthLimits({ cores: 2 }), coreUse: () => 0, freeMemory: plenty });
    width.start(
      () => undefined,
      () => false,
    );
    width.stop();
    width.sample();
    expect(width.current).toBe(2);
  });

  it('samples on its own once started, until stopped', async () => {
    let reads = 0;
    const width = new SuiteWidth({
      limits: { start: 2, floor: 2, max: 5 },
      sampleMs: 5,
      freeMemory: plenty,
      runBytes: () => undefined,
      coreUse: () => {
        reads += 1;
        return 0;
      },
    });
    width.start(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 80));
    width.stop();
    expect(width.current).toBe(5);
    const after = reads;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reads).toBe(after);
  });

  it("reads the machine's real core times: busy work shows as a busy share between 0 and 1", () => {
    const use = machineCoreUse();
    const until = performance.now() + 60;
    let spin = 0;
    while (performance.now() < until) spin += 1;
    const busy = use();
    expect(spin).toBeGreaterThan(0);
    expect(busy).toBeDefined();
    expect(busy!).toBeGreaterThan(0);
    expect(busy!).toBeLessThanOrEqual(1);
  });

  it.runIf(process.platform === 'linux')('reads resident sizes from /proc, and none of a process that is gone', () => {
    const own = residentBytes(process.pid);
    expect(own).toBeGreaterThan(10 * 1024 ** 2);
    expect(own).toBeLessThan(process.memoryUsage().rss * 2);
    expect(residentBytes(2 ** 22 + 12345)).toBeUndefined();
    // The largest of the readable ones: this process, not a gone one.
    expect(largestShimResident([2 ** 22 + 12345, process.pid])).toBeGreaterThan(10 * 1024 ** 2);
    expect(largestShimResident([])).toBeUndefined();
  });
});

describe('the pool with a moving width', () => {
  it('starts queued runs when the width grows, never more than it, and stops sampling once the queue is empty', async () => {
    let current = 2;
    let grow: () => void = () => undefined;
    let queued: () => boolean = () => false;
    let stopped = 0;
    const width = {
      get current() {
        return current;
      },
      start: (onGrow: () => void, isQueued?: () => boolean) => {
        grow = onGrow;
        queued = isQueued ?? (() => true);
      },
      stop: () => {
        stopped += 1;
      },
    };
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const pool = weightedPool(
      [0, 1, 2, 3, 4],
      { capacity: 2, order: [0, 1, 2, 3, 4], weight: () => 1, width },
      async (item) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        return item;
      },
      () => undefined,
    );
    await Promise.resolve();
    expect(running).toBe(2);
    expect(queued()).toBe(true);
    current = 4;
    grow();
    expect(running).toBe(4);
    expect(stopped).toBe(0);
    // A narrower width starts nothing new until the running ones are under it; none is stopped.
    current = 2;
    releases.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(running).toBe(3);
    while (releases.length > 0) {
      releases.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(await pool).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(4);
    expect(queued()).toBe(false);
    expect(stopped).toBeGreaterThan(0);
  });
});
