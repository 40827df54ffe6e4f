// Stream assembly of the Anthropic Messages provider over real loopback HTTP: thinking with its signature, text,
// tool_use from partial_json, usage, failures, and the history it replays.
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicProvider, anthropicMessages } from '../../reference-shim/providers/anthropic.js';
import type { HistoryEntry } from '../../reference-shim/session/history.js';
import { type ByteServer, namedSse, shred, startByteServer } from './helpers/byte-server.js';
import { collect, done, failure, TOOLS } from './helpers/provider-stream.js';

let server: ByteServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// ---------------------------------------------------------------- Anthropic
describe('Anthropic Messages', () => {
  const event = (data: { type: string } & Record<string, unknown>) => namedSse(data);

  it('assembles thinking (with signature), text and tool_use from partial_json; usage from start and delta', async () => {
    const body = [
      event({
        type: 'message_start',
        message: { id: 'msg_1', usage: { input_tokens: 50, output_tokens: 1, cache_read_input_tokens: 4 } },
      }),
      event({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      }),
      event({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Need files.' } }),
      event({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'c2ln' } }),
      event({ type: 'content_block_stop', index: 0 }),
      event({ type: 'ping' }),
      event({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
      event({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Listing.' } }),
      event({ type: 'content_block_stop', index: 1 }),
      event({
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} },
      }),
      event({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } }),
      event({
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: '{"file_path": ' },
      }),
      event({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '"x.txt"}' } }),
      event({ type: 'content_block_stop', index: 2 }),
      event({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 42 } }),
      event({ type: 'message_stop' }),
    ].join('');
    server = await startByteServer([{ chunks: shred(body, 41) }]);
    const provider = new AnthropicProvider('anthropic', { baseUrl: server.url, apiKey: 'sk-ant-test-123456789' });
    const events = await collect(provider);
    expect(events.filter((e) => e.type !== 'done')).toEqual([
      { type: 'thinking', text: 'Need files.' },
      { type: 'text', text: 'Listing.' },
    ]);
    expect(done(events)).toEqual({
      text: 'Listing.',
      thinking: [{ text: 'Need files.', signature: 'c2ln' }],
      toolCalls: [{ id: 'toolu_1', name: 'Read', argumentsText: '{"file_path": "x.txt"}' }],
      usage: { inputTokens: 50, outputTokens: 42, cacheReadTokens: 4 },
      stopReason: 'tool_use',
    });
    const call = server.calls[0]!;
    expect(call.path).toBe('/v1/messages');
    expect(call.headers['x-api-key']).toBe('sk-ant-test-123456789');
    expect(call.headers['anthropic-version']).toBe('2023-06-01');
    expect(call.body).toMatchObject({
      model: 'm-1',
      system: 'sys',
      stream: true,
      tools: [{ name: 'Read', input_schema: TOOLS[0]!.parameters }],
    });
  });

  it('fails on an error event and when message_stop never comes', async () => {
    server = await startByteServer([
      {
        chunks: [
          event({ type: 'message_start', message: { usage: { input_tokens: 1 } } }),
          event({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
        ],
      },
      { chunks: [event({ type: 'message_start', message: { usage: { input_tokens: 1 } } })] },
    ]);
    const provider = new AnthropicProvider('anthropic', { baseUrl: server.url });
    expect(await failure(provider)).toMatchObject({
      kind: 'stream',
      message: expect.stringContaining('Overloaded'),
      details: { code: 'overloaded_error' },
    });
    expect(await failure(provider)).toMatchObject({ kind: 'stream', message: expect.stringContaining('message_stop') });
  });

  it('sends thinking back with its signature and tool results in one user message', () => {
    const history: HistoryEntry[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: 'x',
        provider: 'anthropic',
        thinking: [{ text: 't', signature: 's' }, { text: 'unsigned' }],
        toolCalls: [
          { id: 'toolu_1', name: 'Read', input: { file_path: 'a' } },
          { id: 'toolu_2', name: 'Read', input: {} },
        ],
      },
      { role: 'tool', toolCallId: 'toolu_1', name: 'Read', content: 'A' },
      { role: 'tool', toolCallId: 'toolu_2', name: 'Read', content: 'E', isError: true },
    ];
    expect(anthropicMessages(history)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 't', signature: 's' },
          { type: 'text', text: 'x' },
          { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a' } },
          { type: 'tool_use', id: 'toolu_2', name: 'Read', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'A' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'E', is_error: true },
        ],
      },
    ]);
  });
});
