// The rule catalog: every rule the suite reports, stream-level and run-level, in one list with unique ids.
// Every list is data in this folder and imports nothing but ./types.js (and, for STREAM_RULES, its sibling
// stream-*-rules.ts lists), so the catalog is a leaf that checks
// anywhere in harness/ can import. Add a list by naming it in GROUPS below.
import { COMPACTION_RUN_RULES } from './compaction-run-rules.js';
import { FAKE_CLI_RULES } from './fake-cli-rules.js';
import { REQUEST_RULES } from './request-rules.js';
import { RUN_RULES } from './run-rules.js';
import { STREAM_RULES } from './stream-rules.js';
import type { Profile, RuleDefinition } from './types.js';

export type { Profile, RuleDefinition } from './types.js';
export { defineRules } from './types.js';

const GROUPS: readonly (readonly RuleDefinition[])[] = [
  STREAM_RULES,
  RUN_RULES,
  COMPACTION_RUN_RULES,
  REQUEST_RULES,
  FAKE_CLI_RULES,
];

function buildCatalog(): ReadonlyMap<string, RuleDefinition> {
  const byId = new Map<string, RuleDefinition>();
  for (const group of GROUPS) {
    for (const rule of group) {
      if (byId.has(rule.id)) throw new Error(`rule id ${rule.id} is defined twice in the catalog`);
      byId.set(rule.id, rule);
    }
  }
  return byId;
}

const CATALOG = buildCatalog();

/** Every rule, stream rules first, in catalog order. */
export function allRules(): RuleDefinition[] {
  return [...CATALOG.values()];
}

/** The rule with this id; throws for an unknown id so a typo in a check fails loudly. */
export function ruleById(id: string): RuleDefinition {
  const rule = CATALOG.get(id);
  if (!rule) throw new Error(`unknown rule id ${id}: add it to the catalog (harness/rules/)`);
  return rule;
}

export function hasRule(id: string): boolean {
  return CATALOG.has(id);
}

/** Rules that apply under a profile. */
export function rulesForProfile(profile: Profile): RuleDefinition[] {
  return allRules().filter((rule) => rule.profiles.includes(profile));
}
