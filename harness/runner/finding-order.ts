// The order a run's findings are reported in: causes first. When a shim started its official CLI wrongly, or
// ran the CLI's tools again, the golden, workspace and session findings that follow are consequences; the
// reader must see the cause on the first line (a refusal's stderr, the exit code, the double execution).

import type { Finding } from '../rules/types.js';
import { DEFAULT_MAX_FINDINGS_PER_RULE } from '../validate/findings.js';

/** Rules that name a cause, in the order they are reported; every other finding keeps its place after them. */
const CAUSES = [
  'process.started',
  'cli.failure-not-success',
  'cli.refused-to-start',
  'cli.prompt-not-option',
  'cli.no-rerun-after-tool',
  'cli.one-start-per-turn',
  'tool.not-run-twice',
  'cli.tool-outcome-matches',
  'cli.stdin-closed',
  'cli.resume-continues-session',
  'cli.interrupt-reaches-cli',
];

/** Causes first (in CAUSES order), then the rest as they came; a stable sort. */
export function causesFirst(findings: readonly Finding[]): Finding[] {
  const rank = (finding: Finding) => {
    const index = CAUSES.indexOf(finding.rule);
    return index < 0 ? CAUSES.length : index;
  };
  return findings
    .map((finding, position) => ({ finding, position }))
    .sort((a, b) => rank(a.finding) - rank(b.finding) || a.position - b.position)
    .map((entry) => entry.finding);
}

const SUMMARY = /^(\d+) more findings of this rule not listed \((\d+) in total\)$/;

/** How many findings a finding stands for: one, or the count a summary (the stream validator's) gives. */
function weight(finding: Finding): number {
  const match = SUMMARY.exec(finding.message);
  return match ? Number(match[1]) : 1;
}

/**
 * At most `limit` findings per rule, the rest counted in one more finding of that rule (same severity, so the
 * verdict is the same): a shim printing a million mismatching lines gets a readable report of bounded size.
 * The stream validator caps its own findings the same way; its summaries are counted, not listed again.
 */
export function capPerRule(findings: readonly Finding[], limit = DEFAULT_MAX_FINDINGS_PER_RULE): Finding[] {
  const listed = new Map<string, number>();
  const omitted = new Map<string, { summary: Finding; count: number }>();
  const kept: Finding[] = [];
  for (const finding of findings) {
    const key = `${finding.rule}\n${finding.severity}`;
    const isSummary = SUMMARY.test(finding.message);
    const shown = listed.get(key) ?? 0;
    if (!isSummary && shown < limit) {
      listed.set(key, shown + 1);
      kept.push(finding);
      continue;
    }
    let entry = omitted.get(key);
    if (!entry) {
      const summary: Finding = { rule: finding.rule, severity: finding.severity, message: '' };
      if (finding.fix !== undefined) summary.fix = finding.fix;
      entry = { summary, count: 0 };
      omitted.set(key, entry);
      kept.push(summary);
    }
    entry.count += weight(finding);
  }
  for (const [key, { summary, count }] of omitted)
    summary.message = `${count} more findings of this rule not listed (${count + (listed.get(key) ?? 0)} in total)`;
  return kept;
}
