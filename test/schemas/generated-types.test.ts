// generated/ must always be what `npm run gen` makes from schemas/ (the schemas are the one source of truth).
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';

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
      execFileSync(process.execPath, [path.join(dir, 'scripts', 'gen-types.mjs')], { timeout: 60_000 });
      expect(readFileSync(path.join(dir, 'generated', 'protocol.ts'), 'utf8')).toContain('brand_new_field?: string;');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
