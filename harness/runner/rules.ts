// Run-level rules the runner reports that the shared catalog (harness/rules/run-rules.ts) does not hold yet,
// in the catalog's shape. Every other run finding uses the catalog's ids (golden.*, process.*, interrupt.*, ...).
// The catalog should aggregate RUNNER_RULES (harness/rules/catalog.ts GROUPS); until it does, runFinding()
// looks them up here.
import { hasRule, ruleById } from '../rules/catalog.js';
import { defineRules, type Finding, type RuleDefinition, type Severity } from '../rules/types.js';

export const RUNNER_RULES = defineRules('run', [
  {
    id: 'process.output-flood',
    severity: 'MUST',
    source: 'R9, issue 4 "Must show"',
    title: 'Stdout stays within the capture limit (64 MB)',
    fix: 'Cap or summarise huge output; never print in a loop without a bound.',
  },
  {
    id: 'process.no-output',
    severity: 'MUST',
    source: 'R2, R5',
    title: 'The shim prints something before it exits',
    fix: 'Print `system` init first and an error result on any failure (even an argument error) instead of exiting silently.',
  },
  {
    id: 'process.stdout-held-open',
    severity: 'MUST',
    source: 'R6',
    title: 'No process the shim started keeps stdout or stderr open after it exits',
    fix: 'Give tools their own stdio pipes (not the inherited ones) and end their process trees before exiting.',
  },
  {
    id: 'golden.turns',
    severity: 'MUST',
    source: 'R10, R2',
    title: "The run has the golden's number of turns, each ending in a result",
    fix: 'End every turn with exactly one `result`; do not end a turn early or merge turns.',
  },
  {
    id: 'interrupt.acknowledged',
    severity: 'MUST',
    source: 'R6',
    title: 'An interrupted turn prints `interrupt` and ends with an error result',
    fix: 'On SIGINT (spawn-per-turn) or an interrupt frame (persistent), print `{"type":"interrupt"}`, then a result with `is_error: true`.',
  },
]);

const LOCAL = new Map(RUNNER_RULES.map((rule) => [rule.id, rule]));

function rule(id: string): RuleDefinition {
  const local = LOCAL.get(id);
  if (local) return local;
  if (hasRule(id)) return ruleById(id);
  throw new Error(`unknown run rule ${id}: add it to RUNNER_RULES or the catalog`);
}

/** The rule's severity (catalog or RUNNER_RULES). */
export function severityOf(id: string): Severity {
  return rule(id).severity;
}

/** A finding of a run rule, with the catalog's severity and fix. Throws on an unknown id (a typo in the harness). */
export function runFinding(
  ruleId: string,
  message: string,
  extra: { line?: number; excerpt?: string; severity?: Severity } = {},
): Finding {
  const definition = rule(ruleId);
  const finding: Finding = {
    rule: ruleId,
    severity: extra.severity ?? definition.severity,
    message,
    fix: definition.fix,
  };
  if (extra.line !== undefined) finding.line = extra.line;
  if (extra.excerpt !== undefined) finding.excerpt = extra.excerpt;
  return finding;
}
