// The width rule (runs at once) fed scripted readings: where it starts, how it grows one run at a time while the
// cores (other programs counted) and memory have room, when it gives a run back, and that it never leaves its
// limits.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RUN_BYTES,
  GROW_BELOW,
  MAX_JOBS_PER_CORE,
  nextWidth,
  RESERVE_BYTES,
  SHRINK_ABOVE,
  SHRINK_AFTER,
  WIDTH_FLOOR,
  type WidthLimits,
  type WidthSample,
  type WidthState,
  widthLimits,
} from '../../harness/suite/width-rule.js';

const plenty = 16 * 1024 ** 3;
const reading = (busy: number | undefined, more: Partial<WidthSample> = {}): WidthSample => ({
  busy,
  freeBytes: plenty,
  queued: true,
  ...more,
});

/** The widths after each reading, from `start`. */
function widths(limits: WidthLimits, readings: WidthSample[], start = limits.start): number[] {
  let state: WidthState = { width: start, saturated: 0 };
  return readings.map((sample) => {
    state = nextWidth(state, sample, limits).state;
    return state.width;
  });
}

describe('widthLimits', () => {
  it('starts at the cores, never below 2, up to MAX_JOBS_PER_CORE per core', () => {
    expect(widthLimits({ cores: 2 })).toEqual({ start: 2, floor: 2, max: 2 * MAX_JOBS_PER_CORE });
    expect(widthLimits({ cores: 1 })).toEqual({ start: 2, floor: 2, max: MAX_JOBS_PER_CORE });
    expect(widthLimits({ cores: 16 })).toEqual({ start: 16, floor: 2, max: 16 * MAX_JOBS_PER_CORE });
  });

  it("caps the ceiling, and so the start, at a preset's runs per core, never below 2", () => {
    expect(widthLimits({ cores: 2, presetPerCore: 1 })).toEqual({ start: 2, floor: 2, max: 2 });
    expect(widthLimits({ cores: 8, presetPerCore: 0.5 })).toEqual({ start: 4, floor: 2, max: 4 });
    expect(widthLimits({ cores: 1, presetPerCore: 0.5 })).toEqual({ start: 2, floor: WIDTH_FLOOR, max: 2 });
    // A preset cannot raise the default's ceiling.
    expect(widthLimits({ cores: 2, presetPerCore: 100 }).max).toBe(2 * MAX_JOBS_PER_CORE);
  });
});

describe('nextWidth', () => {
  const limits = widthLimits({ cores: 2 });

  it('grows one run per sample while the cores have room and runs wait, up to the ceiling', () => {
    expect(widths(limits, [reading(0.1), reading(0.5), reading(GROW_BELOW - 0.01)])).toEqual([3, 4, 5]);
    expect(widths({ start: 2, floor: 2, max: 3 }, [reading(0), reading(0), reading(0)])).toEqual([3, 3, 3]);
  });

  it('holds between the thresholds, when nothing can be told, and when no run waits', () => {
    expect(
      widths(limits, [reading(GROW_BELOW), reading(0.9), reading(undefined), reading(0, { queued: false })], 6),
    ).toEqual([6, 6, 6, 6]);
  });

  it(`gives one run back after ${SHRINK_AFTER} saturated samples in a row, not after fewer, never below 2`, () => {
    const busy = reading(SHRINK_ABOVE + 0.01);
    expect(widths(limits, [busy, busy, reading(0.9), busy, busy, busy], 6)).toEqual([6, 6, 6, 6, 6, 5]);
    const many = Array.from({ length: SHRINK_AFTER * 10 }, () => busy);
    expect(widths(limits, many, 6).at(-1)).toBe(2);
    expect(Math.min(...widths(limits, many, 6))).toBe(2);
  });

  it('counts other programs: a machine busy with other work grows nothing', () => {
    // The reading is the whole machine's: a suite of 2 on a machine another program keeps busy stays at 2.
    expect(
      widths(
        limits,
        Array.from({ length: 20 }, () => reading(1)),
      ),
    ).toEqual(Array.from({ length: 20 }, () => 2));
  });

  it('grows only when another run of the measured resident size fits above the reserve', () => {
    const tight = RESERVE_BYTES + 300 * 1024 ** 2;
    expect(widths(limits, [reading(0, { freeBytes: tight, runBytes: 400 * 1024 ** 2 })])).toEqual([2]);
    expect(widths(limits, [reading(0, { freeBytes: tight, runBytes: 100 * 1024 ** 2 })])).toEqual([3]);
    // Nothing measured yet: a default run size.
    expect(widths(limits, [reading(0, { freeBytes: RESERVE_BYTES + DEFAULT_RUN_BYTES - 1 })])).toEqual([2]);
  });

  it('gives a run back at once when memory is short, never below 2, and says why', () => {
    const short = reading(0, { freeBytes: RESERVE_BYTES - 1 });
    expect(widths(limits, [short, short, short, short], 4)).toEqual([3, 2, 2, 2]);
    const step = nextWidth({ width: 4, saturated: 0 }, short, limits);
    expect(step.change).toBe('shrank');
    expect(step.why).toMatch(/^memory short: \d+ MB free$/);
  });

  it('says why it grew and why it shrank', () => {
    const grew = nextWidth({ width: 2, saturated: 0 }, reading(0.42, { freeBytes: 2 * 1024 ** 3 }), limits);
    expect(grew).toEqual({ state: { width: 3, saturated: 0 }, change: 'grew', why: 'cores 42 % busy, 2048 MB free' });
    const shrank = nextWidth({ width: 5, saturated: SHRINK_AFTER - 1 }, reading(1), limits);
    expect(shrank.change).toBe('shrank');
    expect(shrank.why).toBe(`cores 100 % busy for ${SHRINK_AFTER} samples, other programs counted`);
  });
});
