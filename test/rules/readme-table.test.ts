// The README's rule table is generated from the catalog and must be current.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRules } from '../../harness/rules/catalog.js';
import { RULES_END, RULES_START, renderRulesMarkdown, replaceRulesSection } from '../../harness/rules/markdown.js';
import { documentSections } from '../../harness/rules/sources.js';

const root = path.join(import.meta.dirname, '..', '..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const sections = documentSections(readFileSync(path.join(root, 'docs', 'protocol.md'), 'utf8'));

describe('README rule table', () => {
  it('is what the catalog renders (run `node scripts/rules-table.mjs` after changing rules)', () => {
    expect(replaceRulesSection(readme, renderRulesMarkdown(allRules(), sections))).toBe(readme);
  });

  it('lists every rule id once', () => {
    const section = readme.slice(readme.indexOf(RULES_START), readme.indexOf(RULES_END));
    for (const rule of allRules()) expect(section.split(`| \`${rule.id}\` |`).length - 1, rule.id).toBe(1);
  });

  it('the comparison notices a stale table and replacing repairs it', () => {
    const stale = replaceRulesSection(readme, renderRulesMarkdown(allRules().slice(1), sections));
    expect(stale).not.toBe(readme);
    expect(replaceRulesSection(stale, renderRulesMarkdown(allRules(), sections))).toBe(readme);
    expect(() => replaceRulesSection('# no markers', 'x')).toThrow(/rules:start/);
  });

  it('escapes pipes in cells so a title cannot break the table', () => {
    const table = renderRulesMarkdown([
      { id: 'x.y', severity: 'MUST', profiles: ['spec'], source: 'a|b', title: 'one | two', fix: 'f', level: 'stream' },
    ]);
    expect(table).toContain('| `x.y` | MUST | spec | a\\|b | one \\| two |');
  });

  it('links each source to its section of docs/protocol.md, labelled R3 or by the section name', () => {
    const table = renderRulesMarkdown(
      [
        {
          id: 'x.y',
          severity: 'MUST',
          profiles: ['spec'],
          source: 'docs/protocol.md#r3-tool-calls, docs/protocol.md#stdin-frames, https://example.org/spec',
          title: 'title',
          fix: 'f',
          level: 'stream',
        },
      ],
      sections,
    );
    expect(table).toContain(
      '| [R3](docs/protocol.md#r3-tool-calls), [Stdin frames](docs/protocol.md#stdin-frames), [example.org](https://example.org/spec) |',
    );
  });
});
