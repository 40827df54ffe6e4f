// Collects findings for one stream: looks up severity and fix in the catalog, drops rules outside the profile,
// adds excerpts lazily (only for reported lines), and caps repeats of one rule so a flood stays readable.
import { ruleById } from '../rules/catalog.js';
import type { Finding, Profile } from '../rules/types.js';

export const DEFAULT_MAX_FINDINGS_PER_RULE = 50;

interface RuleState {
  rule: ReturnType<typeof ruleById>;
  active: boolean;
  count: number;
}

export class FindingCollector {
  private readonly findings: Finding[] = [];
  /** One lookup per report (a flood reports millions of times): the rule, whether it applies, its count. */
  private readonly states = new Map<string, RuleState>();

  constructor(
    private readonly profile: Profile,
    private readonly excerptForLine: (line: number) => string | undefined,
    private readonly maxPerRule = DEFAULT_MAX_FINDINGS_PER_RULE,
  ) {}

  private state(ruleId: string): RuleState {
    let state = this.states.get(ruleId);
    if (!state) {
      const rule = ruleById(ruleId);
      state = { rule, active: rule.profiles.includes(this.profile), count: 0 };
      this.states.set(ruleId, state);
    }
    return state;
  }

  /** True when the rule belongs to the profile (checks may skip work for inactive rules). */
  active(ruleId: string): boolean {
    return this.state(ruleId).active;
  }

  report(ruleId: string, line: number | undefined, message: string): void {
    const state = this.state(ruleId);
    if (!state.active) return;
    state.count += 1;
    if (state.count > this.maxPerRule) return;
    const { rule } = state;
    const finding: Finding = { rule: rule.id, severity: rule.severity, message, fix: rule.fix };
    if (line !== undefined) {
      finding.line = line;
      const excerpt = this.excerptForLine(line);
      if (excerpt !== undefined) finding.excerpt = excerpt;
    }
    this.findings.push(finding);
  }

  /** Findings sorted by line (stable), with one closing note per rule whose repeats were cut. */
  result(keep: (finding: Finding) => boolean = () => true): Finding[] {
    const kept = this.findings.filter(keep);
    for (const [ruleId, { count, rule }] of this.states) {
      if (count <= this.maxPerRule || !kept.some((f) => f.rule === ruleId)) continue;
      kept.push({
        rule: ruleId,
        severity: rule.severity,
        message: `${count - this.maxPerRule} more findings of this rule not listed (${count} in total)`,
        fix: rule.fix,
      });
    }
    return kept
      .map((finding, index) => ({ finding, index }))
      .sort(
        (a, b) =>
          (a.finding.line ?? Number.MAX_SAFE_INTEGER) - (b.finding.line ?? Number.MAX_SAFE_INTEGER) ||
          a.index - b.index,
      )
      .map(({ finding }) => finding);
  }
}
