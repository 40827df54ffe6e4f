// Stream assembly of the Gemini provider over real loopback HTTP: thought and text parts, whole function calls
// with their signatures, usage, failures, gcloud authentication and the history it replays.
import { afterEach, describe, expect, it } from 'vitest';
import { SecretRedactor } from '../../reference-shim/output/redact.js';
import { GeminiProvider, geminiContents } from '../../reference-shim/providers/gemini.js';
import { GeminiAuth } from '../../reference-shim/providers/gemini-auth.js';
import type { HistoryEntry } from '../../reference-shim/session/history.js';
import { type ByteServer, shred, sse, startByteServer } from './helpers/byte-server.js';
import { collect, done, failure, texts } from './helpers/provider-stream.js';

let server: ByteServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
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
