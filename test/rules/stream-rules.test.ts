// Every stream rule proven both ways: a conforming stream has no finding of it (and no MUST at all), a broken
// one is reported under exactly that rule id, at the offending line. The cases are in helpers/stream-cases.ts.

import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { STREAM_RULES } from '../../harness/rules/stream-rules.js';
import type { ValidateOptions } from '../../harness/validate/validate-stream.js';
import { validateStream } from '../../harness/validate/validate-stream.js';
import { STREAM_CASES as cases } from './helpers/stream-cases.js';
import { flatTurn, init, result, stream, text, usage } from './helpers/streams.js';

const flat = flatTurn();
const app: ValidateOptions = { profile: 'yume-app' };

describe('stream rules, both ways', () => {
  it('every stream rule of the catalog has a case here', () => {
    const covered = new Set(cases.map((c) => c.rule));
    expect(STREAM_RULES.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  it.each(cases.map((c, i) => [`${c.rule} #${i}`, c] as const))('%s', (_name, c) => {
    const good = validateStream(stream(...c.good), c.options);
    expect(good.findings.filter((f) => f.rule === c.rule)).toEqual([]);
    expect(good.findings.filter((f) => f.severity === 'MUST')).toEqual([]);
    expect(good.conforms).toBe(true);

    const bad = validateStream(Buffer.isBuffer(c.bad) ? c.bad : stream(...c.bad), c.options);
    const hits = bad.findings.filter((f) => f.rule === c.rule);
    expect(hits.length, JSON.stringify(bad.findings, null, 1)).toBeGreaterThan(0);
    const rule = STREAM_RULES.find((r) => r.id === c.rule)!;
    expect(hits[0]!.severity).toBe(rule.severity);
    expect(hits[0]!.fix).toBe(rule.fix);
    if (c.line !== undefined) expect(hits[0]!.line).toBe(c.line);
    expect(bad.conforms).toBe(!bad.findings.some((f) => f.severity === 'MUST'));
    if (rule.severity === 'MUST') expect(bad.conforms).toBe(false);
  });

  it('a missing final newline is a SHOULD, a cut-off last line is a MUST', () => {
    const complete = stream(...flat);
    const noNewline = validateStream(complete.subarray(0, complete.length - 1));
    expect(noNewline.findings.map((f) => f.rule)).toEqual(['framing.final-newline']);
    expect(noNewline.conforms).toBe(true);
    const cut = validateStream(complete.subarray(0, complete.length - 10));
    const finding = cut.findings.find((f) => f.rule === 'framing.single-line-json');
    expect(finding?.message).toContain('cut off');
    expect(cut.conforms).toBe(false);
  });

  it('yume-app rules never fire under the spec profile, spec-only ones not under yume-app', () => {
    const blankAndDollar = stream(
      init(),
      '',
      text('a'),
      text('a'),
      result({ usage: { input_tokens: 0, output_tokens: 0 } }),
      '$',
    );
    const spec = validateStream(blankAndDollar);
    expect(spec.findings.filter((f) => f.rule.startsWith('app.'))).toEqual([]);
    expect(spec.findings.map((f) => f.rule)).toEqual(
      expect.arrayContaining(['framing.blank-line', 'framing.dollar-terminator', 'usage.not-zero']),
    );
    const appResult = validateStream(blankAndDollar, app);
    expect(appResult.findings.map((f) => f.rule)).not.toEqual(expect.arrayContaining(['framing.blank-line']));
    expect(appResult.findings.map((f) => f.rule)).toEqual(
      expect.arrayContaining(['app.blank-line', 'app.dollar-line', 'app.duplicate-line', 'app.zero-usage-result']),
    );
  });

  it('accepts CRLF line endings, unknown fields, unknown system subtypes and permission modes', () => {
    const crlf = Buffer.from(
      stream(...flat)
        .toString('utf8')
        .replaceAll('\n', '\r\n'),
    );
    expect(validateStream(crlf).findings).toEqual([]);
    const extras = stream(
      init({ permissionMode: 'bypassPermissions', future: 1 }),
      { type: 'system', subtype: 'api_retry', attempt: 1 },
      { ...text('a'), extra: [1] },
      usage(),
      result({ new_field: true }),
    );
    expect(validateStream(extras).findings).toEqual([]);
  });

  it('lists at most the configured number of findings per rule and says how many more there were', () => {
    const many = stream(init(), ...Array.from({ length: 30 }, () => ''), text('a'), usage(), result());
    const findings = validateStream(many, { maxFindingsPerRule: 5 }).findings.filter(
      (f) => f.rule === 'framing.blank-line',
    );
    expect(findings).toHaveLength(6);
    expect(findings[5]!.message).toBe('25 more findings of this rule not listed (30 in total)');
  });

  it('attaches a printable excerpt of the offending line', () => {
    const bad = validateStream(stream(init(), `\u001b[31m{"type":"text"}`, result()));
    expect(bad.findings[0]).toMatchObject({ rule: 'framing.no-ansi', line: 2, excerpt: '\\u001b[31m{"type":"text"}' });
  });
});
