// scripts/compare-verdicts.mjs: equal verdicts across report formats pass; a changed status, rule or severity
// (or a run missing on one side) is printed per run and exits 1.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runNodeScript } from './helpers/run-node-script.js';

const script = path.join(repoRoot, 'scripts', 'compare-verdicts.mjs');
const run = (extra: Record<string, unknown> = {}) => ({
  scenario: 'plain-text',
  provider: 'openai-chat',
  invocation: 'spec',
  profile: 'spec',
  dialect: 'flat',
  status: 'passed',
  findings: [{ rule: 'process.exit-after-result', severity: 'SHOULD', message: 'slow' }],
  ...extra,
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'yc-compare-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function compare(before: unknown[], after: unknown[]) {
  writeFileSync(path.join(dir, 'before.json'), JSON.stringify({ runs: before }));
  writeFileSync(path.join(dir, 'after.json'), JSON.stringify({ runs: after }));
  return runNodeScript(script, [path.join(dir, 'before.json'), path.join(dir, 'after.json')]);
}

describe('compare-verdicts', () => {
  it('passes equal verdicts whatever the messages and the not-verified format', () => {
    const before = run({ status: 'not-verified', notVerified: 'needs persistent mode' });
    const after = run({
      status: 'not-verified',
      notVerified: [{ scope: 'run', cause: 'capability', reason: 'needs persistent mode' }],
      findings: [{ rule: 'process.exit-after-result', severity: 'SHOULD', message: 'slow, said otherwise' }],
    });
    const result = compare([before], [after]);
    expect(result.status, result.stdout).toBe(0);
    expect(result.stdout).toContain('same verdicts: 1 runs');
  });

  it('prints each run whose status, rules or severities changed, and exits 1', () => {
    const result = compare(
      [run(), run({ provider: 'anthropic' }), run({ provider: 'gemini' })],
      [
        run({ status: 'failed', findings: [{ rule: 'process.exit-after-result', severity: 'MUST', message: 'x' }] }),
        run({ provider: 'anthropic' }),
        run({ provider: 'ollama' }),
      ],
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('plain-text · openai-chat · spec · spec · flat · \n  status passed → failed');
    expect(result.stdout).toContain('finding process.exit-after-result MUST: 0 → 1');
    expect(result.stdout).toContain('finding process.exit-after-result SHOULD: 1 → 0');
    expect(result.stdout).toMatch(/gemini .*\n {2}only in .*before\.json \(passed\)/);
    expect(result.stdout).toMatch(/ollama .*\n {2}only in .*after\.json \(passed\)/);
    expect(result.stdout).not.toContain('anthropic');
    expect(result.stdout).toContain('3 of 4 runs differ');
  });

  it('refuses what is not a report', () => {
    writeFileSync(path.join(dir, 'x.json'), '{"summary":{}}');
    const result = runNodeScript(script, [path.join(dir, 'x.json'), path.join(dir, 'x.json')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/x\.json: no "runs" list/);
  });
});
