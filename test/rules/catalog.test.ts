// The catalog as data: stable ids, complete entries, profiles, and the guard against duplicate or bad ids.
import { describe, expect, it } from 'vitest';
import { allRules, defineRules, hasRule, ruleById, rulesForProfile } from '../../harness/rules/catalog.js';
import { COMPACTION_RUN_RULES } from '../../harness/rules/compaction-run-rules.js';
import { FAKE_CLI_RULES } from '../../harness/rules/fake-cli-rules.js';
import { REQUEST_RULES } from '../../harness/rules/request-rules.js';
import { RUN_RULES } from '../../harness/rules/run-rules.js';
import { STREAM_RULES } from '../../harness/rules/stream-rules.js';

const RULES = allRules();

describe('rule catalog', () => {
  it("holds the stream rules and every feature's run rules with unique dotted kebab-case ids", () => {
    expect(RULES.length).toBe(
      STREAM_RULES.length +
        RUN_RULES.length +
        COMPACTION_RUN_RULES.length +
        REQUEST_RULES.length +
        FAKE_CLI_RULES.length,
    );
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/);
      expect(['MUST', 'SHOULD', 'INFO']).toContain(rule.severity);
      expect(rule.profiles.length).toBeGreaterThan(0);
      expect(rule.source.length).toBeGreaterThan(1);
      expect(rule.title.length).toBeGreaterThan(10);
      expect(rule.fix.length).toBeGreaterThan(10);
    }
  });

  it('names the rules the architecture and the issues refer to', () => {
    for (const id of [
      'framing.single-line-json',
      'turn.result-last',
      'tool.result-pairs-use',
      'usage.present',
      'error.no-success-after-error',
      'interrupt.error-result',
      'golden.text',
      'workspace.matches',
      'requests.tool-result-id',
      'requests.tools-declared',
      'process.exit-after-result',
      'secrets.no-credential-echo',
    ]) {
      expect(hasRule(id), id).toBe(true);
    }
  });

  it('keeps app hazards in the yume-app profile only, and yume-app a superset of spec minus spec-only duplicates', () => {
    const spec = new Set(rulesForProfile('spec').map((r) => r.id));
    const app = new Set(rulesForProfile('yume-app').map((r) => r.id));
    for (const rule of RULES.filter((r) => r.id.startsWith('app.'))) expect(spec.has(rule.id)).toBe(false);
    // Only the spec rules that the app profile replaces by a stricter app.* rule are missing there.
    expect([...spec].filter((id) => !app.has(id)).sort()).toEqual([
      'compaction.result-zero-usage',
      'framing.blank-line',
      'framing.dollar-terminator',
      'usage.not-zero',
    ]);
  });

  it('looks rules up by id and fails loudly for an unknown id', () => {
    expect(ruleById('tool.unique-id').severity).toBe('MUST');
    expect(() => ruleById('tool.no-such-rule')).toThrow(/unknown rule id tool.no-such-rule/);
  });

  it('rejects malformed rule definitions', () => {
    expect(() =>
      defineRules('run', [{ id: 'Golden Text', severity: 'MUST', source: 'R10', title: 't', fix: 'f' }]),
    ).toThrow(/kebab-case/);
    expect(() =>
      defineRules('run', [{ id: 'golden.x', severity: 'MUST', source: 'R10', title: '', fix: 'f' }]),
    ).toThrow(/needs a title/);
    expect(
      defineRules('run', [{ id: 'golden.x', severity: 'INFO', source: 'R10', title: 't', fix: 'f' }])[0],
    ).toMatchObject({ level: 'run', profiles: ['spec', 'yume-app'] });
  });
});
