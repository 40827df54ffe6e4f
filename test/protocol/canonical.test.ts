// Canonical events: the flat dialect and Claude envelopes of the same conversation map to the same events (R1).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CanonicalEvent, toCanonicalEvents } from '../../harness/protocol/canonical.js';

const jsonl = (lines: object[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
const init = {
  type: 'system',
  subtype: 'init',
  session_id: 's1',
  model: 'm',
  cwd: '/w',
  permissionMode: 'default',
  tools: ['Read'],
};
const result = { type: 'result', is_error: false, subtype: 'success', usage: { input_tokens: 10, output_tokens: 5 } };

const flat = jsonl([
  init,
  { type: 'thinking', is_thinking: true, thought: 'hmm' },
  { type: 'text', content: 'I will read it.' },
  { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a.txt' } },
  { type: 'tool_result', tool_use_id: 't1', content: 'hello', is_error: false },
  { type: 'text', content: 'It says hello.' },
  result,
]);
const envelope = jsonl([
  init,
  {
    type: 'assistant',
    message: {
      id: 'm1',
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'hmm' },
        { type: 'text', text: 'I will read it.' },
      ],
    },
  },
  {
    type: 'assistant',
    message: {
      id: 'm1',
      role: 'assistant',
      content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a.txt' } }],
    },
  },
  {
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'hello', is_error: false }] },
  },
  { type: 'assistant', message: { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'It says hello.' }] } },
  result,
]);

const withoutPosition = (events: CanonicalEvent[]) =>
  events.map((e) => {
    const { line, ...rest } = e as CanonicalEvent & { messageId?: string };
    void line;
    delete (rest as { messageId?: string }).messageId;
    return rest;
  });

describe('toCanonicalEvents', () => {
  it('maps both dialects of one conversation to the same events', () => {
    const a = toCanonicalEvents(flat);
    const b = toCanonicalEvents(Buffer.from(envelope));
    expect(withoutPosition(a)).toEqual(withoutPosition(b));
    expect(a.map((e) => e.kind)).toEqual(['init', 'thinking', 'text', 'tool_use', 'tool_result', 'text', 'result']);
  });

  it('keeps the line each event came from and the message id of envelope tool calls', () => {
    const events = toCanonicalEvents(envelope);
    expect(events.map((e) => e.line)).toEqual([1, 2, 2, 3, 4, 5, 6]);
    expect(events[3]).toEqual({
      kind: 'tool_use',
      line: 3,
      id: 't1',
      name: 'Read',
      input: { file_path: 'a.txt' },
      messageId: 'm1',
    });
  });

  it('maps usage in both forms, errors in both shapes, and unknown types to `other`', () => {
    const events = toCanonicalEvents(
      jsonl([
        { type: 'usage', input_tokens: 3, output_tokens: 4 },
        { type: 'usage', usage: { input_tokens: 5, output_tokens: 6 } },
        { type: 'error', message: 'boom' },
        { type: 'error', error: { message: 'nested boom' } },
        { type: 'system', subtype: 'api_retry' },
        { type: 'interrupt' },
        {
          type: 'result',
          is_error: true,
          usage: { input_tokens: 1, output_tokens: 2, estimated: true },
          errors: ['429'],
        },
        { type: 'message_stop' },
        { type: 'brand_new' },
      ]),
    );
    expect(events).toEqual([
      { kind: 'usage', line: 1, inputTokens: 3, outputTokens: 4 },
      { kind: 'usage', line: 2, inputTokens: 5, outputTokens: 6, nested: true },
      { kind: 'error', line: 3, message: 'boom' },
      { kind: 'error', line: 4, message: 'nested boom' },
      { kind: 'system', line: 5, subtype: 'api_retry' },
      { kind: 'interrupt', line: 6 },
      {
        kind: 'result',
        line: 7,
        isError: true,
        usage: { inputTokens: 1, outputTokens: 2, estimated: true },
        errors: ['429'],
      },
      { kind: 'message_stop', line: 8 },
      { kind: 'other', line: 9, type: 'brand_new' },
    ]);
  });

  it('skips non-JSON, invalid UTF-8 and blank lines but keeps counting them', () => {
    const input = Buffer.concat([
      Buffer.from('\n$\n'),
      Buffer.from([0xff, 0x0a]),
      Buffer.from('{"type":"text","content":"x"}\n'),
    ]);
    expect(toCanonicalEvents(input)).toEqual([{ kind: 'text', line: 4, text: 'x' }]);
  });

  it('maps the real claude capture of two tool calls', () => {
    const file = path.join(
      import.meta.dirname,
      '..',
      'fixtures',
      'streams',
      'captures',
      'claude',
      '3-two-tools.stdout.jsonl',
    );
    const kinds = toCanonicalEvents(readFileSync(file)).map((e) => e.kind);
    expect(kinds).toEqual(['init', 'tool_use', 'tool_use', 'tool_result', 'tool_result', 'text', 'result']);
  });

  it('keeps a `__proto__` key of a tool input as an own key, in both dialects', () => {
    const input = '{"__proto__":{"polluted":true},"file_path":"a.txt"}';
    const lines = Buffer.from(
      `{"type":"tool_use","id":"t1","name":"Read","input":${input}}\n` +
        `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Read","input":${input}}]}}\n`,
    );
    const uses = toCanonicalEvents(lines).filter((event) => event.kind === 'tool_use');
    expect(uses).toHaveLength(2);
    for (const use of uses) expect(JSON.stringify(use.input)).toBe(input);
  });
});
