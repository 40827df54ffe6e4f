// Stream assembly of the OpenAI Chat Completions provider over real loopback HTTP: deltas, tool-call fragments
// joined only when complete, usage, request shape, every failure classified as R5 needs it, and connection reuse.
import { afterEach, describe, expect, it } from 'vitest';
import { chatMessages, OpenAIChatProvider } from '../../reference-shim/providers/openai-chat.js';
import type { HistoryEntry } from '../../reference-shim/session/history.js';
import { type ByteServer, type ScriptedReply, shred, sse, startByteServer } from './helpers/byte-server.js';
import { chat, collect, done, failure, HISTORY, TOOLS, texts } from './helpers/provider-stream.js';

let server: ByteServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// ---------------------------------------------------------------- OpenAI Chat Completions
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
