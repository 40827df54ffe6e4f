// How the terminal report groups the runs that did not pass, worst first. The list is data: a status the
// report model gains later (flaky, inconclusive, ...) gets its own group from its entry here, or, without
// one, a group of its own after the known ones, so no run is ever left out of the report.
import type { ReportFinding, ReportRun } from './model.js';

export interface GroupDefinition {
  /** A run status, or `expected-failure` (a failed run the --expected-failures file covers). */
  key: string;
  /** The group's heading, and what it means when the name alone does not say. */
  label: string;
  hint?: string;
  /** The mark the group's runs and counts carry. */
  mark: string;
}

/** Worst first. `passed` has no group: passing runs get no paragraph. */
export const GROUPS: readonly GroupDefinition[] = [
  { key: 'failed', label: 'Failed', mark: '✘' },
  { key: 'flaky', label: 'Flaky', hint: 'the outcome changed between repeats', mark: '≈' },
  { key: 'error', label: 'Harness errors', hint: 'a fault inside the suite, not a verdict on the shim', mark: '⚠' },
  { key: 'inconclusive', label: 'Inconclusive', hint: 'still undecided after every attempt', mark: '?' },
  { key: 'not-verified', label: 'Not verified', mark: '○' },
  { key: 'partial', label: 'Partial', hint: 'passed with a declared limitation', mark: '◐' },
  { key: 'expected-failure', label: 'Expected failures', hint: 'listed in --expected-failures', mark: '✘' },
];

export const PASSED_MARK = '✔';

/** The group a run belongs to: its status, except that a covered failure is an expected failure. */
export function groupKeyOf(run: ReportRun): string {
  const status: string = run.status;
  return status === 'failed' && run.expectedFailure ? 'expected-failure' : status;
}

export interface RunGroup extends GroupDefinition {
  runs: ReportRun[];
}

/** The runs that did not pass, in groups, worst group first and runs in report order within each. */
export function groupRuns(runs: readonly ReportRun[]): RunGroup[] {
  const groups = new Map<string, RunGroup>();
  for (const definition of GROUPS) groups.set(definition.key, { ...definition, runs: [] });
  for (const run of runs) {
    const key = groupKeyOf(run);
    if (key === 'passed') continue;
    let group = groups.get(key);
    if (!group) {
      group = { key, label: key.charAt(0).toUpperCase() + key.slice(1), mark: '•', runs: [] };
      groups.set(key, group);
    }
    group.runs.push(run);
  }
  return [...groups.values()].filter((group) => group.runs.length > 0);
}

/** Runs per group key, `passed` first, then the groups in order; only keys with runs, `passed` and `failed` always. */
export function statusCounts(runs: readonly ReportRun[]): { key: string; mark: string; count: number }[] {
  const counts = new Map<string, number>([['passed', 0]]);
  for (const definition of GROUPS) counts.set(definition.key, 0);
  for (const run of runs) {
    const key = groupKeyOf(run);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const markOf = (key: string) => (key === 'passed' ? PASSED_MARK : (GROUPS.find((g) => g.key === key)?.mark ?? '•'));
  return [...counts.entries()]
    .filter(([key, count]) => count > 0 || key === 'passed' || key === 'failed')
    .map(([key, count]) => ({ key, mark: markOf(key), count }));
}

/** A run shown in full, and the runs listed under it by identity because they failed the same way. */
export interface RunWithRepeats {
  run: ReportRun;
  repeats: ReportRun[];
}

/** What a failed run is recognised by: its scenario and provider, and each shown finding's rule and line. */
function failureKey(run: ReportRun, shown: (finding: ReportFinding) => boolean): string {
  const findings = run.findings
    .filter(shown)
    .map((finding) => `${finding.severity} ${finding.rule} ${finding.line ?? '-'}`)
    .sort();
  return JSON.stringify([run.scenario, run.provider, findings]);
}

/**
 * The runs of a group, each failed run of one scenario and provider whose shown findings name the same rules on the
 * same lines as an earlier one (another profile, dialect or seed) listed under that one instead of in full: a
 * shim that breaks one thing fails it in every sampled combination. Other groups are kept run by run.
 */
export function withRepeats(group: RunGroup, shown: (finding: ReportFinding) => boolean): RunWithRepeats[] {
  if (group.key !== 'failed') return group.runs.map((run) => ({ run, repeats: [] }));
  const first = new Map<string, RunWithRepeats>();
  const out: RunWithRepeats[] = [];
  for (const run of group.runs) {
    const key = failureKey(run, shown);
    const earlier = first.get(key);
    if (earlier) {
      earlier.repeats.push(run);
      continue;
    }
    const entry = { run, repeats: [] };
    first.set(key, entry);
    out.push(entry);
  }
  return out;
}
