// From run results to the suite's verdict: expected failures applied (a listed check that passes is stale
// and fails the suite), the summary counts, and the exit code (0 all MUST checks pass, 1 some fail or a
// required run is not verified without a declared limitation, 2 the shim could not be started).
import { runFinding } from '../../rules/finding.js';
import { type ExpectedFailure, entryMatches, matchedRun } from '../config/expected-failures.js';
import type { RunResult } from './run-types.js';

const isMust = (severity: string) => severity === 'MUST';

/** What the summary and the exit code read of a run: a RunResult, or a run of a JSON report (merge-reports). */
export interface JudgedRun {
  status: RunResult['status'];
  expectedFailure?: string | undefined;
  startFailure?: string | undefined;
  findings: readonly { rule: string; severity: string }[];
  attempts?: readonly unknown[] | undefined;
}

export interface ExitOptions {
  /** A flaky run warns instead of failing the suite (--flaky-ok). */
  flakyOk?: boolean;
}

/** Marks expected failures and adds `expected-failures.stale` findings. Mutates and returns the results. */
export function applyExpectedFailures(
  results: RunResult[],
  entries: readonly ExpectedFailure[],
  os: string,
): RunResult[] {
  for (const entry of entries) {
    const matched = results.filter(
      (result) =>
        result.status !== 'not-verified' &&
        result.status !== 'partial' &&
        result.status !== 'error' &&
        result.status !== 'inconclusive' &&
        result.status !== 'flaky' &&
        entryMatches(entry, matchedRun(result, os)),
    );
    if (matched.length === 0) continue; // not run here (other OS, provider or --scenario filter): neither expected nor stale
    const label = `${entry.scenario}${entry.provider ? ` / ${entry.provider}` : ''}${entry.rule ? ` / ${entry.rule}` : ''}`;
    if (entry.rule === undefined) {
      for (const result of matched) {
        if (result.status === 'failed') result.expectedFailure = entry.reason;
        else if (!entry.intermittent) {
          result.findings.push(
            runFinding(
              'expected-failures.stale',
              `listed as an expected failure (${label}: ${entry.reason}), but the run passes now; remove the entry`,
            ),
          );
          result.status = 'failed';
        }
      }
      continue;
    }
    let seen = false;
    for (const result of matched) {
      const hits = result.findings.filter((finding) => finding.rule === entry.rule && isMust(finding.severity));
      if (hits.length === 0) continue;
      seen = true;
      // The run's failure is expected when every MUST finding is covered by an expected entry.
      const uncovered = result.findings.filter(
        (finding) =>
          isMust(finding.severity) &&
          !entries.some((other) => other.rule === finding.rule && entryMatches(other, matchedRun(result, os))),
      );
      if (uncovered.length === 0) result.expectedFailure = entry.reason;
    }
    if (!seen && !entry.intermittent) {
      for (const result of matched) {
        result.findings.push(
          runFinding(
            'expected-failures.stale',
            `${label} is listed as an expected failure (${entry.reason}), but that check passes now; remove the entry`,
          ),
        );
        result.status = 'failed';
        delete result.expectedFailure;
      }
    }
  }
  return results;
}

export interface SuiteSummary {
  passed: number;
  failed: number;
  warnings: number;
  /** Runs with at least one SHOULD finding ("N warnings in M runs"). */
  runsWithWarnings: number;
  notVerified: number;
  partial: number;
  expectedFailures: number;
  errors: number;
  /** Required runs the machine left undecided on every attempt (R19). */
  inconclusive: number;
  /** Runs whose outcome class differed between the attempts of --repeat. */
  flaky: number;
  /** Attempts played over all runs (replays of undecided runs and --repeat included). */
  attempts: number;
  [key: string]: unknown;
}

/** SHOULD findings of a run: the warnings it counts for. */
export function warningsOf(run: { findings: readonly { severity: string }[] }): number {
  return run.findings.filter((finding) => finding.severity === 'SHOULD').length;
}

export function summarizeResults(results: readonly JudgedRun[]): SuiteSummary {
  const summary: SuiteSummary = {
    passed: 0,
    failed: 0,
    warnings: 0,
    runsWithWarnings: 0,
    notVerified: 0,
    partial: 0,
    expectedFailures: 0,
    errors: 0,
    inconclusive: 0,
    flaky: 0,
    attempts: 0,
  };
  for (const result of results) {
    summary.attempts += result.attempts?.length ?? 1;
    if (result.status === 'error') summary.errors += 1;
    else if (result.status === 'inconclusive') summary.inconclusive += 1;
    else if (result.status === 'flaky') summary.flaky += 1;
    else if (result.status === 'failed' && result.expectedFailure) summary.expectedFailures += 1;
    else if (result.status === 'failed') summary.failed += 1;
    else if (result.status === 'passed') summary.passed += 1;
    else if (result.status === 'partial') summary.partial += 1;
    else summary.notVerified += 1;
    const warnings = warningsOf(result);
    summary.warnings += warnings;
    if (warnings > 0) summary.runsWithWarnings += 1;
  }
  return summary;
}

/** 3: no run failed, but the machine could not decide some required run (R19). */
export const EXIT = { ok: 0, failed: 1, usage: 2, inconclusive: 3 } as const;

/** The suite's exit code and, for 2, the reason: 1 when any run failed (never hidden), else 3 when inconclusive. */
export function suiteExit(
  results: readonly JudgedRun[],
  options: ExitOptions = {},
): { code: 0 | 1 | 2 | 3; reason?: string } {
  const attempted = results.filter((result) => result.status !== 'not-verified' && result.status !== 'partial');
  const failedStart = attempted.filter((result) => result.startFailure);
  if (attempted.length > 0 && failedStart.length === attempted.length) {
    return { code: EXIT.usage, reason: `the shim could not be started: ${failedStart[0]!.startFailure}` };
  }
  const failing = results.some(
    (result) =>
      (result.status === 'failed' && !result.expectedFailure) ||
      result.status === 'error' ||
      (result.status === 'flaky' && !options.flakyOk),
  );
  // A required run not verified without a declared limitation carries a scenario.required-verified finding.
  const requiredMissing = results.some(
    (result) =>
      result.status === 'not-verified' &&
      result.findings.some((finding) => finding.rule === 'scenario.required-verified'),
  );
  if (failing || requiredMissing) return { code: EXIT.failed };
  return { code: results.some((result) => result.status === 'inconclusive') ? EXIT.inconclusive : EXIT.ok };
}

/** "passed", "partial" or "failed" for the whole suite (the summary line and reports say it). */
export function suiteVerdict(
  results: readonly JudgedRun[],
  options: ExitOptions = {},
): 'passed' | 'partial' | 'failed' | 'inconclusive' {
  const code = suiteExit(results, options).code;
  if (code === EXIT.inconclusive) return 'inconclusive';
  if (code !== 0) return 'failed';
  return results.some((result) => result.status === 'partial') ? 'partial' : 'passed';
}
