// The catalog tells the truth: every rule it lists is reported by code in harness/, and proven both ways by a
// test (a failing case and a conforming one); no code reports a rule the catalog lacks. A rule that nothing
// can report is worse than none: a shim author believes it was checked.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { allRules } from '../../harness/rules/catalog.js';
import { LIST_PROOFS, RULE_PROOFS } from './helpers/rule-proofs.js';
import { STREAM_CASES } from './helpers/stream-cases.js';

const root = path.join(import.meta.dirname, '..', '..');
const RULES = allRules();
const IDS = new Set(RULES.map((rule) => rule.id));
/** The first segment of every catalog id (`framing`, `tool`, `requests`, ...): a literal under one is a rule id. */
const FAMILIES = new Set(RULES.map((rule) => rule.id.split('.')[0]!));
const ID_SHAPE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$/;
/** Literals shaped like a rule id under a rule family that are something else, with what they are. */
const NOT_RULES: Record<string, string> = {
  'turn.started': 'a Codex JSONL event type',
  'turn.completed': 'a Codex JSONL event type',
  'turn.failed': 'a Codex JSONL event type',
  'session.info': 'a Copilot CLI JSONL event type',
  'session.error': 'a Copilot CLI JSONL event type',
};
const FILE_NAME = /\.(json|jsonl|js|mjs|cjs|ts|md|txt|exe|cmd|toml)$/;
/** Rule data: the lists the catalog is built from, which name every id without reporting it. */
const isRuleList = (file: string) => /^harness\/rules\/[a-z-]+-rules\.ts$/.test(file);

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const relative = `${dir}/${name}`;
    if (statSync(path.join(root, relative)).isDirectory()) return sourceFiles(relative);
    return relative.endsWith('.ts') ? [relative] : [];
  });
}

/** Every string literal of a TypeScript file (comments are not literals), with its line. */
function stringLiterals(file: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { text: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
      found.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Rule-id literals in harness code outside the rule lists: id → where it appears. */
const reported = new Map<string, string[]>();
for (const file of sourceFiles('harness').filter((candidate) => !isRuleList(candidate))) {
  for (const { text, line } of stringLiterals(file)) {
    if (!ID_SHAPE.test(text) || FILE_NAME.test(text) || !FAMILIES.has(text.split('.')[0]!) || text in NOT_RULES)
      continue;
    reported.set(text, [...(reported.get(text) ?? []), `${file}:${line}`]);
  }
}

describe('the rule catalog tells the truth', () => {
  it('finds the rule ids the harness reports (the scan itself works)', () => {
    expect(reported.size).toBeGreaterThan(50);
    expect(reported.get('framing.utf8')?.some((where) => where.startsWith('harness/validate/'))).toBe(true);
    expect(reported.get('golden.text')?.some((where) => where.startsWith('harness/runner/'))).toBe(true);
  });

  it('every catalog rule is reported by some code in harness/', () => {
    const silent = RULES.filter((rule) => !reported.has(rule.id)).map(
      (rule) =>
        `${rule.id}: listed in the catalog, but no code in harness/ reports it (implement its check or remove it)`,
    );
    expect(silent).toEqual([]);
  });

  it('no code reports a rule the catalog lacks', () => {
    const unknown = [...reported]
      .filter(([id]) => !IDS.has(id))
      .map(([id, where]) => `${id} (${where.join(', ')}): add it to the catalog (harness/rules/*-rules.ts)`);
    expect(unknown).toEqual([]);
  });

  it('every stream rule has a broken and a conforming stream in helpers/stream-cases.ts', () => {
    const missing = RULES.filter((rule) => rule.level === 'stream')
      .filter((rule) => !STREAM_CASES.some((proof) => proof.rule === rule.id))
      .map((rule) => `${rule.id}: add a case to test/rules/helpers/stream-cases.ts`);
    expect(missing).toEqual([]);
  });

  it('every run rule has a proof: a failing and a conforming fixture, or a unit test that proves it both ways', () => {
    const listed = new Set(LIST_PROOFS.flatMap((list) => list.ids));
    const missing = RULES.filter((rule) => rule.level === 'run')
      .filter((rule) => !listed.has(rule.id) && !RULE_PROOFS.some((proof) => proof.rule === rule.id))
      .map(
        (rule) =>
          `${rule.id}: no proof; add a broken fixture shim (test/fixtures/shims/) and its conforming counterpart to test/rules/helpers/rule-proofs.ts`,
      );
    expect(missing).toEqual([]);
  });

  it('every proof names a catalog rule, an existing shim and scenario, or a test file that names the rule', () => {
    const problems: string[] = [];
    for (const proof of RULE_PROOFS) {
      if (!IDS.has(proof.rule)) problems.push(`${proof.rule}: a proof for a rule the catalog lacks`);
      if ('unit' in proof) {
        const file = path.join(root, proof.unit);
        if (!existsSync(file) || !readFileSync(file, 'utf8').includes(`'${proof.rule}'`))
          problems.push(`${proof.rule}: ${proof.unit} does not exist or never names the rule`);
        continue;
      }
      for (const fixture of [proof.failing, proof.conforming]) {
        if (!existsSync(path.join(root, 'test', 'fixtures', 'shims', fixture.shim)))
          problems.push(`${proof.rule}: no fixture test/fixtures/shims/${fixture.shim}`);
        if (!existsSync(path.join(root, 'transcripts', fixture.scenario, 'scenario.json')))
          problems.push(`${proof.rule}: no scenario transcripts/${fixture.scenario}`);
      }
      if (proof.runIn && !readFileSync(path.join(root, proof.runIn), 'utf8').includes('RULE_PROOFS'))
        problems.push(`${proof.rule}: ${proof.runIn} does not run the proofs listed for it`);
    }
    for (const list of LIST_PROOFS) {
      const text = readFileSync(path.join(root, list.unit), 'utf8');
      for (const id of list.ids)
        if (!text.includes(`'${id}'`) && !RULE_PROOFS.some((proof) => proof.rule === id))
          problems.push(`${id}: ${list.unit} never names it, and RULE_PROOFS has no proof for it`);
    }
    expect(problems).toEqual([]);
  });
});
