// How many runs go at a time and in what order. The width (runs at once) starts at the cores and moves with
// what the machine shows (width-rule.ts, suite-width.ts): a run mostly waits (on its shim, on the mock's paced
// streams, on scripted delays, on a stalled stream's 3 s gate, on a retry-after), so with a light shim the
// cores have room for many runs at once, and with a heavy one (real Claude Code) for few. Measured with the
// reference shim on 2 cores (`npm run bench`) when the width was fixed: six per core kept the cores busy
// (default suite 15.2–16.0 s against 17.5–18.8 s at four per core), eight per core was slower again with more
// CPU. Runs whose checks time the shim (interrupts: exit within a grace after SIGINT, a turn that must still be
// streaming when the interrupt comes) weigh TIMING_SENSITIVE_WEIGHT slots, so fewer runs share the machine
// with them (their margins are seconds against a shim's reaction of milliseconds). The longest runs start
// first, so the suite does not end waiting on one slow run, and the waits overlap other runs' work.
import { availableParallelism } from 'node:os';
import type { RunSpec } from '../runner/results/run-types.js';
import { SuiteWidth, type Width } from './suite-width.js';
import { typicalDurationMs } from './typical-durations.js';
import { widthLimits } from './width-rule.js';

/** Slots a timing-sensitive run takes (at most all of them). */
export const TIMING_SENSITIVE_WEIGHT = 2;

/**
 * The pool's slots: `capacity` is the fewest it will have (a --jobs the user gave, kept as it is, else
 * WIDTH_FLOOR); without a --jobs, `width` moves with the machine from the cores up, capped by a preset's runs
 * per core.
 */
export function suiteSlots(options: {
  jobs?: number | undefined;
  presetPerCore?: number | undefined;
  cores?: number;
  /** Told each change of the width, with why. */
  onChange?: ((width: number, why: string) => void) | undefined;
}): { capacity: number; width?: SuiteWidth } {
  if (options.jobs !== undefined) return { capacity: options.jobs };
  const limits = widthLimits({
    cores: options.cores ?? availableParallelism(),
    ...(options.presetPerCore === undefined ? {} : { presetPerCore: options.presetPerCore }),
  });
  return {
    capacity: limits.floor,
    width: new SuiteWidth({ limits, ...(options.onChange ? { onChange: options.onChange } : {}) }),
  };
}

/** Runs whose verdict depends on how fast the shim reacts (interrupt timing). */
export function isTimingSensitive(spec: RunSpec): boolean {
  return spec.scenario.turns.some((turn) => turn.interrupt !== undefined);
}

/** Slots a run takes out of `jobs`: TIMING_SENSITIVE_WEIGHT for a timing-sensitive run, at most all of them. */
export function runWeight(spec: RunSpec, jobs: number): number {
  if (!isTimingSensitive(spec)) return 1;
  return Math.max(1, Math.min(jobs, TIMING_SENSITIVE_WEIGHT));
}

/** Indexes of `specs` in the order to start them: longest expected first, then matrix order. */
export function startOrder(specs: readonly RunSpec[]): number[] {
  return specs
    .map((spec, index) => ({ index, expected: typicalDurationMs(spec.scenario.id) }))
    .sort((a, b) => b.expected - a.expected || a.index - b.index)
    .map((entry) => entry.index);
}

/**
 * Runs every item with the sum of the running items' weights at most the width (`width.current`, never under
 * `capacity`; an item heavier than the capacity runs alone), starting them in `order`; results come back in the
 * items' own order.
 */
export async function weightedPool<T, R>(
  items: readonly T[],
  options: {
    capacity: number;
    order: readonly number[];
    weight: (item: T) => number;
    /** The slots now, when they move with the machine (suite-width.ts); else `capacity`. */
    width?: Width;
  },
  work: (item: T) => Promise<R>,
  done: (result: R) => void,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  const queue = [...options.order];
  const { width } = options;
  let used = 0;
  let running = 0;
  return new Promise<R[]>((resolve, reject) => {
    const fill = () => {
      if (queue.length === 0) width?.stop();
      if (queue.length === 0 && running === 0) {
        resolve(results);
        return;
      }
      // Strictly in order: a heavy item that does not fit yet waits for slots to free, and nothing overtakes it
      // (otherwise light items could keep it waiting to the end).
      while (queue.length > 0) {
        const index = queue[0]!;
        const item = items[index]!;
        const weight = Math.min(options.weight(item), options.capacity);
        if (used + weight > Math.max(options.capacity, width?.current ?? 0)) break;
        queue.shift();
        used += weight;
        running += 1;
        work(item).then(
          (result) => {
            results[index] = result;
            used -= weight;
            running -= 1;
            done(result);
            fill();
          },
          (error: unknown) => {
            width?.stop();
            reject(error);
          },
        );
      }
    };
    width?.start(fill, () => queue.length > 0);
    fill();
  });
}
