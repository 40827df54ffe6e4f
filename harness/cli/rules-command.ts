// `yume-conformance rules`: lists the rule catalog (human table, --json, or --markdown as in the README).
import { type Command, Option } from 'commander';
import { allRules } from '../rules/catalog.js';
import { renderRulesMarkdown } from '../rules/markdown.js';
import type { Profile, RuleDefinition, RuleLevel } from '../rules/types.js';

export interface RulesCommandOptions {
  json?: boolean;
  markdown?: boolean;
  profile?: Profile;
  level?: RuleLevel;
  fix?: boolean;
}

export function selectRules(options: RulesCommandOptions): RuleDefinition[] {
  return allRules().filter(
    (r) => (!options.profile || r.profiles.includes(options.profile)) && (!options.level || r.level === options.level),
  );
}

/** Aligned plain-text listing: id, severity, profiles, source, title (and the fix with --fix). */
export function renderRulesText(rules: readonly RuleDefinition[], withFix = false): string {
  const idWidth = Math.max(...rules.map((r) => r.id.length), 4);
  const lines = [`${'RULE'.padEnd(idWidth)}  SEVERITY  LEVEL   PROFILES       SOURCE / TITLE`];
  for (const r of rules) {
    const profiles = r.profiles.length === 2 ? 'all' : r.profiles.join(',');
    lines.push(
      `${r.id.padEnd(idWidth)}  ${r.severity.padEnd(8)}  ${r.level.padEnd(6)}  ${profiles.padEnd(13)}  [${r.source}] ${r.title}`,
    );
    if (withFix) lines.push(`${''.padEnd(idWidth)}  fix: ${r.fix}`);
  }
  lines.push('', `${rules.length} rules`);
  return `${lines.join('\n')}\n`;
}

export function registerRulesCommand(program: Command): void {
  program
    .command('rules')
    .description('list the rule catalog')
    .option('--json', 'print the catalog as JSON')
    .option('--markdown', "print the catalog as the README's Markdown table")
    .option('--fix', 'also print how to fix each rule (text output)')
    .addOption(new Option('--profile <profile>', 'only rules of this profile').choices(['spec', 'yume-app']))
    .addOption(
      new Option('--level <level>', 'only stream rules (validate) or run rules (run)').choices(['stream', 'run']),
    )
    .action((options: RulesCommandOptions) => {
      const rules = selectRules(options);
      if (options.json) process.stdout.write(`${JSON.stringify(rules, null, 2)}\n`);
      else if (options.markdown) process.stdout.write(`${renderRulesMarkdown(rules)}\n`);
      else process.stdout.write(renderRulesText(rules, options.fix));
    });
}
