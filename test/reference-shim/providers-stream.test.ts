// Stream assembly per provider over real loopback HTTP: deltas, fragments joined only when complete, usage,
// request shape (auth, tools, usage requested), and every failure classified as R5 needs it.
import { afterEach, describe, expect, it } from 'vitest';
import { SecretRedactor } from '../../reference-shim/output/redact.js';
import { AnthropicProvider, anthropicMessages } from '../../reference-shim/providers/anthropic.js';
import { GeminiAuth } from '../../reference-shim/providers/gemini-auth.js';
import { GeminiProvider, geminiContents } from '../../reference-shim/providers/gemini.js';
import { OpenAIChatProvider, chatMessages } from '../../reference-shim/providers/openai-chat.js';
import { OpenAIResponsesProvider } from '../../reference-shim/providers/openai-responses.js';
import { ProviderError, type ModelProvider, type ModelStreamEvent } from '../../reference-shim/providers/provider.js';
import { createProvider, usesResponsesApi } from '../../reference-shim/providers/registry.js';
import type { HistoryEntry } from '../../reference-shim/session/history.js';
import { namedSse, shred, sse, startByteServer, type ByteServer, type ScriptedReply } from './helpers/byte-server.js';

let server: ByteServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOOLS = [
  {
    name: 'Read',
    description: 'read',
    parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
  },
];
const HISTORY: HistoryEntry[] = [{ role: 'user', content: 'hi' }];

async function collect(
  provider: ModelProvider,
  history: HistoryEntry[] = HISTORY,
  signal = new AbortController().signal,
): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of provider.stream({ model: 'm-1', system: 'sys', history, tools: TOOLS, signal }))
    events.push(event);
  return events;
}

async function failure(provider: ModelProvider): Promise<ProviderError> {
  try {
    await collect(provider);
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error('the stream did not fail');
}

const done = (events: ModelStreamEvent[]) => {
  const last = events[events.length - 1];
  expect(last?.type).toBe('done');
  return (last as Extract<ModelStreamEvent, { type: 'done' }>).message;
};
const texts = (events: ModelStreamEvent[]) =>
  events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text);

// ---------------------------------------------------------------- OpenAI Chat Completions
const chat = (delta: unknown, finish: string | null = null) =>
  sse({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });

async function chatProvider(replies: ScriptedReply[]): Promise<OpenAIChatProvider> {
  server = await startByteServer(replies);
  return new OpenAIChatProvider('openai', { baseUrl: `${server.url}/v1`, apiKey: 'sk-test-key-123456789' });
}

describe('OpenAI Chat Completions', () => {
  it('streams text, joins interleaved tool-call fragments per index, and reads usage (cached tokens apart)', async () => {
    const body = [
      chat({ role: 'assistant', content: '' }),
      chat({ content: 'Hel' }),
      chat({ content: 'lo' }),
      chat({ tool_calls: [{ index: 0, id: 'call_A', type: 'function', function: { name: 'Read', arguments: '' } }] }),
      chat({
        tool_calls: [{ index: 1, id: 'call_B', type: 'function', function: { name: 'Read', arguments: '{"file_' } }],
      }),
      chat({ tool_calls: [{ index: 0, function: { arguments: '{"file_path":' } }] }),
      chat({ tool_calls: [{ index: 1, function: { arguments: 'path":"b"}' } }] }),
      chat({ tool_calls: [{ index: 0, function: { arguments: '"a"}' } }] }),
      chat({}, 'tool_calls'),
      sse({
        id: 'c',
        choices: [],
        usage: { prompt_tokens: 30, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 10 } },
      }),
      sse('[DONE]'),
    ].join('');
    const provider = await chatProvider([{ chunks: shred(body, 37) }]);
    const events = await collect(provider);
    expect(texts(events)).toEqual(['Hel', 'lo']);
    expect(done(events)).toEqual({
      text: 'Hello',
      thinking: [],
      toolCalls: [
        { id: 'call_A', name: 'Read', argumentsText: '{"file_path":"a"}' },
        { id: 'call_B', name: 'Read', argumentsText: '{"file_path":"b"}' },
      ],
      usage: { inputTokens: 20, outputTokens: 7, cacheReadTokens: 10 },
      stopReason: 'tool_use',
    });
    const call = server!.calls[0]!;
    expect(call.path).toBe('/v1/chat/completions');
    expect(call.headers.authorization).toBe('Bearer sk-test-key-123456789');
    expect(call.body).toMatchObject({ model: 'm-1', stream: true, stream_options: { include_usage: true } });
    expect(call.body.tools[0]).toEqual({
      type: 'function',
      function: TOOLS[0] && { name: 'Read', description: 'read', parameters: TOOLS[0].parameters },
    });
    expect(call.body.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('accepts a stream with finish_reason but no [DONE]; reports no usage when none came', async () => {
    const provider = await chatProvider([{ chunks: [chat({ content: 'x' }), chat({}, 'stop')] }]);
    const message = done(await collect(provider));
    expect(message.usage).toBeUndefined();
    expect(message.stopReason).toBe('end_turn');
  });

  it('classifies failures: cut, reset, malformed chunk, in-stream error, 401, 429 with retry-after-ms, 400', async () => {
    expect((await failure(await chatProvider([{ chunks: [chat({ content: 'x' })] }]))).kind).toBe('stream');
    await server!.close();
    expect((await failure(await chatProvider([{ chunks: [chat({ content: 'x' })], reset: true }]))).kind).toBe(
      'stream',
    );
    await server!.close();
    const malformed = await failure(
      await chatProvider([{ chunks: [chat({ content: 'x' }), 'data: {"choices":[{"delta":\n\n'] }]),
    );
    expect(malformed.kind).toBe('stream');
    expect(malformed.message).toContain('malformed');
    await server!.close();
    const midStream = await failure(
      await chatProvider([{ chunks: [chat({ content: 'x' }), sse({ error: { message: 'server had an error' } })] }]),
    );
    expect(midStream).toMatchObject({ kind: 'stream', message: expect.stringContaining('server had an error') });
    await server!.close();
    const auth = await failure(
      await chatProvider([
        {
          status: 401,
          headers: { 'content-type': 'application/json' },
          chunks: ['{"error":{"message":"Incorrect API key provided"}}'],
        },
      ]),
    );
    expect(auth).toMatchObject({ kind: 'auth', details: { status: 401 } });
    expect(auth.message).toContain('Incorrect API key provided');
    await server!.close();
    const limited = await failure(
      await chatProvider([
        { status: 429, headers: { 'retry-after-ms': '1500' }, chunks: ['{"error":{"message":"slow down"}}'] },
      ]),
    );
    expect(limited).toMatchObject({ kind: 'retryable', details: { status: 429, retryAfterMs: 1500 } });
    await server!.close();
    expect((await failure(await chatProvider([{ status: 400, chunks: ['{"error":{"message":"bad"}}'] }]))).kind).toBe(
      'request',
    );
  });

  it('replays history with tool calls (raw invalid arguments kept) and tool results under the provider ids', () => {
    const history: HistoryEntry[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'call_1', name: 'Read', input: { file_path: 'a' } },
          {
            id: 'call_2_1',
            wireId: 'call_2',
            name: 'Read',
            input: { _invalid_arguments: '{bad' },
            rawArguments: '{bad',
          },
        ],
      },
      { role: 'tool', toolCallId: 'call_1', name: 'Read', content: 'A' },
      { role: 'tool', toolCallId: 'call_2_1', wireId: 'call_2', name: 'Read', content: 'err', isError: true },
    ];
    expect(chatMessages('s', history).slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'Read', arguments: '{"file_path":"a"}' } },
          { id: 'call_2', type: 'function', function: { name: 'Read', arguments: '{bad' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'A' },
      { role: 'tool', tool_call_id: 'call_2', content: 'err' },
    ]);
  });

  it('gives up on a stream that stays silent longer than the idle limit', async () => {
    const previous = process.env.YUME_SHIM_IDLE_TIMEOUT_MS;
    process.env.YUME_SHIM_IDLE_TIMEOUT_MS = '300';
    try {
      const provider = await chatProvider([{ chunks: [chat({ content: 'first' })], hold: true }]);
      const started = Date.now();
      const error = await failure(provider);
      expect(error).toMatchObject({ kind: 'stream', message: expect.stringContaining('stalled') });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      if (previous === undefined) delete process.env.YUME_SHIM_IDLE_TIMEOUT_MS;
      else process.env.YUME_SHIM_IDLE_TIMEOUT_MS = previous;
    }
  });

  it('closes the connection when the consumer is aborted', async () => {
    const provider = await chatProvider([{ chunks: [chat({ content: 'first' })], hold: true }]);
    const controller = new AbortController();
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of provider.stream({
          model: 'm',
          system: 's',
          history: HISTORY,
          tools: [],
          signal: controller.signal,
        })) {
          if (event.type === 'text') {
            seen.push(event.text);
            controller.abort();
          }
        }
      })(),
    ).rejects.toMatchObject({ kind: 'aborted' });
    expect(seen).toEqual(['first']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server!.calls[0]!.closedByClient).toBe(true);
  });

  const finished = (text: string): string[] => [chat({ content: text }), chat({}, 'stop'), sse('[DONE]')];

  it('reuses the connection for the next model call once a stream has ended', async () => {
    const provider = await chatProvider([
      { chunks: finished('one') },
      { chunks: finished('two') },
      { chunks: finished('three') },
    ]);
    for (const expected of ['one', 'two', 'three']) expect(done(await collect(provider)).text).toBe(expected);
    expect(server!.calls).toHaveLength(3);
    expect(server!.connections).toBe(1);
  });

  it('reuses the connection when the shim was held up past its wait for the end of the last body', async () => {
    // The end of the first body comes 10 ms after [DONE]; this thread (the shim's) is busy for 50 ms just as
    // the next call starts waiting up to 20 ms for that connection. When the thread runs again both timers are
    // due: the end of the body has been sent but not read yet. The wait must read it before giving up.
    const provider = await chatProvider([{ chunks: finished('one'), tailDelayMs: 10 }, { chunks: finished('two') }]);
    expect(done(await collect(provider)).text).toBe('one');
    const next = collect(provider);
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        const until = performance.now() + 50;
        while (performance.now() < until) {
          // held up: no timer runs, no socket is read
        }
        resolve();
      }, 1),
    );
    expect(done(await next).text).toBe('two');
    expect(server!.connections).toBe(1);
  });

  it('reuses the connection when the body ends in the same write as [DONE] (nothing left to drain)', async () => {
    const provider = await chatProvider([
      { chunks: finished('one'), endWithLastChunk: true },
      { chunks: finished('two'), endWithLastChunk: true },
    ]);
    for (const expected of ['one', 'two']) expect(done(await collect(provider)).text).toBe(expected);
    expect(server!.connections).toBe(1);
    expect(server!.calls.map((call) => call.closedByClient)).toEqual([false, false]);
  });

  it('does not wait for a body that stays open after [DONE]: the next call opens another connection, the held one is cut', async () => {
    const provider = await chatProvider([{ chunks: finished('held'), hold: true }, { chunks: finished('next') }]);
    const started = Date.now();
    expect(done(await collect(provider)).text).toBe('held');
    expect(done(await collect(provider)).text).toBe('next');
    expect(Date.now() - started).toBeLessThan(800); // the held body cost the second call at most a short wait
    expect(server!.connections).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1300)); // the drain's grace period
    expect(server!.calls[0]!.closedByClient).toBe(true);
  });
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
describe('Gemini', () => {
  const redactor = new SecretRedactor({});
  const gemini = (env: NodeJS.ProcessEnv) =>
    new GeminiProvider('gemini', { baseUrl: server!.url, credentials: new GeminiAuth(env, redactor) });

  it('streams thought and text parts, keeps function calls whole with their thoughtSignature, last usage wins', async () => {
    const body = [
      sse({
        candidates: [{ content: { role: 'model', parts: [{ text: 'Pondering.', thought: true }] } }],
        usageMetadata: { promptTokenCount: 5 },
      }),
      sse({ candidates: [{ content: { role: 'model', parts: [{ text: 'Reading ' }] } }] }),
      sse({ candidates: [{ content: { role: 'model', parts: [{ text: 'files.' }] } }] }),
      sse({
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { name: 'Read', args: { file_path: 'a' } }, thoughtSignature: 'c2lnLTE=' },
                { functionCall: { name: 'Read', args: { file_path: 'b' }, id: 'g-2' } },
              ],
            },
            finishReason: 'STOP',
          },
        ],
        usageMetadata: {
          promptTokenCount: 40,
          candidatesTokenCount: 12,
          thoughtsTokenCount: 3,
          cachedContentTokenCount: 10,
        },
      }),
    ].join('');
    server = await startByteServer([{ chunks: shred(body, 29) }]);
    const events = await collect(gemini({ GEMINI_API_KEY: 'gem-key-123456' }));
    expect(texts(events)).toEqual(['Reading ', 'files.']);
    expect(done(events)).toEqual({
      text: 'Reading files.',
      textSignature: undefined,
      thinking: [{ text: 'Pondering.' }],
      toolCalls: [
        { wireId: undefined, name: 'Read', input: { file_path: 'a' }, signature: 'c2lnLTE=' },
        { wireId: 'g-2', name: 'Read', input: { file_path: 'b' }, signature: undefined },
      ],
      usage: { inputTokens: 30, outputTokens: 15, cacheReadTokens: 10 },
      stopReason: 'tool_use',
    });
    const call = server.calls[0]!;
    expect(call.path).toBe('/v1beta/models/m-1:streamGenerateContent?alt=sse');
    expect(call.headers['x-goog-api-key']).toBe('gem-key-123456');
    expect(call.body.systemInstruction).toEqual({ parts: [{ text: 'sys' }] });
    expect(call.body.tools[0].functionDeclarations[0]).toEqual({
      name: 'Read',
      description: 'read',
      parameters: { type: 'OBJECT', properties: { file_path: { type: 'STRING' } }, required: ['file_path'] },
    });
  });

  it('treats a bare JSON error chunk as a mid-stream error, and a stream without finishReason as cut', async () => {
    server = await startByteServer([
      {
        chunks: [
          sse({ candidates: [{ content: { parts: [{ text: 'Hi' }] } }] }),
          '{"error": {"code": 500,\n "message": "An internal error has occurred.", "status": "INTERNAL"}}\n',
        ],
      },
      { chunks: [sse({ candidates: [{ content: { parts: [{ text: 'Hi' }] } }] })] },
    ]);
    const provider = gemini({ GEMINI_API_KEY: 'gem-key-123456' });
    expect(await failure(provider)).toMatchObject({
      kind: 'stream',
      message: expect.stringContaining('An internal error has occurred.'),
    });
    expect(await failure(provider)).toMatchObject({ kind: 'stream', message: expect.stringContaining('finishReason') });
  });

  it('without an API key, authenticates with the token gcloud prints (Bearer) and redacts it later', async () => {
    const { mkdtempSync, writeFileSync, chmodSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const bin = mkdtempSync(path.join(os.tmpdir(), 'fake-gcloud-'));
    const script = path.join(bin, 'gcloud');
    writeFileSync(
      script,
      '#!/bin/sh\n[ "$1 $2" = "auth print-access-token" ] && echo ya29.test-token-abcdef && exit 0\nexit 1\n',
    );
    chmodSync(script, 0o755);
    server = await startByteServer([
      { chunks: [sse({ candidates: [{ content: { parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] })] },
    ]);
    const localRedactor = new SecretRedactor({});
    const provider = new GeminiProvider('gemini', {
      baseUrl: server.url,
      credentials: new GeminiAuth({ PATH: `${bin}:${process.env.PATH}` }, localRedactor),
    });
    await collect(provider);
    expect(server.calls[0]!.headers.authorization).toBe('Bearer ya29.test-token-abcdef');
    expect(localRedactor.redact('token ya29.test-token-abcdef')).toBe('token [REDACTED]');
  });

  it('reports missing credentials (no key, no gcloud) as an auth error', async () => {
    server = await startByteServer([]);
    const error = await failure(gemini({ PATH: '/nonexistent' }));
    expect(error.kind).toBe('auth');
    expect(error.message).toContain('GEMINI_API_KEY');
  });

  it('replays function calls with their signatures and groups results in one user turn', () => {
    const history: HistoryEntry[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: 'Reading.',
        textSignature: 'dGV4dA==',
        toolCalls: [
          { id: 'call_gemini_1', name: 'Read', input: { file_path: 'a' }, signature: 'c2lnLTE=' },
          { id: 'call_gemini_2', wireId: 'g-2', name: 'Read', input: { file_path: 'b' } },
        ],
      },
      { role: 'tool', toolCallId: 'call_gemini_1', name: 'Read', content: 'A' },
      { role: 'tool', toolCallId: 'call_gemini_2', wireId: 'g-2', name: 'Read', content: 'nope', isError: true },
    ];
    expect(geminiContents(history)).toEqual([
      { role: 'user', parts: [{ text: 'go' }] },
      {
        role: 'model',
        parts: [
          { text: 'Reading.', thoughtSignature: 'dGV4dA==' },
          { functionCall: { name: 'Read', args: { file_path: 'a' } }, thoughtSignature: 'c2lnLTE=' },
          { functionCall: { name: 'Read', args: { file_path: 'b' }, id: 'g-2' } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'Read', response: { output: 'A' } } },
          { functionResponse: { name: 'Read', id: 'g-2', response: { error: 'nope' } } },
        ],
      },
    ]);
  });
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

  it('answers copilot with a pointer to --provider openai --api-base', async () => {
    await expect(
      createProvider({ provider: 'copilot', model: 'x', env: {}, redactor: new SecretRedactor({}) }),
    ).rejects.toThrow(/--provider openai --api-base/);
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
