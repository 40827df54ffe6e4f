// What identifies a run across reports and shards: the point of the matrix, and its key. It sits with the run's
// results, below both the reports (merge-shards joins runs by key) and the suite (shards split by key).
import { invocationName } from '../config/invocation.js';
import type { RunResult, RunSpec } from './run-types.js';

/** What identifies a run across reports: the point of the matrix. */
export interface RunIdentity {
  scenario: string;
  provider: string;
  invocation?: string;
  profile?: string;
  dialect?: string;
  seed?: number;
}

export function runKey(run: RunIdentity): string {
  return [run.scenario, run.provider, run.invocation ?? '', run.profile ?? '', run.dialect ?? '', run.seed ?? '-'].join(
    '|',
  );
}

/** A spec's identity, typed as a run result's fields (a RunIdentity, with the matrix's own value types). */
export type SpecIdentity = Pick<RunResult, 'scenario' | 'provider' | 'invocation' | 'profile' | 'dialect' | 'seed'>;

export function specIdentity(spec: RunSpec): SpecIdentity {
  return {
    scenario: spec.scenario.id,
    provider: spec.provider,
    invocation: invocationName(spec.invocation),
    profile: spec.profile,
    ...(spec.dialect === undefined ? {} : { dialect: spec.dialect }),
    ...(spec.seed === undefined ? {} : { seed: spec.seed }),
  };
}
