// Stream assembly of the OpenAI Responses provider over real loopback HTTP, and the provider registry (which
// routes codex models of --provider openai to it).
import { afterEach, describe, expect, it } from 'vitest';
import { SecretRedactor } from '../../reference-shim/output/redact.js';
import { OpenAIChatProvider } from '../../reference-shim/providers/openai-chat.js';
import { OpenAIResponsesProvider } from '../../reference-shim/providers/openai-responses.js';
import type { ModelProvider } from '../../reference-shim/providers/provider.js';
import { createProvider, usesResponsesApi } from '../../reference-shim/providers/registry.js';
import { type ByteServer, namedSse, shred, sse, startByteServer } from './helpers/byte-server.js';
import { chat, collect, done, failure } from './helpers/provider-stream.js';

let server: ByteServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// ---------------------------------------------------------------- OpenAI Responses
describe('OpenAI Responses API', () => {
  const item = (type: string, extra: Record<string, unknown>) => namedSse({ type, ...extra } as { type: string });

  it('streams text and reasoning, takes complete calls from output_item.done, reads usage', async () => {
    const body = [
      item('response.created', { response: { status: 'in_progress' } }),
      item('response.reasoning_summary_text.delta', { delta: 'thinking...' }),
      item('response.output_text.delta', { delta: 'Check' }),
      item('response.output_text.delta', { delta: 'ing.' }),
      item('response.output_item.added', {
        output_index: 1,
        item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'Read', arguments: '' },
      }),
      item('response.function_call_arguments.delta', { item_id: 'fc_1', delta: '{"file_path":' }),
      item('response.function_call_arguments.delta', { item_id: 'fc_1', delta: '"partial' }),
      item('response.output_item.done', {
        output_index: 1,
        item: {
          id: 'fc_1',
          type: 'function_call',
          call_id: 'call_1',
          name: 'Read',
          arguments: '{"file_path":"a.txt"}',
        },
      }),
      item('response.completed', {
        response: {
          status: 'completed',
          usage: { input_tokens: 50, input_tokens_details: { cached_tokens: 20 }, output_tokens: 9 },
        },
      }),
    ].join('');
    server = await startByteServer([{ chunks: shred(body, 53) }]);
    const provider = new OpenAIResponsesProvider('codex', {
      baseUrl: `${server.url}/v1`,
      apiKey: 'sk-test-key-123456789',
    });
    const events = await collect(provider, [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'x', toolCalls: [{ id: 'call_0', name: 'Read', input: { file_path: 'z' } }] },
      { role: 'tool', toolCallId: 'call_0', name: 'Read', content: 'Z' },
    ]);
    expect(events.filter((e) => e.type === 'thinking')).toEqual([{ type: 'thinking', text: 'thinking...' }]);
    expect(done(events)).toEqual({
      text: 'Checking.',
      thinking: [{ text: 'thinking...' }],
      toolCalls: [{ id: 'call_1', name: 'Read', argumentsText: '{"file_path":"a.txt"}' }],
      usage: { inputTokens: 30, outputTokens: 9, cacheReadTokens: 20 },
      stopReason: 'tool_use',
    });
    const call = server.calls[0]!;
    expect(call.path).toBe('/v1/responses');
    expect(call.body).toMatchObject({ model: 'm-1', instructions: 'sys', stream: true, store: false });
    expect(call.body.tools[0]).toMatchObject({ type: 'function', name: 'Read' });
    expect(call.body.input).toEqual([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'x' },
      { type: 'function_call', call_id: 'call_0', name: 'Read', arguments: '{"file_path":"z"}' },
      { type: 'function_call_output', call_id: 'call_0', output: 'Z' },
    ]);
  });

  it('fails on response.failed, on an error event and when response.completed never comes', async () => {
    for (const chunks of [
      [
        item('response.output_text.delta', { delta: 'x' }),
        item('response.failed', { response: { status: 'failed', error: { code: 'server_error', message: 'boom' } } }),
      ],
      [item('error', { code: 'server_error', message: 'kaput' })],
      [item('response.output_text.delta', { delta: 'x' })],
    ]) {
      server = await startByteServer([{ chunks }]);
      const error = await failure(new OpenAIResponsesProvider('codex', { baseUrl: `${server.url}/v1` }));
      expect(error.kind).toBe('stream');
      await server.close();
      server = undefined;
    }
  });
});

// ---------------------------------------------------------------- Gemini
describe('registry', () => {
  it('routes codex models of --provider openai to the Responses API', async () => {
    expect(usesResponsesApi('openai', 'gpt-5.2-codex')).toBe(true);
    expect(usesResponsesApi('openai', 'gpt-4.1-mini')).toBe(false);
    expect(usesResponsesApi('codex', 'anything')).toBe(true);
    const redactor = new SecretRedactor({});
    expect(await createProvider({ provider: 'openai', model: 'gpt-5.2-codex', env: {}, redactor })).toBeInstanceOf(
      OpenAIResponsesProvider,
    );
    expect(await createProvider({ provider: 'openai', model: 'gpt-4.1', env: {}, redactor })).toBeInstanceOf(
      OpenAIChatProvider,
    );
  });

  it('answers copilot, the older name of copilot-cli, with the copilot-cli translator (once "not supported")', async () => {
    const provider = await createProvider({
      provider: 'copilot',
      model: 'x',
      env: {},
      redactor: new SecretRedactor({}),
    });
    expect(provider.kind).toBe('turn');
    expect(provider.id).toBe('copilot-cli');
  });

  it('creates the official-CLI providers as turn providers', async () => {
    const provider = await createProvider({
      provider: 'gemini-cli',
      model: 'gemini-2.5-flash',
      env: {},
      redactor: new SecretRedactor({}),
    });
    expect(provider.kind).toBe('turn');
  });

  it('uses the base URL from the flag, else the environment', async () => {
    server = await startByteServer([
      { chunks: [chat({ content: 'a' }), chat({}, 'stop'), sse('[DONE]')] },
      { chunks: [chat({ content: 'b' }), chat({}, 'stop'), sse('[DONE]')] },
    ]);
    const redactor = new SecretRedactor({});
    const fromEnv = await createProvider({
      provider: 'openai',
      model: 'gpt-4.1',
      env: { OPENAI_BASE_URL: `${server.url}/v1` },
      redactor,
    });
    const fromFlag = await createProvider({
      provider: 'openai',
      model: 'gpt-4.1',
      apiBase: `${server.url}/v1/`,
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
      redactor,
    });
    await collect(fromEnv as ModelProvider);
    await collect(fromFlag as ModelProvider);
    expect(server.calls.map((c) => c.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
  });
});
