// How many runs go at a time and in what order. A run mostly waits (on its shim, on the mock's paced
// streams, on scripted delays, on a stalled stream's 3 s gate, on a retry-after): the shim's own work is a
// fraction of its wall time, so the default runs JOBS_PER_CORE per core. Measured with the reference shim on
// 2 cores (`npm run bench`): at two per core the suite's wall was bound by its slots (the runs' summed wall
// time divided by the jobs) with the cores a third idle. Once the runner's own cost per run had come down, four
// per core still left the cores about a third idle (default suite: CPU 28 s in 21 s of wall); at six per core
// the default suite took 15.2–16.0 s instead of 17.5–18.8 s (three alternating pairs) for the same CPU, and a
// full-matrix shard 70–71 s instead of 73–74 s. Eight per core (one sample) was slower again, with more CPU.
// Runs whose checks time the shim (interrupts: exit within a grace after SIGINT, a turn that must still be
// streaming when the interrupt comes) weigh TIMING_SENSITIVE_WEIGHT slots, so fewer runs share the machine
// with them (their margins are seconds against a shim's reaction of milliseconds). The longest runs start
// first, so the suite does not end waiting on one slow run, and the waits overlap other runs' work.
// Starting the longest first also starts the runs that mostly wait together: while they leave the cores idle,
// the default grows (idle-core-slots.ts).
import { availableParallelism } from 'node:os';
import type { RunSpec } from '../runner/results/run-types.js';
import { IdleCoreSlots } from './idle-core-slots.js';
import { typicalDurationMs } from './typical-durations.js';

export const JOBS_PER_CORE = 6;
/** Slots a timing-sensitive run takes (at most all of them). */
export const TIMING_SENSITIVE_WEIGHT = 2;

/** The default of --jobs: JOBS_PER_CORE runs per core this process may use. */
export function defaultJobs(cores: number = availableParallelism()): number {
  return Math.max(1, Math.round(cores * JOBS_PER_CORE));
}

/**
 * The pool's slots for a --jobs value: the one the user chose is kept as it is; the default grows while the
 * cores idle, up to twice itself (idle-core-slots.ts).
 */
export function suiteSlots(
  jobs: number | undefined,
  cores: number = availableParallelism(),
): { capacity: number; extraSlots?: IdleCoreSlots } {
  if (jobs !== undefined) return { capacity: jobs };
  const capacity = defaultJobs(cores);
  return { capacity, extraSlots: new IdleCoreSlots({ max: capacity, cores }) };
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
 * Runs every item with the sum of the running items' weights at most `capacity` (an item heavier than the
 * capacity runs alone), starting them in `order`; results come back in the items' own order.
 */
export async function weightedPool<T, R>(
  items: readonly T[],
  options: {
    capacity: number;
    order: readonly number[];
    weight: (item: T) => number;
    /** Slots beyond the capacity, granted while the cores idle (idle-core-slots.ts). */
    extraSlots?: Pick<IdleCoreSlots, 'extra' | 'start' | 'stop'>;
  },
  work: (item: T) => Promise<R>,
  done: (result: R) => void,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  const queue = [...options.order];
  const { extraSlots } = options;
  let used = 0;
  let running = 0;
  return new Promise<R[]>((resolve, reject) => {
    const fill = () => {
      if (queue.length === 0) extraSlots?.stop();
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
        if (used + weight > options.capacity + (extraSlots?.extra ?? 0)) break;
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
            extraSlots?.stop();
            reject(error);
          },
        );
      }
    };
    extraSlots?.start(fill);
    fill();
  });
}
