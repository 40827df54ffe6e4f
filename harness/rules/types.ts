// Shapes shared by the rule catalog, the checks and the reporters (docs/architecture.md, "Contract: findings").

export type Severity = 'MUST' | 'SHOULD' | 'INFO';

/** The set of rules a stream is judged by (R1 words): `spec` (default) or `yume-app` (spec plus the app's hazards). */
export type Profile = 'spec' | 'yume-app';
export const PROFILES: readonly Profile[] = ['spec', 'yume-app'];

/** `stream` rules are judged by validateStream() on one stdout; `run` rules by the runner (process, mock, goldens). */
export type RuleLevel = 'stream' | 'run';

export interface RuleDefinition {
  /** Stable, dotted, kebab-case id, e.g. `framing.single-line-json`. Never renamed once released. */
  id: string;
  severity: Severity;
  /** Profiles the rule belongs to. */
  profiles: readonly Profile[];
  /**
   * Where it comes from: sections of docs/protocol.md or https URLs, separated by ", ", e.g.
   * `docs/protocol.md#r3-tool-calls` (harness/rules/sources.ts resolves them).
   */
  source: string;
  /** One line: what a conforming shim does. */
  title: string;
  /** How to fix a failure, addressed to a shim author. */
  fix: string;
  level: RuleLevel;
}

export interface Finding {
  rule: string;
  severity: Severity;
  message: string;
  /** 1-based stdout line. */
  line?: number;
  /** The offending bytes, printable (invalid bytes as \xNN). */
  excerpt?: string;
  fix?: string;
}

const RULE_ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$/;
const BOTH: readonly Profile[] = PROFILES;

/** Input form for rule lists: `profiles` defaults to both profiles. */
export type RuleInput = Omit<RuleDefinition, 'profiles' | 'level'> & { profiles?: readonly Profile[] };

/**
 * Declares a group of rules of one level. Checks the id format here so a typo fails at import time, in every
 * test, rather than silently creating a second rule.
 */
export function defineRules(level: RuleLevel, rules: readonly RuleInput[]): readonly RuleDefinition[] {
  return rules.map((rule) => {
    if (!RULE_ID.test(rule.id)) throw new Error(`rule id "${rule.id}" is not dotted kebab-case`);
    if (!rule.title || !rule.fix || !rule.source) throw new Error(`rule ${rule.id} needs a title, a fix and a source`);
    return Object.freeze({ ...rule, profiles: rule.profiles ?? BOTH, level });
  });
}
