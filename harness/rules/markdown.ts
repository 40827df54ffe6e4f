// The rule catalog as a Markdown table, for the README section between <!-- rules:start --> and <!-- rules:end -->.
import { PROTOCOL_DOC, referenceLabel, sourceReferences } from './sources.js';
import type { RuleDefinition } from './types.js';

export const RULES_START = '<!-- rules:start -->';
export const RULES_END = '<!-- rules:end -->';

const cell = (text: string) => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The source cell: each reference as a link labelled `R3`, a section name or a host; anything else as text. */
function sourceCell(source: string, sections: ReadonlyMap<string, string>): string {
  return sourceReferences(source)
    .map((reference) =>
      reference.startsWith(`${PROTOCOL_DOC}#`) || reference.startsWith('https://')
        ? `[${cell(referenceLabel(reference, sections))}](${reference})`
        : cell(reference),
    )
    .join(', ');
}

function profilesText(rule: RuleDefinition): string {
  return rule.profiles.length === 2 ? 'all' : rule.profiles.join(', ');
}

/**
 * Markdown table of rules: stream rules (judged by `validate`) first, then run rules (judged by `run`).
 * `sections` (documentSections of docs/protocol.md) gives the links their labels.
 */
export function renderRulesMarkdown(
  rules: readonly RuleDefinition[],
  sections: ReadonlyMap<string, string> = new Map(),
): string {
  const header = ['| Rule | Severity | Profiles | Source | What a conforming shim does |', '|---|---|---|---|---|'];
  const section = (title: string, list: readonly RuleDefinition[]) => [
    title,
    '',
    ...header,
    ...list.map(
      (r) =>
        `| \`${r.id}\` | ${r.severity} | ${profilesText(r)} | ${sourceCell(r.source, sections)} | ${cell(r.title)} |`,
    ),
  ];
  return [
    `${rules.length} rules. MUST = failure, SHOULD = warning, INFO = information. Generated from the catalog`,
    '(`harness/rules/`) by `node scripts/rules-table.mjs`; `yume-conformance rules` lists them with their fixes.',
    '',
    ...section(
      "**Stream rules** (`validate`, and every run's stdout):",
      rules.filter((r) => r.level === 'stream'),
    ),
    '',
    ...section(
      '**Run rules** (`run`: process, provider requests, goldens, workspace):',
      rules.filter((r) => r.level === 'run'),
    ),
  ].join('\n');
}

/** The README with its rules section replaced by `table`. Throws when the markers are missing. */
export function replaceRulesSection(readme: string, table: string): string {
  const start = readme.indexOf(RULES_START);
  const end = readme.indexOf(RULES_END);
  if (start === -1 || end === -1 || end < start)
    throw new Error(`README has no ${RULES_START} ... ${RULES_END} section`);
  return `${readme.slice(0, start + RULES_START.length)}\n${table}\n${readme.slice(end)}`;
}
