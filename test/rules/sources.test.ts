// Every rule's `source` is something a shim author can open: a section of docs/protocol.md or a public URL.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRules } from '../../harness/rules/catalog.js';
import { documentSections, headingAnchor, sourceReferences, unresolvedReason } from '../../harness/rules/sources.js';

const root = path.join(import.meta.dirname, '..', '..');
const protocol = readFileSync(path.join(root, 'docs', 'protocol.md'), 'utf8');
const sections = documentSections(protocol);

describe('rule sources', () => {
  it('every catalog source resolves to a section of docs/protocol.md or an https URL', () => {
    const problems = allRules().flatMap((rule) => {
      const references = sourceReferences(rule.source);
      if (references.length === 0) return [`${rule.id}: empty source`];
      return references.flatMap((reference) => {
        const reason = unresolvedReason(reference, sections);
        return reason ? [`${rule.id}: ${reason}`] : [];
      });
    });
    expect(problems, 'fix the rule sources in harness/rules/ (or add the section to docs/protocol.md)').toEqual([]);
  });

  it("every scenario's `spec` names rulings (R5) or section names of docs/protocol.md", () => {
    const headings = new Set([...sections.values()]);
    const rulings = new Set([...headings].map((heading) => /^R\d+/.exec(heading)?.[0]).filter(Boolean));
    const transcripts = path.join(root, 'transcripts');
    const problems: string[] = [];
    let checked = 0;
    for (const id of readdirSync(transcripts)) {
      let scenario: { spec?: string };
      try {
        scenario = JSON.parse(readFileSync(path.join(transcripts, id, 'scenario.json'), 'utf8'));
      } catch {
        continue; // not a scenario folder
      }
      checked += 1;
      for (const reference of (scenario.spec ?? '').split(';').map((part) => part.trim())) {
        if (!rulings.has(reference) && !headings.has(reference))
          problems.push(`transcripts/${id}/scenario.json: spec "${reference}" is neither a ruling nor a section name`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });

  it('docs/protocol.md has the rulings R1 to R22, each under a stable anchor', () => {
    const rulings = [...sections].filter(([, heading]) => /^R\d+ /.test(heading));
    expect(rulings.map(([, heading]) => heading.split(' ')[0])).toEqual(
      Array.from({ length: 22 }, (_, index) => `R${index + 1}`),
    );
    for (const [anchor, heading] of rulings) expect(anchor).toBe(headingAnchor(heading));
    expect(sections.get('r3-tool-calls')).toBe('R3 Tool calls');
  });

  it('every link inside docs/protocol.md to one of its own sections resolves', () => {
    const links = [...protocol.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(20);
    expect(links.filter((anchor) => !sections.has(anchor))).toEqual([]);
  });

  it('rejects what a reader cannot open, and anchors that do not exist', () => {
    expect(unresolvedReason('R3', sections)).toMatch(/neither docs\/protocol.md#<section> nor an https URL/);
    expect(unresolvedReason('../shared/DECISIONS.md', sections)).toMatch(/neither/);
    expect(unresolvedReason('http://example.org/x', sections)).toMatch(/neither/);
    expect(unresolvedReason('docs/protocol.md#r99-nothing', sections)).toMatch(
      /no section with the anchor #r99-nothing/,
    );
    expect(unresolvedReason('docs/protocol.md#r3-tool-calls', sections)).toBeUndefined();
    expect(unresolvedReason('https://ai.google.dev/gemini-api/docs/thought-signatures', sections)).toBeUndefined();
  });

  it('computes GitHub heading anchors', () => {
    expect(headingAnchor('R7 Invocation, providers and environment')).toBe('r7-invocation-providers-and-environment');
    expect(headingAnchor('R5 Errors and faults: required outcome')).toBe('r5-errors-and-faults-required-outcome');
    expect(headingAnchor('`yume-app` profile')).toBe('yume-app-profile');
  });
});
