// `--shard i/n`: a deterministic split of the selected runs into n parts balanced by expected duration
// (typical-durations.ts), so n CI machines finish at about the same time. Every machine computes the same
// split from the same selection: the runs sorted longest first (ties by their key), each given to the shard
// with the least expected time so far (ties to the lowest index). The selection's fingerprint goes into
// every shard's report, so merge-reports can refuse shards of different selections.
import { createHash } from 'node:crypto';
import { UsageError } from '../errors.js';
import { runKey, specIdentity } from '../runner/results/run-identity.js';
import type { RunSpec } from '../runner/results/run-types.js';
import { typicalDurationMs } from './typical-durations.js';

// A type alias (not an interface) so it fits the generated ReportShard's index signature.
export type Shard = {
  /** 1-based. */
  index: number;
  count: number;
};

/** Parses `i/n` (1 <= i <= n); throws a message naming the bad value. */
export function parseShard(value: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = match ? Number(match[1]) : Number.NaN;
  const count = match ? Number(match[2]) : Number.NaN;
  if (!match || count < 1 || index < 1 || index > count)
    throw new UsageError(`--shard ${JSON.stringify(value)}: expected i/n with 1 <= i <= n (e.g. --shard 2/4)`);
  return { index, count };
}

/** sha256 over the selection's run keys in matrix order: equal exactly when two runs selected the same runs. */
export function selectionFingerprint(keys: readonly string[]): string {
  return createHash('sha256').update(keys.join('\n')).digest('hex').slice(0, 32);
}

/** The shard (1-based) of each spec, balanced by typical duration. */
export function assignShards(specs: readonly RunSpec[], count: number): number[] {
  const entries = specs.map((spec, index) => ({
    index,
    key: runKey(specIdentity(spec)),
    expected: typicalDurationMs(spec.scenario.id),
  }));
  entries.sort((a, b) => b.expected - a.expected || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const loads = new Array<number>(count).fill(0);
  const assigned = new Array<number>(specs.length);
  for (const entry of entries) {
    let lightest = 0;
    for (let shard = 1; shard < count; shard += 1) if (loads[shard]! < loads[lightest]!) lightest = shard;
    loads[lightest] = loads[lightest]! + entry.expected;
    assigned[entry.index] = lightest + 1;
  }
  return assigned;
}
