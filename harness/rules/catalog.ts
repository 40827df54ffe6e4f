// The rule catalog: every rule the suite reports, stream-level and run-level, in one list with unique ids.
// Each group lives next to the checks that report it; add a group by listing it in groups() below.
import { FAKE_CLI_RULES } from '../official-cli/checks.js';
import { REQUEST_RULES } from '../mock/request-rules.js';
import { RUNNER_RULES } from '../runner/rules.js';
import { RUN_RULES } from './run-rules.js';
import { STREAM_RULES } from './stream-rules.js';
import { defineRules, type Profile, type RuleDefinition } from './types.js';

export type { Finding, Profile, RuleDefinition, RuleLevel, Severity } from './types.js';
export { PROFILES, defineRules } from './types.js';

// Built on first use, not at import: harness/runner/rules.ts imports this module too, and an eager build could
// read its list before that module has finished evaluating (an import cycle).
let catalog: ReadonlyMap<string, RuleDefinition> | undefined;

function groups(): readonly (readonly RuleDefinition[])[] {
  return [STREAM_RULES, RUN_RULES, defineRules('run', REQUEST_RULES), RUNNER_RULES, FAKE_CLI_RULES];
}

function buildCatalog(): ReadonlyMap<string, RuleDefinition> {
  const byId = new Map<string, RuleDefinition>();
  for (const group of groups()) {
    for (const rule of group) {
      if (byId.has(rule.id)) throw new Error(`rule id ${rule.id} is defined twice in the catalog`);
      byId.set(rule.id, rule);
    }
  }
  return byId;
}

function theCatalog(): ReadonlyMap<string, RuleDefinition> {
  catalog ??= buildCatalog();
  return catalog;
}

/** Every rule, stream rules first, in catalog order. */
export function allRules(): RuleDefinition[] {
  return [...theCatalog().values()];
}

/** The rule with this id; throws for an unknown id so a typo in a check fails loudly. */
export function ruleById(id: string): RuleDefinition {
  const rule = theCatalog().get(id);
  if (!rule) throw new Error(`unknown rule id ${id}: add it to the catalog (harness/rules/)`);
  return rule;
}

export function hasRule(id: string): boolean {
  return theCatalog().has(id);
}

/** Rules that apply under a profile. */
export function rulesForProfile(profile: Profile): RuleDefinition[] {
  return allRules().filter((rule) => rule.profiles.includes(profile));
}
