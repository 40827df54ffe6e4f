// The one name of a run, shared by the progress line and every reporter (human, JUnit, HTML): every dimension
// that tells two runs apart (scenario, provider, invocation, profile, dialect, seed), so runs that differ only
// by seed or invocation never print the same header.
import type { RunIdentity } from '../runner/results/run-identity.js';
import { VALIDATE_PROVIDER } from './model.js';

/**
 * The fields that make a run's identity (a ReportRun or a runner's RunResult both have them): a RunIdentity,
 * whose provider a `validate` run lacks, and the dialect seen where none was asked.
 */
export interface RunLabelFields extends Omit<RunIdentity, 'provider'> {
  provider?: string;
  /** The dialect a run's stdout spoke, where none was asked (the yume-app invocation, R1a). */
  dialectSeen?: string;
}

/**
 * `plain-text [gemini] invocation=spec profile=yume-app dialect=flat seed=2`. A `validate` run (no provider,
 * no invocation) is named by its file and what it was judged as.
 */
export function runLabel(run: RunLabelFields): string {
  const parts = [
    run.provider && run.provider !== VALIDATE_PROVIDER ? `${run.scenario} [${run.provider}]` : run.scenario,
  ];
  if (run.invocation !== undefined) parts.push(`invocation=${run.invocation}`);
  if (run.profile !== undefined) parts.push(`profile=${run.profile}`);
  if (run.dialect !== undefined) parts.push(`dialect=${run.dialect}`);
  else if (run.dialectSeen !== undefined) parts.push(`dialect seen=${run.dialectSeen}`);
  if (run.seed !== undefined) parts.push(`seed=${run.seed}`);
  return parts.join(' ');
}

/**
 * ` (printed claude)` when the run's stdout spoke another dialect than the one the runner asked for: the label
 * names the one asked (it is the run's identity), the report says beside it what was printed.
 */
export function printedDialectNote(run: Pick<RunLabelFields, 'dialect' | 'dialectSeen'>): string {
  const { dialect, dialectSeen } = run;
  return dialect !== undefined && dialectSeen !== undefined && dialectSeen !== dialect
    ? ` (printed ${dialectSeen})`
    : '';
}
