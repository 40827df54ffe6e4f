// R4a both ways: usage lines alone satisfy `spec` (and `usage.totals` compares their sum), while under
// `yume-app` only `result.usage` or a nested usage line counts, since the app's counter reads nothing else.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareWithGolden } from '../../harness/golden/compare/golden-compare.js';
import { buildTurnModels } from '../../harness/golden/golden-model.js';
import { toCanonicalEvents } from '../../harness/protocol/canonical.js';
import { validateStream } from '../../harness/validate/validate-stream.js';

const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/streams/usage');
const read = (name: string) => readFileSync(path.join(folder, name));
const flat = read('flat-usage-lines-only.jsonl');
const nested = read('nested-usage-lines-only.jsonl');

const musts = (bytes: Buffer, profile: 'spec' | 'yume-app') =>
  validateStream(bytes, { profile }).findings.filter((finding) => finding.severity === 'MUST');

/** The golden turn: the provider reported 240 in / 30 out over the turn's two calls. */
function goldenWithTotals(input: number, output: number) {
  const golden = nested
    .toString('utf8')
    .replace(/\{"type":"usage".*\n/g, '')
    .replace('"is_error":false,', `"is_error":false,"usage":{"input_tokens":${input},"output_tokens":${output}},`);
  return { label: 'golden.jsonl', turns: buildTurnModels(toCanonicalEvents(golden), {}) };
}
const observed = (bytes: Buffer) => buildTurnModels(toCanonicalEvents(bytes.toString('utf8')), {});

describe('usage forms (R4a)', () => {
  it('flat usage lines alone pass spec', () => {
    expect(musts(flat, 'spec')).toEqual([]);
  });

  it('flat usage lines alone fail yume-app with app.usage-counted, naming what the app shows', () => {
    const findings = musts(flat, 'yume-app');
    expect(findings.map((finding) => finding.rule)).toEqual(['app.usage-counted']);
    expect(findings[0]!.line).toBe(8);
    expect(findings[0]!.message).toContain('line 4');
    expect(findings[0]!.message).toMatch(/token counter/);
    expect(findings[0]!.fix).toContain('"usage":{');
  });

  it('nested usage lines alone pass both profiles', () => {
    expect(musts(nested, 'spec')).toEqual([]);
    expect(musts(nested, 'yume-app')).toEqual([]);
  });

  it('result.usage alone passes yume-app, as does a flat line beside it', () => {
    const withResultUsage = Buffer.from(
      flat
        .toString('utf8')
        .replace('"is_error":false,', '"is_error":false,"usage":{"input_tokens":240,"output_tokens":30},'),
    );
    expect(musts(withResultUsage, 'yume-app')).toEqual([]);
  });

  it('usage.totals compares the sum of the usage lines when the result has no usage', () => {
    expect(compareWithGolden(goldenWithTotals(240, 30), observed(flat), 'stdout')).toEqual([]);
    expect(compareWithGolden(goldenWithTotals(240, 30), observed(nested), 'stdout')).toEqual([]);
    const wrong = compareWithGolden(goldenWithTotals(100, 20), observed(flat), 'stdout');
    expect(wrong.map((finding) => finding.rule)).toEqual(['usage.totals']);
    expect(wrong[0]!.message).toContain('expected usage 100 in / 20 out, observed usage 240 in / 30 out');
  });

  it('result.usage, when present, is the total compared (the lines are not added to it)', () => {
    const both = Buffer.from(
      flat
        .toString('utf8')
        .replace('"is_error":false,', '"is_error":false,"usage":{"input_tokens":240,"output_tokens":30},'),
    );
    expect(compareWithGolden(goldenWithTotals(240, 30), observed(both), 'stdout')).toEqual([]);
    const lastCallOnly = Buffer.from(
      flat
        .toString('utf8')
        .replace('"is_error":false,', '"is_error":false,"usage":{"input_tokens":140,"output_tokens":10},'),
    );
    expect(compareWithGolden(goldenWithTotals(240, 30), observed(lastCallOnly), 'stdout')[0]?.rule).toBe(
      'usage.totals',
    );
  });
});
