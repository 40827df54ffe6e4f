// Bad input never crashes or hangs the validator: each case ends quickly with a clear finding or error.
// The large inputs are generated here at test time, not committed.

import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderHuman } from '../../harness/report/human.js';
import { renderJunit } from '../../harness/report/junit.js';
import { buildReport, runFromValidation } from '../../harness/report/model.js';
import { type ValidationResult, validateStream } from '../../harness/validate/validate-stream.js';
import { assertWellFormedXml } from '../helpers/junit-xml.js';
import { flatTurn, init, result, stream, toolResult } from '../rules/helpers/streams.js';

const MB = 1024 * 1024;
const work = mkdtempSync(path.join(tmpdir(), 'yume-robust-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Validates under both profiles, checks the reporters cope too, and bounds the time taken. */
function judge(bytes: Uint8Array, limitMs = 15_000): ValidationResult {
  const started = performance.now();
  const spec = validateStream(bytes);
  const app = validateStream(bytes, { profile: 'yume-app' });
  const report = buildReport([runFromValidation(spec, 'input'), runFromValidation(app, 'input')]);
  renderHuman(report, { color: false });
  assertWellFormedXml(renderJunit(report));
  expect(performance.now() - started).toBeLessThan(limitMs);
  for (const f of [...spec.findings, ...app.findings]) {
    expect(f.message.length).toBeLessThan(1_000);
    expect((f.excerpt ?? '').length).toBeLessThan(1_000);
  }
  return spec;
}

/** Deterministic pseudo-random bytes (xorshift32), so a failure can be reproduced. */
function randomBytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const rules = (r: ValidationResult) => r.findings.map((f) => f.rule);
const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('robustness', () => {
  it('empty input: one clear finding', () => {
    const r = judge(new Uint8Array());
    expect(r.findings).toEqual([expect.objectContaining({ rule: 'framing.not-empty', message: 'stdout is empty' })]);
    expect(r.conforms).toBe(false);
  });

  it('a 50 MB single line of valid JSON without a newline', () => {
    const line = Buffer.from(JSON.stringify({ type: 'text', content: 'x'.repeat(50 * MB) }));
    const r = judge(line);
    expect(rules(r)).toEqual(['framing.line-size', 'turn.init-first', 'framing.final-newline', 'turn.result-last']);
    expect(r.findings[0]!.excerpt).toMatch(new RegExp(`… \\(${line.length} bytes\\)$`));
  });

  it('a 50 MB single line that is not JSON', () => {
    const r = judge(Buffer.alloc(50 * MB, 0x61));
    expect(rules(r)).toEqual(['framing.line-size', 'framing.single-line-json', 'framing.not-empty']);
    expect(r.findings[1]!.message).toContain('cut off');
  });

  it.each([10_000, 100_000])('%i-deep nesting in tool input, unknown fields, content and a whole line', (depth) => {
    // Built as text: JSON.stringify itself gives up at this depth.
    const nested = deep(depth);
    const bytes = stream(
      init(),
      `{"type":"tool_use","id":"c1","name":"Bash","input":{"command":"ls","extra":${nested}}}`,
      `{"type":"tool_result","tool_use_id":"c1","content":${nested}}`,
      `{"type":"text","content":"x","unknown":${nested}}`,
      `{"type":"brand_new","payload":${nested}}`,
      nested,
      `{"type":"result","is_error":false,"subtype":"success","usage":{"input_tokens":1,"output_tokens":1,"detail":${nested}}}`,
    );
    const r = judge(bytes);
    expect([...new Set(rules(r).filter((rule) => rule !== 'framing.line-size'))]).toEqual([
      'framing.nesting-depth',
      'schema.unknown-type',
      'framing.json-object',
    ]);
    // Every object line but init nests too deep for the contract's parser (line 6 is not an object at all).
    expect(r.findings.filter((f) => f.rule === 'framing.nesting-depth').map((f) => f.line)).toEqual([2, 3, 4, 5, 7]);
    expect(rules(validateStream(bytes, { profile: 'yume-app' }))).toContain('app.tool-result-string');
  });

  it('a tool input nested too deep to print still gets a readable message', () => {
    const r = judge(
      stream(
        init(),
        `{"type":"tool_use","id":"c1","name":"Bash","input":${deep(20_000)}}`,
        toolResult('c1', 'x'),
        result(),
      ),
    );
    expect(r.findings.map((f) => f.rule)).toEqual(['framing.nesting-depth', 'tool.input-object']);
    expect(r.findings[1]!.message).toBe('tool_use.input is [a deeply nested array], not an object');
  });

  it.each([1, 2, 3])('5 MB of random bytes (seed %i)', (seed) => {
    const r = judge(randomBytes(5 * MB, seed));
    expect(r.conforms).toBe(false);
    expect(r.findings.filter((f) => f.rule === 'framing.utf8').length).toBeLessThanOrEqual(51);
    expect(rules(r)).toContain('framing.not-empty');
  });

  it('a million empty lines is capped, not listed', () => {
    const r = judge(Buffer.alloc(MB, 0x0a));
    expect(r.lines).toBe(MB);
    expect(r.findings.filter((f) => f.rule === 'framing.blank-line')).toHaveLength(51);
  });

  it.each([
    ['lone continuation byte', [0x80], 27],
    ['overlong NUL', [0xc0, 0x80], 27],
    ['UTF-16 surrogate', [0xed, 0xa0, 0x80], 27],
    ['truncated 4-byte sequence', [0xf0, 0x9f, 0x98], 27],
    ['Latin-1 é', [0xe9], 27],
  ])('invalid UTF-8 (%s) is named with its column', (_name, seq, column) => {
    const line = Buffer.concat([Buffer.from('{"type":"text","content":"'), Buffer.from(seq), Buffer.from('"}')]);
    const r = judge(stream(init(), line, result()));
    const finding = r.findings.find((f) => f.rule === 'framing.utf8')!;
    expect(finding.line).toBe(2);
    expect(finding.message).toBe(`invalid UTF-8 byte 0x${seq[0]!.toString(16)} at column ${column}`);
    expect(finding.excerpt).toContain(`\\x${seq[0]!.toString(16)}`);
  });

  it('a truncated last line says the output was cut off', () => {
    const whole = stream(...flatTurn());
    const r = judge(whole.subarray(0, whole.length - 7));
    const cut = r.findings.find((f) => f.rule === 'framing.single-line-json')!;
    expect(cut.line).toBe(8);
    expect(cut.message).toMatch(/^last line is incomplete JSON and has no newline: output was cut off/);
  });

  it('NUL bytes, lone CRs and a BOM in the middle are reported, not crashed on', () => {
    const r = judge(
      Buffer.concat([
        stream(init()),
        Buffer.from([0, 0, 0x0d, 0x0a, 0x0d, 0x0a]),
        Buffer.from('\ufeff{"type":"message_stop"}\n'),
      ]),
    );
    expect(rules(r)).toEqual(['turn.result-last', 'framing.single-line-json', 'framing.blank-line', 'framing.no-bom']);
  });

  it('the CLI handles a 50 MB file and an empty file with exit code 1 and a clear message', () => {
    const cli = path.join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
    const big = path.join(work, 'big.jsonl');
    writeFileSync(
      big,
      Buffer.concat([
        stream(init()),
        Buffer.from(JSON.stringify({ type: 'text', content: 'y'.repeat(50 * MB) })),
        Buffer.from('\n'),
        stream(result()),
      ]),
    );
    const empty = path.join(work, 'empty.jsonl');
    writeFileSync(empty, '');
    const r = spawnSync(process.execPath, [cli, 'validate', big, empty], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('✔ conforms');
    expect(r.stdout).toContain('framing.line-size');
    expect(r.stdout).toContain('stdout is empty');
    expect(r.stdout.length).toBeLessThan(10_000);
    expect(r.stderr).toBe('');
  });
});
