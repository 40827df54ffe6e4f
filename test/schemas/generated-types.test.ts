// generated/ must always be what `npm run gen` makes from schemas/ (the schemas are the one source of truth).

import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '..', '..');

function check(dir: string) {
  return spawnSync(process.execPath, [path.join(dir, 'scripts', 'gen-types.mjs'), '--check'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('generated/protocol.ts', () => {
  it('is up to date with schemas/', () => {
    const result = check(root);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('the check fails when a schema changed without `npm run gen`, and gen repairs it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yume-gen-'));
    try {
      for (const sub of ['schemas', 'generated', 'scripts'])
        cpSync(path.join(root, sub), path.join(dir, sub), { recursive: true });
      symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'junction');
      const file = path.join(dir, 'schemas', 'text.schema.json');
      const schema = JSON.parse(readFileSync(file, 'utf8'));
      schema.properties.brand_new_field = { type: 'string' };
      writeFileSync(file, JSON.stringify(schema, null, 2));
      const stale = check(dir);
      expect(stale.status).toBe(1);
      expect(stale.stderr).toContain('generated/protocol.ts is stale');
      expect(stale.stderr).toContain('generated/validators.js is stale');
      execFileSync(process.execPath, [path.join(dir, 'scripts', 'gen-types.mjs')], { timeout: 60_000 });
      expect(readFileSync(path.join(dir, 'generated', 'protocol.ts'), 'utf8')).toContain('brand_new_field?: string;');
      expect(readFileSync(path.join(dir, 'generated', 'validators.js'), 'utf8')).toContain('brand_new_field');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('generated/validators.js', () => {
  it('judges like validators ajv compiles from schemas/ at run time', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const { protocolValidators, scenarioValidator } = await import('../../generated/validators.js');
    const runtime = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: false });
    runtime.addKeyword({ keyword: 'x-protocol-version', schemaType: 'string' });
    runtime.addKeyword({ keyword: 'x-report-version', schemaType: 'string' });
    const schemasDir = path.join(root, 'schemas');
    const files = readdirSync(schemasDir).filter(
      (name) => name.endsWith('.schema.json') && name !== 'scenario.schema.json',
    );
    for (const name of files) runtime.addSchema(JSON.parse(readFileSync(path.join(schemasDir, name), 'utf8')));
    expect(Object.keys(protocolValidators).sort()).toEqual(files.sort());
    // Each schema's own examples, and the same with a field of the wrong type.
    let compared = 0;
    for (const name of files) {
      const schema = JSON.parse(readFileSync(path.join(schemasDir, name), 'utf8'));
      const compiled = runtime.getSchema(`https://yume-conformance.dev/schemas/${name}`)!;
      for (const example of (schema.examples ?? []) as unknown[]) {
        const broken = example && typeof example === 'object' ? { ...example, type: 42 } : 42;
        for (const value of [example, broken]) {
          expect(protocolValidators[name]!(value), `${name}: ${JSON.stringify(value)}`).toBe(compiled(value));
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(20);
    const scenarioRuntime = new Ajv2020({ allErrors: true, discriminator: true, strict: true }).compile(
      JSON.parse(readFileSync(path.join(schemasDir, 'scenario.schema.json'), 'utf8')),
    );
    const scenario = JSON.parse(readFileSync(path.join(root, 'transcripts', 'single-tool', 'scenario.json'), 'utf8'));
    for (const value of [scenario, { ...scenario, turns: 'none' }, { ...scenario, unknown: true }]) {
      expect(scenarioValidator(value)).toBe(scenarioRuntime(value));
      expect(scenarioValidator.errors?.map((error) => error.instancePath)).toEqual(
        scenarioRuntime.errors?.map((error) => error.instancePath),
      );
    }
  });
});
