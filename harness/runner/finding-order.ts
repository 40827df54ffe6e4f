// The order a run's findings are reported in: causes first. When a shim started its official CLI wrongly, or
// ran the CLI's tools again, the golden, workspace and session findings that follow are consequences; the
// reader must see the cause on the first line (a refusal's stderr, the exit code, the double execution).
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
