// Findings of one severity over a whole report, grouped by rule: how often each rule fired, which runs it hit
// (each run once, in report order) and its first message. The terminal report prints a warning once per
// rule this way instead of once per run.
import type { ReportFinding, ReportRun } from './model.js';

export interface RuleTally {
  rule: string;
  severity: ReportFinding['severity'];
  /** Findings of the rule over all runs. */
  count: number;
  /** Its first finding's message and fix. */
  message: string;
  fix?: string;
  runs: ReportRun[];
}

/** Rules of `severity`, most frequent first (then by rule id, so the order is stable). */
export function findingsByRule(runs: readonly ReportRun[], severity: ReportFinding['severity']): RuleTally[] {
  const tallies = new Map<string, RuleTally>();
  for (const run of runs) {
    for (const finding of run.findings) {
      if (finding.severity !== severity) continue;
      let tally = tallies.get(finding.rule);
      if (!tally) {
        tally = { rule: finding.rule, severity, count: 0, message: finding.message, runs: [] };
        if (finding.fix !== undefined) tally.fix = finding.fix;
        tallies.set(finding.rule, tally);
      }
      tally.count += 1;
      if (tally.runs.at(-1) !== run) tally.runs.push(run);
    }
  }
  return [...tallies.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
}
