// The order a run's findings are reported in: causes first. When a shim started its official CLI wrongly, or
// ran the CLI's tools again, the golden, workspace and session findings that follow are consequences; the
// reader must see the cause on the first line (a refusal's stderr, the exit code, the double execution).
import { DEFAULT_MAX_FINDINGS_PER_RULE } from '../validate/findings.js';
import type { Finding } from '../rules/types.js';

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

/**
 * At most `limit` findings per rule, the rest counted in one more finding of that rule (same
 * severity, so the verdict is the same): a shim printing a million mismatching lines gets a readable report
 * of bounded size. The stream validator caps its own findings the same way.
 */
export function capPerRule(findings: readonly Finding[], limit = DEFAULT_MAX_FINDINGS_PER_RULE): Finding[] {
  const counts = new Map<string, number>();
  const kept: Finding[] = [];
  const firstOver = new Map<string, Finding>();
  for (const finding of findings) {
    const key = `${finding.rule}\n${finding.severity}`;
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    if (count <= limit) kept.push(finding);
    else if (count === limit + 1) {
      const summary: Finding = { rule: finding.rule, severity: finding.severity, message: '' };
      if (finding.fix !== undefined) summary.fix = finding.fix;
      firstOver.set(key, summary);
      kept.push(summary);
    }
  }
  for (const [key, summary] of firstOver)
    summary.message = `${counts.get(key)! - limit} more findings of this rule not listed (${counts.get(key)} in total)`;
  return kept;
}
