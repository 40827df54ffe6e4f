// How many runs go at once, decided from what the machine shows (R19): the suite starts at no more runs than
// cores and grows one run at a time while the cores, every program on the machine counted, have time to spare
// and memory holds another run's resident size; it gives a run back when the cores stay saturated or memory runs
// short, never below WIDTH_FLOOR. What a run weighs decides the width: the reference shim's runs mostly wait (a
// run keeps a core about a fifth busy), so the cores stay unsaturated until about ten run at once on 2 cores;
// real Claude Code starts a large program per turn and saturates them with two or three. A guess that is too
// wide does not just slow the suite: ten Claude Code runs at once on 2 cores missed their interrupts' moments.
// This file is the rule alone, fed readings (suite-width.ts takes them from the machine), so it is tested with
// scripted samples.

/** Runs at once are never fewer (a timing-sensitive run takes two slots and so still runs, alone). */
export const WIDTH_FLOOR = 2;
/** The default's ceiling per core: twice the six per core that kept 2 cores busy with the reference shim. */
export const MAX_JOBS_PER_CORE = 12;
/** Below this share of busy core time in a sample (every program counted), one more run may start. */
export const GROW_BELOW = 0.8;
/** Above it, samples count towards giving a run back. */
export const SHRINK_ABOVE = 0.97;
/**
 * Saturated samples in a row before a run is given back: the start of one shim can fill a sample on its own,
 * so one saturated sample says little; running runs are never stopped, the next one just waits.
 */
export const SHRINK_AFTER = 3;
/** Memory always left free: below it a run is given back, and nothing grows unless another run fits above it. */
export const RESERVE_BYTES = 512 * 1024 ** 2;
/** A run's resident size until one is measured: a shim or two (about 50 MB each) and its tools. */
export const DEFAULT_RUN_BYTES = 200 * 1024 ** 2;

export interface WidthLimits {
  /** Runs at once at the start. */
  start: number;
  /** Never fewer. */
  floor: number;
  /** Never more. */
  max: number;
}

/**
 * The limits of the default width (a --jobs the user gave is kept as it is, suite-width.ts is not used): the
 * start is the cores and the ceiling MAX_JOBS_PER_CORE per core, or the preset's runs per core when it sets
 * fewer; neither below WIDTH_FLOOR.
 */
export function widthLimits(options: { cores: number; presetPerCore?: number }): WidthLimits {
  const perCore = Math.min(MAX_JOBS_PER_CORE, options.presetPerCore ?? MAX_JOBS_PER_CORE);
  const max = Math.max(WIDTH_FLOOR, Math.floor(options.cores * perCore));
  return { start: Math.min(max, Math.max(WIDTH_FLOOR, options.cores)), floor: WIDTH_FLOOR, max };
}

/** One reading of the machine, between the previous sample and now. */
export interface WidthSample {
  /** Share of all the machine's core time spent busy (0–1), other programs counted; undefined: nothing to tell. */
  busy: number | undefined;
  /** Bytes of memory available now. */
  freeBytes: number;
  /** The largest resident size of a running run's shim, when one was measured. */
  runBytes?: number;
  /** Runs are waiting for a slot (growing for nothing would only let a later burst in unmeasured). */
  queued: boolean;
}

export interface WidthState {
  width: number;
  /** Saturated samples in a row. */
  saturated: number;
}

export type WidthChange = 'grew' | 'shrank' | 'held';

/** Why a width changed, in words for the progress output. */
export interface WidthStep {
  state: WidthState;
  change: WidthChange;
  why: string;
}

const percent = (share: number) => `${Math.round(share * 100)} %`;
const megabytes = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MB`;

/**
 * The next width after `sample`: memory short gives one run back at once; `SHRINK_AFTER` saturated samples in a
 * row give one back; a sample under GROW_BELOW with runs waiting and room for one more run's memory adds one.
 * In between it holds (the gap between the two thresholds keeps it from see-sawing).
 */
export function nextWidth(state: WidthState, sample: WidthSample, limits: WidthLimits): WidthStep {
  const held = (saturated: number): WidthStep => ({
    state: { width: state.width, saturated },
    change: 'held',
    why: '',
  });
  if (sample.freeBytes < RESERVE_BYTES) {
    if (state.width <= limits.floor) return held(0);
    return {
      state: { width: state.width - 1, saturated: 0 },
      change: 'shrank',
      why: `memory short: ${megabytes(sample.freeBytes)} free`,
    };
  }
  if (sample.busy === undefined) return held(state.saturated);
  if (sample.busy > SHRINK_ABOVE) {
    const saturated = state.saturated + 1;
    if (saturated < SHRINK_AFTER || state.width <= limits.floor) return held(saturated);
    return {
      state: { width: state.width - 1, saturated: 0 },
      change: 'shrank',
      why: `cores ${percent(sample.busy)} busy for ${SHRINK_AFTER} samples, other programs counted`,
    };
  }
  if (sample.busy >= GROW_BELOW || !sample.queued || state.width >= limits.max) return held(0);
  const runBytes = sample.runBytes ?? DEFAULT_RUN_BYTES;
  if (sample.freeBytes - runBytes < RESERVE_BYTES) return held(0);
  return {
    state: { width: state.width + 1, saturated: 0 },
    change: 'grew',
    why: `cores ${percent(sample.busy)} busy, ${megabytes(sample.freeBytes)} free`,
  };
}
