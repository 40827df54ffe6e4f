// Extra slots while the cores idle: granted by idle core share, capped, taken back one at a time when the
// machine is busy, and measured from the machine's real core times.
import { describe, expect, it } from 'vitest';
import {
  GROW_BELOW,
  IdleCoreSlots,
  MIN_FREE_BYTES,
  machineCoreUse,
  SHRINK_ABOVE,
} from '../../harness/suite/idle-core-slots.js';
import { suiteSlots, weightedPool } from '../../harness/suite/schedule.js';

/** Slots fed a scripted sequence of core-use readings. */
function scripted(readings: (number | undefined)[], max = 6, cores = 2, freeMemory = () => 8 * MIN_FREE_BYTES) {
  let grants = 0;
  const slots = new IdleCoreSlots({ max, cores, coreUse: () => readings.shift(), freeMemory });
  slots.start(() => {
    grants += 1;
  });
  slots.stop(); // samples are taken by hand below
  return { slots, grants: () => grants };
}

describe('IdleCoreSlots', () => {
  it('grants two runs per idle core, at least one, up to its maximum', () => {
    const { slots, grants } = scripted([0.5, 0.8, 0.1, 0.1]);
    slots.sample(); // one core idle of two: two runs
    expect(slots.extra).toBe(2);
    slots.sample(); // 20 % idle: still one
    expect(slots.extra).toBe(3);
    slots.sample(); // 90 % idle: 4 wanted, capped at 6
    expect(slots.extra).toBe(6);
    slots.sample();
    expect(slots.extra).toBe(6);
    expect(grants()).toBe(3);
  });

  it('takes one slot back per busy sample, never below none, and leaves it alone in between', () => {
    const { slots } = scripted([0.5, 0.9, SHRINK_ABOVE + 0.01, 1, 1, 1]);
    slots.sample();
    expect(slots.extra).toBe(2);
    slots.sample(); // between the thresholds: unchanged
    expect(slots.extra).toBe(2);
    slots.sample();
    expect(slots.extra).toBe(1);
    slots.sample();
    slots.sample();
    slots.sample();
    expect(slots.extra).toBe(0);
  });

  it('grants nothing on a busy machine or when nothing can be told', () => {
    const { slots, grants } = scripted([GROW_BELOW, undefined, 0.99]);
    slots.sample();
    slots.sample();
    slots.sample();
    expect(slots.extra).toBe(0);
    expect(grants()).toBe(0);
  });

  it('grants nothing while memory is short, and grows again once it is free', () => {
    let free = MIN_FREE_BYTES - 1;
    const { slots, grants } = scripted([0, 0, 0], 6, 2, () => free);
    slots.sample();
    slots.sample();
    expect(slots.extra).toBe(0);
    free = MIN_FREE_BYTES;
    slots.sample();
    expect(slots.extra).toBe(4);
    expect(grants()).toBe(1);
  });

  it('samples on its own once started, until stopped', async () => {
    let reads = 0;
    const slots = new IdleCoreSlots({
      max: 4,
      cores: 2,
      sampleMs: 5,
      freeMemory: () => MIN_FREE_BYTES,
      coreUse: () => {
        reads += 1;
        return 0;
      },
    });
    slots.start(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 60));
    slots.stop();
    expect(slots.extra).toBe(4);
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
});

describe('the pool with extra slots', () => {
  it('starts queued runs beyond its capacity when slots are granted, and stops sampling once the queue is empty', async () => {
    let extra = 0;
    let grant: () => void = () => undefined;
    let stopped = 0;
    const extraSlots = {
      get extra() {
        return extra;
      },
      start: (onGrant: () => void) => {
        grant = onGrant;
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
      { capacity: 2, order: [0, 1, 2, 3, 4], weight: () => 1, extraSlots },
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
    extra = 2;
    grant();
    expect(running).toBe(4);
    expect(stopped).toBe(0);
    while (releases.length > 0) {
      releases.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(await pool).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(4);
    expect(stopped).toBeGreaterThan(0);
  });

  it('grows only the default --jobs: a --jobs the user chose is kept', () => {
    expect(suiteSlots(3, 2)).toEqual({ capacity: 3 });
    const grown = suiteSlots(undefined, 2);
    expect(grown.capacity).toBe(12);
    expect(grown.extraSlots).toBeInstanceOf(IdleCoreSlots);
    expect(grown.extraSlots!.extra).toBe(0);
  });
});
