// Every fault, seen through the official SDKs: the error class and status a real API would produce.
import { describe, expect, test } from 'vitest';
import { DUMMY_CREDENTIALS } from '../../harness/mock/credentials.js';
import {
  type HttpFaultStatus,
  MOCK_PROVIDER_IDS,
  type MockProviderId,
  type ModelResponse,
} from '../../harness/mock/scenario/scenario-types.js';
import { mockServersClosedAfterEach } from './helpers/mock-servers.js';
import { oneTurn } from './helpers/scenario-fixtures.js';
import { driveWithSdk, sdkFailure } from './helpers/sdk-drivers.js';

const start = mockServersClosedAfterEach();
const text: ModelResponse = { text: ['Hello ', 'after ', 'all.'], usage: { input_tokens: 9, output_tokens: 3 } };

/** Error class each SDK raises per status (openai and anthropic share the names; Gemini has one class). */
const CLASS: Record<number, string> = {
  400: 'BadRequestError',
  401: 'AuthenticationError',
  403: 'PermissionDeniedError',
  404: 'NotFoundError',
  429: 'RateLimitError',
  500: 'InternalServerError',
  503: 'InternalServerError',
};
const expectedClass = (provider: MockProviderId, status: number): string =>
  provider === 'gemini' ? 'ApiError' : CLASS[status]!;
/** The error envelope field that names the error kind, per provider. */
const ERROR_KIND: Record<MockProviderId, (body: any) => string> = {
  'openai-chat': (body) => body.error.type,
  'openai-responses': (body) => body.error.type,
  gemini: (body) => body.error.status,
  anthropic: (body) => body.error.type,
};
const EXPECTED_KIND: Record<number, Record<'openai' | 'gemini' | 'anthropic', string>> = {
  400: { openai: 'invalid_request_error', gemini: 'INVALID_ARGUMENT', anthropic: 'invalid_request_error' },
  401: { openai: 'invalid_request_error', gemini: 'UNAUTHENTICATED', anthropic: 'authentication_error' },
  403: { openai: 'invalid_request_error', gemini: 'PERMISSION_DENIED', anthropic: 'permission_error' },
  404: { openai: 'invalid_request_error', gemini: 'NOT_FOUND', anthropic: 'not_found_error' },
  429: { openai: 'requests', gemini: 'RESOURCE_EXHAUSTED', anthropic: 'rate_limit_error' },
  500: { openai: 'server_error', gemini: 'INTERNAL', anthropic: 'api_error' },
  503: { openai: 'server_error', gemini: 'UNAVAILABLE', anthropic: 'api_error' },
};
const family = (provider: MockProviderId): 'openai' | 'gemini' | 'anthropic' =>
  provider.startsWith('openai') ? 'openai' : provider === 'gemini' ? 'gemini' : 'anthropic';

describe.each(MOCK_PROVIDER_IDS)('%s', (provider) => {
  test.each([400, 401, 403, 404] as const)(
    'HTTP %i: the SDK raises the real error class and does not retry',
    async (status) => {
      const server = await start({ scenario: oneTurn('fatal', [{ fault: { kind: 'http', status } }, text]) });
      const failure = await sdkFailure(() => driveWithSdk(provider, { baseUrls: server.baseUrls, maxRetries: 2 }));
      expect(failure.name).toBe(expectedClass(provider, status));
      expect(failure.status).toBe(status);
      const requests = server.requests();
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({ outcome: 'http-fault', status });
    },
  );

  test.each([429, 500, 503] as const)('HTTP %i then success: one SDK retry gets the answer', async (status) => {
    const server = await start({ scenario: oneTurn('retry', [{ fault: { kind: 'http', status } }, text]) });
    if (provider === 'gemini') {
      // @google/genai does not retry by default: it surfaces the first error.
      const failure = await sdkFailure(() => driveWithSdk(provider, { baseUrls: server.baseUrls }));
      expect(failure).toMatchObject({ name: 'ApiError', status });
      return;
    }
    const got = await driveWithSdk(provider, { baseUrls: server.baseUrls, maxRetries: 1 });
    expect(got.text).toBe('Hello after all.');
    expect(server.requests().map((request) => request.outcome)).toEqual(['http-fault', 'stream']);
  });

  test('repeat: an exhausted 500 is answered on every attempt', async () => {
    const server = await start({
      scenario: oneTurn('exhausted', [{ fault: { kind: 'http', status: 500 }, repeat: 2 }]),
    });
    const failure = await sdkFailure(() => driveWithSdk(provider, { baseUrls: server.baseUrls, maxRetries: 1 }));
    expect(failure).toMatchObject({ name: expectedClass(provider, 500), status: 500 });
    expect(server.requests().map((request) => request.outcome)).toEqual(
      provider === 'gemini' ? ['http-fault'] : ['http-fault', 'http-fault'],
    );
  });

  test('stream cut mid-event: the SDK fails, the server records an incomplete response', async () => {
    const server = await start({ scenario: oneTurn('cut', [{ ...text, fault: { kind: 'cut' } }]) });
    const failure = await sdkFailure(() => driveWithSdk(provider, { baseUrls: server.baseUrls }));
    expect(failure.message).toMatch(/terminated|other side closed|socket|connection|incomplete/i);
    expect(server.requests()[0]).toMatchObject({ outcome: 'stream', completed: false, closedByClient: false });
  });

  test('malformed chunk: the SDK fails on the broken JSON', async () => {
    const server = await start({ scenario: oneTurn('malformed', [{ ...text, fault: { kind: 'malformed' } }]) });
    const failure = await sdkFailure(() => driveWithSdk(provider, { baseUrls: server.baseUrls }));
    expect(failure.message).toMatch(/JSON|Unexpected|parsing|Unterminated|position/i);
  });

  test("mid-stream error: the SDK raises the provider's API error", async () => {
    const server = await start({ scenario: oneTurn('midstream', [{ ...text, fault: { kind: 'mid-stream-error' } }]) });
    const failure = await sdkFailure(() => driveWithSdk(provider, { baseUrls: server.baseUrls }));
    if (provider === 'openai-responses') {
      // The SDK's ResponseStream rejects with the `error` event itself (type "error", code, message).
      expect(failure).toMatchObject({ type: 'error', code: 'server_error' });
      return;
    }
    expect(failure.name).toBe(provider === 'gemini' ? 'ApiError' : 'APIError');
    if (provider === 'anthropic') expect(failure.type).toBe('overloaded_error');
    if (provider === 'gemini') expect(failure.status).toBe(500);
  });

  test('error bodies: real envelope, kind and retry-after header', async () => {
    for (const status of [400, 401, 403, 404, 429, 500, 503] as HttpFaultStatus[]) {
      const server = await start({
        scenario: oneTurn('bodies', [
          { fault: { kind: 'http', status, ...(status === 429 ? { retryAfter: 1 } : {}) } },
        ]),
      });
      const response = await rawRequest(provider, server.url);
      expect(response.status).toBe(status);
      const body = (await response.json()) as any;
      expect(ERROR_KIND[provider](body)).toBe(EXPECTED_KIND[status]![family(provider)]);
      expect(response.headers.get('retry-after')).toBe(status === 429 ? '1' : status >= 500 ? '0' : null);
      if (provider === 'anthropic') expect(body.type).toBe('error');
      if (provider === 'gemini') expect(body.error.code).toBe(status);
    }
  });
});

describe('timing faults', () => {
  test('retry-after: 1 is what the SDK waits; the gap is recorded', async () => {
    const server = await start({
      scenario: oneTurn('retry-after', [{ fault: { kind: 'http', status: 429, retryAfter: 1 } }, text]),
    });
    await driveWithSdk('anthropic', { baseUrls: server.baseUrls, maxRetries: 1 });
    const [first, second] = server.requests();
    expect(second!.elapsedMs - first!.elapsedMs).toBeGreaterThanOrEqual(950);
  });

  test('stall: the stream stays open until the client aborts, and the close is recorded', async () => {
    const server = await start({ scenario: oneTurn('stall', [{ ...text, stall: 'after-first-text' }]) });
    const closed = new Promise((resolve) => server.events.once('client-closed', resolve));
    const controller = new AbortController();
    const response = await fetch(`${server.baseUrls.openai}/chat/completions`, {
      method: 'POST',
      signal: controller.signal,
      headers: { authorization: `Bearer ${DUMMY_CREDENTIALS.openaiApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [] }),
    });
    const reader = response.body!.getReader();
    let received = '';
    while (!received.includes('Hello ')) received += new TextDecoder().decode((await reader.read()).value);
    const more = await Promise.race([
      reader.read().then(() => 'data'),
      new Promise((resolve) => setTimeout(() => resolve('silence'), 300)),
    ]);
    expect(more).toBe('silence');
    controller.abort();
    await closed;
    expect(server.requests()[0]).toMatchObject({ closedByClient: true, completed: false });
  });

  test('gate: the rest of the stream waits for openGate(), after first-text-sent', async () => {
    const server = await start({ scenario: oneTurn('gate', [text]), gate: true });
    const firstText = new Promise((resolve) => server.events.once('first-text-sent', resolve));
    let finished = false;
    const run = driveWithSdk('anthropic', { baseUrls: server.baseUrls }).then((got) => {
      finished = true;
      return got;
    });
    expect(await firstText).toEqual({ index: 0, turn: 0, summary: false });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(finished).toBe(false);
    server.openGate();
    expect((await run).text).toBe('Hello after all.');
  });

  test('drip: chunks are spaced by gapMs', async () => {
    const server = await start({ scenario: oneTurn('drip', [{ ...text, fault: { kind: 'drip', gapMs: 30 } }]) });
    const started = performance.now();
    const got = await driveWithSdk('openai-chat', { baseUrls: server.baseUrls });
    expect(got.text).toBe('Hello after all.');
    // role + 3 text + finish + usage + [DONE] = 7 frames, 6 gaps
    expect(performance.now() - started).toBeGreaterThanOrEqual(6 * 30 - 10);
  });
});

describe('requests the script does not allow', () => {
  test('D1: a request that does not declare a called tool gets the provider 400 naming it', async () => {
    const server = await start({
      scenario: oneTurn('d1', [{ toolCalls: [{ id: 'r', name: 'Read', input: { file_path: 'x' } }] }]),
    });
    const failure = await sdkFailure(() =>
      driveWithSdk('openai-chat', { baseUrls: server.baseUrls, tools: ['read_file'] }),
    );
    expect(failure).toMatchObject({ name: 'BadRequestError', status: 400 });
    expect(failure.message).toContain('"Read"');
    expect(server.requests()[0]).toMatchObject({ outcome: 'tools-not-declared', missingTools: ['Read'] });
  });

  test('a request after the script is used up gets a 400 and is recorded as unscripted', async () => {
    const server = await start({ scenario: oneTurn('extra', [text]) });
    await driveWithSdk('gemini', { baseUrls: server.baseUrls });
    const failure = await sdkFailure(() => driveWithSdk('gemini', { baseUrls: server.baseUrls }));
    expect(failure).toMatchObject({ name: 'ApiError', status: 400 });
    expect(server.requests().map((request) => request.outcome)).toEqual(['stream', 'unscripted']);
  });
});

function rawRequest(
  provider: MockProviderId,
  url: string,
  headers?: Record<string, string>,
  query = '',
): Promise<Response> {
  const body = JSON.stringify({ model: 'm', stream: true, messages: [], contents: [], input: 'go' });
  const json = { 'content-type': 'application/json' };
  switch (provider) {
    case 'openai-chat':
      return fetch(`${url}/v1/chat/completions${query}`, {
        method: 'POST',
        body,
        headers: headers ?? { ...json, authorization: `Bearer ${DUMMY_CREDENTIALS.openaiApiKey}` },
      });
    case 'openai-responses':
      return fetch(`${url}/v1/responses${query}`, {
        method: 'POST',
        body,
        headers: headers ?? { ...json, authorization: `Bearer ${DUMMY_CREDENTIALS.openaiApiKey}` },
      });
    case 'anthropic':
      return fetch(`${url}/v1/messages${query}`, {
        method: 'POST',
        body,
        headers: headers ?? {
          ...json,
          'x-api-key': DUMMY_CREDENTIALS.anthropicApiKey,
          'anthropic-version': '2023-06-01',
        },
      });
    case 'gemini':
      return fetch(`${url}/v1beta/models/gemini-2.5-flash:streamGenerateContent${query || '?alt=sse'}`, {
        method: 'POST',
        body,
        headers: headers ?? { ...json, 'x-goog-api-key': DUMMY_CREDENTIALS.geminiApiKey },
      });
  }
}

describe('auth as the real APIs check it', () => {
  const cases: [MockProviderId, Record<string, string>, string, number, string][] = [
    ['openai-chat', {}, '', 401, "You didn't provide an API key"],
    ['openai-chat', { authorization: 'Bearer sk-wrong' }, '', 401, 'Incorrect API key'],
    ['openai-responses', { authorization: 'Bearer sk-wrong' }, '', 401, 'Incorrect API key'],
    ['anthropic', { 'anthropic-version': '2023-06-01' }, '', 401, 'x-api-key header is required'],
    ['anthropic', { 'x-api-key': 'wrong', 'anthropic-version': '2023-06-01' }, '', 401, 'invalid x-api-key'],
    ['anthropic', { 'x-api-key': DUMMY_CREDENTIALS.anthropicApiKey }, '', 400, 'anthropic-version'],
    ['gemini', {}, '?alt=sse', 403, 'unregistered callers'],
    ['gemini', { 'x-goog-api-key': 'wrong' }, '?alt=sse', 400, 'API key not valid'],
    ['gemini', { authorization: 'Bearer ya29.wrong' }, '?alt=sse', 401, 'invalid authentication credentials'],
  ];
  test.each(cases)('%s %j%s -> %i', async (provider, headers, query, status, message) => {
    const server = await start({ scenario: oneTurn('auth', [text]) });
    const response = await rawRequest(provider, server.url, { 'content-type': 'application/json', ...headers }, query);
    expect(response.status).toBe(status);
    expect(await response.text()).toContain(message);
    expect(server.requests()[0]).toMatchObject({ outcome: 'auth-rejected', provider });
  });

  test.each([
    ['?alt=sse&key=yume-conformance-gemini-dummy', {}],
    ['?alt=sse', { authorization: `Bearer ${DUMMY_CREDENTIALS.gcloudAccessToken}` }],
  ])('gemini accepts ?key= and a gcloud Bearer token (%s)', async (query, headers) => {
    const server = await start({ scenario: oneTurn('auth-ok', [text]) });
    const response = await rawRequest('gemini', server.url, { 'content-type': 'application/json', ...headers }, query);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"text":"Hello "');
  });
});
