// The output layer: line framing (one object per line, unique uuids, valid UTF-8, redaction, size) in both
// dialects, judged by the harness's validator.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { validateStream } from '../../harness/validate/validate-stream.js';
import { createEmitter, type Dialect, MAX_TEXT_CHUNK, splitText } from '../../reference-shim/output/emitter.js';
import { lineId } from '../../reference-shim/output/ids.js';
import { SecretRedactor } from '../../reference-shim/output/redact.js';
import { LineWriter, streamOutput } from '../../reference-shim/output/writer.js';

function capture(dialect: Dialect, env: NodeJS.ProcessEnv = {}) {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = new LineWriter(streamOutput(out), new SecretRedactor(env));
  const emitter = createEmitter(dialect, writer, { sessionId: () => 'sess-out', model: 'm', coalesceMs: 5 });
  return {
    emitter,
    writer,
    bytes: () => Buffer.concat(chunks),
    lines: () =>
      Buffer.concat(chunks)
        .toString('utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
  };
}

async function scriptedTurn(dialect: Dialect, env: NodeJS.ProcessEnv = {}) {
  const out = capture(dialect, env);
  const { emitter } = out;
  emitter.init({ sessionId: 'sess-out', model: 'm', cwd: '/w', permissionMode: 'default', tools: ['Read'] });
  emitter.beginModelMessage();
  emitter.thinking('Let me think.');
  emitter.text('\n');
  emitter.text('\n'); // equal chunks must stay distinct lines (the app drops byte-identical ones)
  emitter.text('x'.repeat(3 * MAX_TEXT_CHUNK + 5));
  emitter.endModelMessage();
  emitter.usage({ input_tokens: 5, output_tokens: 7 });
  emitter.toolUse({ id: 't1', name: 'Read', input: { file_path: 'a' } });
  emitter.toolResult({
    toolUseId: 't1',
    content: 'secret sk-ant-yume-conformance-dummy and lone \uD800 surrogate',
    isError: false,
  });
  emitter.result({
    isError: false,
    subtype: 'success',
    durationMs: 1.4,
    durationApiMs: 1,
    numTurns: 1,
    usage: { input_tokens: 5, output_tokens: 7 },
    totalCostUsd: 0.001,
  });
  emitter.messageStop();
  await emitter.flush();
  return out;
}

describe('emitters', () => {
  for (const dialect of ['flat', 'claude'] as const) {
    it(`${dialect}: a whole turn conforms to both profiles, every line unique, credentials redacted`, async () => {
      const out = await scriptedTurn(dialect, { ANTHROPIC_API_KEY: 'sk-ant-yume-conformance-dummy' });
      for (const profile of ['spec', 'yume-app'] as const) {
        const verdict = validateStream(out.bytes(), { profile, mode: 'spawn-per-turn' });
        expect(
          verdict.findings.filter((f) => f.severity === 'MUST'),
          profile,
        ).toEqual([]);
        expect(verdict.dialect).toBe(dialect === 'flat' ? 'flat' : 'claude-envelope');
      }
      const raw = out.bytes().toString('utf8');
      expect(raw).not.toContain('sk-ant-yume-conformance-dummy');
      expect(raw).toContain('[REDACTED]');
      // A lone surrogate is printed as U+FFFD, not as the \ud800 escape the app's contract parser rejects.
      expect(raw).toContain('lone \uFFFD surrogate');
      const lines = raw.trimEnd().split('\n');
      expect(new Set(lines).size).toBe(lines.length);
      expect(Math.max(...lines.map((line) => Buffer.byteLength(line)))).toBeLessThan(100_000);
      const parsed = out.lines();
      expect(new Set(parsed.map((line) => line.uuid)).size).toBe(parsed.length);
      const text = parsed
        .flatMap((line) =>
          line.type === 'text'
            ? [line.content]
            : line.type === 'assistant'
              ? line.message.content
                  .filter((b: { type: string }) => b.type === 'text')
                  .map((b: { text: string }) => b.text)
              : [],
        )
        .join('');
      expect(text).toBe(`\n\n${'x'.repeat(3 * MAX_TEXT_CHUNK + 5)}`);
    });
  }

  it('claude: thinking before text, coalesced text flushed by the timer', async () => {
    const out = capture('claude');
    out.emitter.beginModelMessage();
    out.emitter.text('a');
    out.emitter.text('b');
    out.emitter.text('c');
    await new Promise((resolve) => setTimeout(resolve, 30));
    await out.writer.flush();
    const texts = out.lines().map((line) => line.message.content[0].text);
    expect(texts).toEqual(['a', 'bc']);
  });
});

describe('helpers', () => {
  it('splitText never cuts a surrogate pair', () => {
    const text = `${'a'.repeat(9)}😀${'b'.repeat(9)}`;
    const pieces = splitText(text, 10);
    expect(pieces.join('')).toBe(text);
    expect(pieces[0]).toBe('a'.repeat(9));
    for (const piece of pieces) expect(Buffer.from(piece, 'utf8').toString('utf8')).toBe(piece);
  });

  it('line ids are UUID-shaped and never repeat', () => {
    const ids = Array.from({ length: 10_000 }, () => lineId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 50))
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('the redactor knows credential variables, JSON-escaped values and key shapes, and tokens learnt later', () => {
    const redactor = new SecretRedactor({
      MY_SERVICE_TOKEN: 'tok"en\\value123',
      HOME: '/home/someone',
      SHORT_TOKEN: 'abc',
    });
    expect(redactor.redact(JSON.stringify('x tok"en\\value123 y'))).toBe('"x [REDACTED] y"');
    expect(redactor.redact('/home/someone abc')).toBe('/home/someone abc');
    expect(redactor.redact(`sk-proj-abcdefghijklmnopqrstuvwx gho_abcdefghijkl AIza${'x'.repeat(35)}`)).toBe(
      '[REDACTED] [REDACTED] [REDACTED]',
    );
    redactor.add('ya29-like-but-not');
    expect(redactor.redact('got ya29-like-but-not')).toBe('got [REDACTED]');
  });

  it('the redactor finds every key shape behind its prefix check (ya29., each gh?_, sk-ant-)', () => {
    const redactor = new SecretRedactor({});
    const keys = [
      'ya29.a0AfB_byC1234567890',
      'ghp_abcdefghij1234',
      'ghs_abcdefghij1234',
      'ghu_abcdefghij1234',
      'sk-ant-api03-abcdefghijklmnop',
    ];
    for (const key of keys) expect(redactor.redact(`key=${key} end`)).toBe('key=[REDACTED] end');
    expect(redactor.redact('a task-list and a desk-lamp')).toBe('a task-list and a desk-lamp');
  });
});
