// The schemas themselves: well formed, self-describing, codegen-friendly, and they accept what they should.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_BASE, schemaFileNames, schemaOf, validatorFor } from '../../harness/protocol/schemas.js';

const schemasDir = path.join(import.meta.dirname, '..', '..', 'schemas');
const version = JSON.parse(readFileSync(path.join(schemasDir, 'protocol-version.json'), 'utf8')).protocolVersion;
const reportVersion = JSON.parse(readFileSync(path.join(schemasDir, 'report-version.json'), 'utf8')).reportVersion;
// Formats no shim sees: they carry the report version, never the protocol's.
const harnessOnly = new Set(['report.schema.json', 'preset.schema.json', 'expected-failures.schema.json']);
// scenario.schema.json belongs to the scenario feature and is checked by its own tests.
const ours = readdirSync(schemasDir).filter((f) => f.endsWith('.schema.json') && f !== 'scenario.schema.json');

function keysDeep(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysDeep(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysDeep(v, out);
    }
  }
  return out;
}

describe('schemas/CHANGELOG.md', () => {
  const changelog = readFileSync(path.join(schemasDir, 'CHANGELOG.md'), 'utf8');
  const headings = [...changelog.matchAll(/^## (.+)$/gm)].map((match) => match[1]!.trim());

  it('has an entry for the current protocol version, newest first among the protocol headings', () => {
    const protocol = headings.filter((heading) => /^\d+\.\d+$/.test(heading));
    expect(protocol[0]).toBe(version);
  });

  it('has an entry for the current report version, at the top', () => {
    expect(reportVersion).toBe('2.1');
    expect(headings[0]).toBe(`Report ${reportVersion}`);
    const entry = changelog.slice(changelog.indexOf(`## Report ${reportVersion}`)).split(/^## /m)[1]!;
    expect(entry).toMatch(/^- /m);
  });

  it('every report carries the report version apart from the protocol version', () => {
    expect(schemaOf('report.schema.json').properties).toHaveProperty('reportVersion');
    expect(reportVersion).not.toBe(version);
  });
});

describe('schemas/', () => {
  it('registers every schema file with the harness', () => {
    expect(schemaFileNames()).toEqual(expect.arrayContaining(ours));
  });

  it.each(ours)('%s is a self-describing 2020-12 schema', (file) => {
    const schema = JSON.parse(readFileSync(path.join(schemasDir, file), 'utf8'));
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(SCHEMA_BASE + file);
    if (harnessOnly.has(file)) {
      expect(schema['x-report-version']).toBe(reportVersion);
      expect(schema['x-protocol-version']).toBeUndefined();
    } else {
      expect(schema['x-protocol-version']).toBe(version);
      expect(schema['x-report-version']).toBeUndefined();
    }
    expect(schema.title).toMatch(/^[A-Z][A-Za-z0-9]+$/); // becomes the generated type's name
    expect(typeof schema.description).toBe('string');
    expect(Array.isArray(schema.examples) && schema.examples.length > 0).toBe(true);
    // json-schema-to-typescript mishandles these; closed objects would break forward compatibility.
    const used = keysDeep(schema);
    for (const keyword of ['prefixItems', 'if', 'then', 'else', 'unevaluatedProperties'])
      expect(used.has(keyword)).toBe(false);
    expect(JSON.stringify(schema)).not.toContain('"additionalProperties":false');
  });

  it.each(ours)('%s accepts its own examples', (file) => {
    const validate = validatorFor(file);
    for (const example of (schemaOf(file).examples as unknown[]) ?? []) {
      expect(validate(example), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('stream-message accepts every example of every stdout message and rejects control frames', () => {
    const union = validatorFor('stream-message.schema.json');
    const stdout = ours.filter((f) =>
      /^(system-|text|thinking|tool-use|tool-result|usage-|result|message-stop|error|interrupt|stream-event|assistant|user\.)/.test(
        f,
      ),
    );
    expect(stdout.length).toBeGreaterThanOrEqual(17);
    for (const file of stdout)
      for (const ex of schemaOf(file).examples as unknown[]) expect(union(ex), file).toBe(true);
    expect(union({ type: 'set_permission_mode', mode: 'deny' })).toBe(false);
    expect(union({ type: 'tool_approval', id: 'a', approved: true })).toBe(false);
  });

  it('control-frame accepts both user forms and rejects stdout-only messages', () => {
    const frame = validatorFor('control-frame.schema.json');
    expect(frame({ type: 'user', content: 'hi' })).toBe(true);
    expect(frame({ type: 'user', message: { role: 'user', content: 'hi' } })).toBe(true);
    expect(frame({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'hi' }] } })).toBe(true);
    expect(frame({ type: 'interrupt' })).toBe(true);
    expect(frame({ type: 'tool_approval', id: 'call_1', approved: 'yes' })).toBe(false);
    expect(frame({ type: 'set_permission_mode' })).toBe(false);
    expect(frame({ type: 'text', content: 'hi' })).toBe(false);
  });

  it('allows unknown extra fields everywhere (forward compatibility)', () => {
    expect(validatorFor('text.schema.json')({ type: 'text', content: 'x', future_field: { a: 1 } })).toBe(true);
    expect(
      validatorFor('result.schema.json')({
        type: 'result',
        is_error: false,
        usage: { input_tokens: 1, output_tokens: 1, new_counter: 3 },
      }),
    ).toBe(true);
  });

  it.each([
    ['text.schema.json', { type: 'text' }],
    ['text.schema.json', { type: 'text', content: null }],
    ['tool-use.schema.json', { type: 'tool_use', id: 'a', name: 'Read', input: [] }],
    ['tool-use.schema.json', { type: 'tool_use', id: 7, name: 'Read', input: {} }],
    ['tool-result.schema.json', { type: 'tool_result', tool_use_id: 'a', content: null }],
    ['usage-flat.schema.json', { type: 'usage', input_tokens: -1, output_tokens: 2 }],
    ['usage-flat.schema.json', { type: 'usage', input_tokens: 1.5, output_tokens: 2 }],
    ['usage-nested.schema.json', { type: 'usage', usage: { input_tokens: 4294967296, output_tokens: 0 } }],
    ['result.schema.json', { type: 'result' }],
    ['result.schema.json', { type: 'result', is_error: null }],
    ['error.schema.json', { type: 'error', error: { message: 'nested' } }],
    [
      'system-init.schema.json',
      {
        type: 'system',
        subtype: 'init',
        session_id: 's',
        model: 'm',
        cwd: '/',
        permissionMode: 'default',
        tools: [{ name: 'Read' }],
      },
    ],
    ['assistant.schema.json', { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text' }] } }],
    ['user.schema.json', { type: 'user', message: { role: 'user', content: [{ type: 'tool_result' }] } }],
    ['tool-input-read.schema.json', { path: 'a.txt' }],
    ['tool-input-bash.schema.json', { command: '' }],
    [
      'session-file.schema.json',
      {
        id: 'a/b',
        provider: 'openai',
        model: 'm',
        cwd: '/',
        title: 't',
        history: [],
        usage: { inputTokens: 1, outputTokens: 1 },
      },
    ],
    [
      'session-file.schema.json',
      {
        id: 'a',
        provider: 'openai',
        model: 'm',
        cwd: '/',
        title: 't',
        history: [],
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    ],
  ])('%s rejects %j', (file, value) => {
    expect(validatorFor(file)(value)).toBe(false);
  });

  it('accepts the claude CLI envelopes as printed (captures)', () => {
    const union = validatorFor('stream-message.schema.json');
    const dir = path.join(import.meta.dirname, '..', 'fixtures', 'streams', 'captures', 'claude');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.stdout.jsonl'))) {
      const lines = readFileSync(path.join(dir, file), 'utf8').split('\n').filter(Boolean);
      for (const [i, line] of lines.entries()) expect(union(JSON.parse(line)), `${file}:${i + 1}`).toBe(true);
    }
  });
});
