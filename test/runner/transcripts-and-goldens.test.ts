// The committed transcripts: every golden passes `validate` (R10), the R10 field table covers every field
// of every stdout message schema, and the runner's scenario folders are complete.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAllScenarios } from '../../harness/mock/scenario/scenario-loader.js';
import { schemaFileNames, schemaOf } from '../../harness/protocol/schemas.js';
import { validateStream } from '../../harness/validate/validate-stream.js';
import { transcripts } from './helpers/run-fixture.js';

const scenarios = loadAllScenarios(transcripts);

describe('goldens', () => {
  it('every scenario has its goldens: one per spawned process (D3)', () => {
    for (const scenario of scenarios) {
      const processes = scenario.mode === 'persistent' ? 1 : scenario.turns.length;
      const expected = Array.from({ length: processes }, (_, index) =>
        index === 0 ? 'golden.jsonl' : `golden.${index + 1}.jsonl`,
      );
      const present = readdirSync(scenario.dir)
        .filter((name) => /^golden(\.\d+)?\.jsonl$/.test(name))
        .sort();
      expect(present, scenario.id).toEqual(expected.sort());
    }
  });

  it.each(scenarios.map((scenario) => [scenario.id, scenario] as const))(
    '%s: its goldens pass validate',
    (_, scenario) => {
      for (const name of readdirSync(scenario.dir).filter((file) => /^golden(\.\d+)?\.jsonl$/.test(file))) {
        const result = validateStream(readFileSync(path.join(scenario.dir, name)), {
          mode: scenario.mode === 'persistent' ? 'persistent' : 'spawn-per-turn',
        });
        // A killed turn's golden holds only what was printed before the kill: no ending is required of it.
        const turn = scenario.turns[Number(/\.(\d+)\./.exec(name)?.[1] ?? 1) - 1];
        const problems = result.findings.filter(
          (finding) =>
            finding.severity !== 'INFO' &&
            !(turn?.kill && ['turn.result-last', 'tool.use-answered'].includes(finding.rule)),
        );
        expect(problems, `${scenario.id}/${name}: ${JSON.stringify(problems, null, 1)}`).toEqual([]);
      }
    },
  );
});

describe('transcripts/FIELDS.md (R10 table)', () => {
  const table = readFileSync(path.join(transcripts, 'FIELDS.md'), 'utf8');
  const rows = table.split('\n').filter((line) => /^\| [^-]/.test(line) && !line.startsWith('| message'));
  const treatments = rows.map((row) => row.split('|')[3]?.trim());
  const listed = new Set(
    rows.flatMap((row) => [...(row.split('|')[2] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]!)),
  );

  it('says compared, normalised or ignored on every row', () => {
    expect(rows.length).toBeGreaterThan(30);
    for (const treatment of treatments) expect(['compared', 'normalised', 'ignored']).toContain(treatment);
  });

  it('lists every field of every stdout message schema', () => {
    const stdoutSchemas = schemaFileNames().filter((name) =>
      /^(system-|text|thinking|tool-use|tool-result|usage-|result|message-stop|error|interrupt|stream-event|assistant|user\.)/.test(
        name,
      ),
    );
    const missing: string[] = [];
    const collect = (schema: Record<string, unknown>, prefix: string) => {
      for (const [field, value] of Object.entries(
        (schema.properties ?? {}) as Record<string, Record<string, unknown>>,
      )) {
        const name = `${prefix}${field}`;
        const covered =
          listed.has(name) ||
          listed.has(field) ||
          [...listed].some((entry) => entry.startsWith(`${name}.`) || entry.startsWith(`${name} `));
        if (!covered && field !== 'type' && field !== 'role') missing.push(`${schema.title as string}.${name}`);
        if (value && value.type === 'object' && value.properties && field === 'message') collect(value, `${name}.`);
      }
    };
    for (const name of stdoutSchemas) collect(schemaOf(name) as Record<string, unknown>, '');
    expect(missing).toEqual([]);
  });
});

describe("the runner's scenarios", () => {
  it.each([
    'permission-deny',
    'resume',
    'interrupt-during-bash',
    'large-tool-output',
    'unicode-tool-output',
    'persistent-mode',
    'persistent-interactive',
    'persistent-interrupt',
  ])('%s exists, loads and has fixtures', (id) => {
    const scenario = scenarios.find((candidate) => candidate.id === id);
    expect(scenario?.workspaceDir && existsSync(scenario.workspaceDir)).toBe(true);
  });

  it("unicode-tool-output's fixture really holds invalid UTF-8 and U+2028", () => {
    const bytes = readFileSync(path.join(transcripts, 'unicode-tool-output', 'workspace', 'unicode.txt'));
    expect(bytes.includes(Buffer.from([0xff, 0xfe]))).toBe(true);
    expect(bytes.toString('utf8')).toContain('\u2028');
  });
});
