// The report model shared by every reporter (schemas/report.schema.json; types generated from it).
import type {
  ConformanceReport,
  ReportFinding,
  ReportNotVerified,
  ReportProcess,
  ReportRequest,
  ReportRun,
  ReportSummary,
} from '../../generated/protocol.js';
import { PROTOCOL_VERSION, REPORT_VERSION } from '../../generated/protocol.js';
import type { Finding } from '../rules/types.js';
import { warningsOf } from '../runner/results/verdict.js';
import type { ValidationResult } from '../validate/validate-stream.js';

export type {
  ConformanceReport,
  ReportFinding,
  ReportNotVerified,
  ReportProcess,
  ReportRequest,
  ReportRun,
  ReportSummary,
};
export type RunStatus = ReportRun['status'];

/** Provider column of runs made by `validate` (no provider is involved). */
export const VALIDATE_PROVIDER = 'n/a';

/** A finding as reports carry it (drops undefined fields so JSON output stays tidy). */
export function toReportFinding(finding: Finding): ReportFinding {
  const out: ReportFinding = { rule: finding.rule, severity: finding.severity, message: finding.message };
  if (finding.line !== undefined) out.line = finding.line;
  if (finding.excerpt !== undefined) out.excerpt = finding.excerpt;
  if (finding.fix !== undefined) out.fix = finding.fix;
  return out;
}

/** Status of a run from its findings: any MUST fails it. */
export function statusOf(findings: readonly Finding[]): RunStatus {
  return findings.some((f) => f.severity === 'MUST') ? 'failed' : 'passed';
}

/** "N warnings in M runs", as every report says it (summary.warnings and summary.runsWithWarnings). */
export function warningsText(summary: Pick<ReportSummary, 'warnings' | 'runsWithWarnings'>): string {
  const { warnings } = summary;
  const runs = summary.runsWithWarnings ?? 0;
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return warnings === 0 ? '0 warnings' : `${plural(warnings, 'warning')} in ${plural(runs, 'run')}`;
}

/** Counts runs by status, and SHOULD findings and the runs they are in over all runs. */
export function summarize(runs: readonly ReportRun[]): ReportSummary {
  const summary: ReportSummary = { passed: 0, failed: 0, warnings: 0, runsWithWarnings: 0, notVerified: 0, partial: 0 };
  for (const run of runs) {
    if (run.status === 'passed') summary.passed += 1;
    else if (run.status === 'failed') summary.failed += 1;
    else if (run.status === 'not-verified') summary.notVerified += 1;
    else if (run.status === 'error') summary.errors = (summary.errors ?? 0) + 1;
    else summary.partial = (summary.partial ?? 0) + 1;
    const warnings = warningsOf(run);
    summary.warnings += warnings;
    if (warnings > 0) summary.runsWithWarnings = (summary.runsWithWarnings ?? 0) + 1;
  }
  return summary;
}

/** Not-verified checks over all runs, per rule (a whole-run record counts under "(whole run)"), most first. */
export function notVerifiedByRule(runs: readonly ReportRun[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const run of runs)
    for (const record of run.notVerified ?? []) {
      const key = record.rule ?? (record.scope === 'run' ? '(whole run)' : '(no rule)');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** A complete report from runs. */
export function buildReport(runs: ReportRun[]): ConformanceReport {
  return { summary: summarize(runs), runs, protocolVersion: PROTOCOL_VERSION, reportVersion: REPORT_VERSION };
}

/** One report run for a stream judged by `validate` (scenario = the file name, or `-` for stdin). */
export function runFromValidation(result: ValidationResult, source: string): ReportRun {
  return {
    scenario: source,
    provider: VALIDATE_PROVIDER,
    status: statusOf(result.findings),
    findings: result.findings.map(toReportFinding),
    profile: result.profile,
    dialect: result.dialect,
    lines: result.lines,
  };
}

/** A `validate` run the validator itself failed on (status error: a fault of the suite, not of the stream). */
export function harnessErrorRun(source: string, error: unknown): ReportRun {
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    scenario: source,
    provider: VALIDATE_PROVIDER,
    status: 'error',
    findings: [],
    error: `internal error in the harness (not a verdict on the stream): ${what}`,
  };
}
