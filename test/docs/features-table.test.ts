// The features table of docs/writing-a-shim.md ("Features and the scenarios they unlock") names every feature a
// capabilities file may declare and, for each, exactly the scenarios whose `needs` ask for it, so a shim author
// need not grep the transcripts. The table is parsed from the doc's text; the facts come from the schema, the
// runner's own feature list and every transcripts/<id>/scenario.json.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_SHIM_CAPABILITIES } from '../../harness/runner/config/capabilities.js';

const root = path.join(import.meta.dirname, '..', '..');
const GUIDE = path.join(root, 'docs', 'writing-a-shim.md');
const HEADING = '### Features and the scenarios they unlock';

interface Facts {
  /** Features a capabilities file may declare (the schema's list and the runner's own). */
  features: readonly string[];
  /** Scenario id → its `needs`. */
  needs: ReadonlyMap<string, readonly string[]>;
}

interface FeaturesTable {
  rows: Map<string, string[]>;
  problems: string[];
}

/** The rows of the table under HEADING: feature → the scenario ids of its second column ("none": no scenario). */
function parseFeaturesTable(markdown: string): FeaturesTable {
  const lines = markdown.split(/\r?\n/);
  const start = lines.indexOf(HEADING);
  if (start < 0) return { rows: new Map(), problems: [`no heading "${HEADING}"`] };
  const end = lines.findIndex((line, index) => index > start && line.startsWith('#'));
  const table = lines.slice(start + 1, end < 0 ? undefined : end).filter((line) => line.startsWith('|'));
  const rows = new Map<string, string[]>();
  const problems: string[] = [];
  if (table.length < 3) return { rows, problems: [`the section "${HEADING}" has no table with rows`] };
  for (const line of table.slice(2)) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const feature = /^`([a-z][a-z0-9-]*)`$/.exec(cells[0] ?? '')?.[1];
    if (!feature) {
      problems.push(`row ${JSON.stringify(line)}: the first cell is not one \`feature\``);
      continue;
    }
    if (rows.has(feature)) problems.push(`feature "${feature}" has two rows`);
    const named = cells[1] ?? '';
    const scenarios = named === 'none' ? [] : [...named.matchAll(/`([a-z0-9-]+)`/g)].map((match) => match[1]!);
    if (named !== 'none' && scenarios.length === 0)
      problems.push(`feature "${feature}": the second cell names no \`scenario\` (write "none" when none needs it)`);
    rows.set(feature, scenarios);
  }
  return { rows, problems };
}

/** Everything the table gets wrong against the facts, one line each; [] when it is right. */
function featuresTableProblems(markdown: string, facts: Facts): string[] {
  const { rows, problems } = parseFeaturesTable(markdown);
  const needing = (feature: string) =>
    [...facts.needs].filter(([, needs]) => needs.includes(feature)).map(([id]) => id);
  const known = new Set([...facts.features, ...[...facts.needs.values()].flat()]);
  for (const feature of [...known].sort()) {
    if (!rows.has(feature)) problems.push(`feature "${feature}" has no row`);
  }
  for (const [feature, named] of rows) {
    if (!known.has(feature)) {
      problems.push(`row "${feature}" is no feature of the schema, the runner or any scenario's needs`);
      continue;
    }
    const wanted = needing(feature);
    for (const id of wanted.filter((id) => !named.includes(id)))
      problems.push(`row "${feature}" does not name ${id}, whose needs include it`);
    for (const id of named.filter((id) => !wanted.includes(id)))
      problems.push(`row "${feature}" names ${id}, whose needs do not include it`);
  }
  return problems;
}

/** The features the schema lists in the description of `features` ("... `needs`: bash, gcloud, ..., ..."). */
function schemaFeatures(): string[] {
  const schema = JSON.parse(readFileSync(path.join(root, 'schemas', 'capabilities.schema.json'), 'utf8'));
  const description: string = schema.properties.features.description;
  const listed = /`needs`:\s*(.+?),\s*\.\.\./.exec(description)?.[1];
  if (!listed) throw new Error('schemas/capabilities.schema.json: the features description no longer lists them');
  return listed.split(',').map((name) => name.trim());
}

function scenarioNeeds(): Map<string, string[]> {
  const transcripts = path.join(root, 'transcripts');
  const needs = new Map<string, string[]>();
  for (const entry of readdirSync(transcripts, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = path.join(transcripts, entry.name, 'scenario.json');
    const scenario = JSON.parse(readFileSync(file, 'utf8')) as { id: string; needs?: string[] };
    needs.set(scenario.id, scenario.needs ?? []);
  }
  return needs;
}

const guide = readFileSync(GUIDE, 'utf8');
const facts: Facts = {
  features: [...schemaFeatures(), ...REFERENCE_SHIM_CAPABILITIES.features],
  needs: scenarioNeeds(),
};
/** The guide with one line changed (the line must exist, so a test cannot pass on a typo). */
const edited = (line: string, replacement: string | undefined) => {
  const lines = guide.split('\n');
  const at = lines.findIndex((candidate) => candidate.startsWith(line));
  expect(at, `no line starts with ${line}`).toBeGreaterThan(-1);
  if (replacement === undefined) lines.splice(at, 1);
  else lines[at] = replacement;
  return lines.join('\n');
};

describe('the features table of docs/writing-a-shim.md', () => {
  it('names every feature and exactly the scenarios that need it', () => {
    expect(facts.needs.size).toBeGreaterThan(20);
    expect(schemaFeatures()).toContain('history-file');
    expect(featuresTableProblems(guide, facts)).toEqual([]);
    const { rows } = parseFeaturesTable(guide);
    expect(rows.get('resume')).toEqual([
      'compact',
      'compact-interrupted',
      'fault-context-overflow',
      'kill-and-resume',
      'kill-and-resume-bash',
      'resume',
    ]);
    expect(rows.get('cli')).toEqual([]);
  });

  it('fails when a feature has no row', () => {
    expect(featuresTableProblems(edited('| `gcloud` |', undefined), facts)).toEqual(['feature "gcloud" has no row']);
  });

  it('fails when the schema or a scenario gains a feature the table lacks', () => {
    expect(featuresTableProblems(guide, { ...facts, features: [...facts.features, 'web-fetch'] })).toEqual([
      'feature "web-fetch" has no row',
    ]);
    const needs = new Map(facts.needs).set('new-scenario', ['bash', 'mcp']);
    expect(featuresTableProblems(guide, { ...facts, needs })).toEqual([
      'feature "mcp" has no row',
      'row "bash" does not name new-scenario, whose needs include it',
    ]);
  });

  it('fails when a row leaves out a scenario, or names one that does not need the feature', () => {
    expect(featuresTableProblems(edited('| `resume` |', '| `resume` | `resume` | |'), facts)).toEqual([
      'row "resume" does not name compact, whose needs include it',
      'row "resume" does not name compact-interrupted, whose needs include it',
      'row "resume" does not name fault-context-overflow, whose needs include it',
      'row "resume" does not name kill-and-resume, whose needs include it',
      'row "resume" does not name kill-and-resume-bash, whose needs include it',
    ]);
    expect(featuresTableProblems(edited('| `cli` |', '| `cli` | `cli-missing` | |'), facts)).toEqual([
      'row "cli" names cli-missing, whose needs do not include it',
    ]);
  });

  it('fails on a row of no known feature, a doubled row, an empty cell and a missing section', () => {
    expect(featuresTableProblems(edited('| `cli` |', '| `mcp` | none | |'), facts)).toEqual([
      'feature "cli" has no row',
      'row "mcp" is no feature of the schema, the runner or any scenario\'s needs',
    ]);
    expect(featuresTableProblems(edited('| `cli` |', '| `signals` | none | |'), facts)).toEqual([
      'feature "signals" has two rows',
      'feature "cli" has no row',
    ]);
    expect(featuresTableProblems(edited('| `cli` |', '| `cli` | | |'), facts)).toEqual([
      'feature "cli": the second cell names no `scenario` (write "none" when none needs it)',
    ]);
    const withoutSection = featuresTableProblems(guide.replace(HEADING, '### Features'), facts);
    expect(withoutSection[0]).toBe(`no heading "${HEADING}"`);
    expect(withoutSection).toContain('feature "resume" has no row');
  });
});
