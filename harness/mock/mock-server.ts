// The loopback mock provider: msw handlers answered through getResponse() behind node:http on 127.0.0.1
// (not @mswjs/http-middleware: it crashes when a stream fails mid-body, and failing mid-body is the point).
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { getResponse, http, HttpResponse, type RequestHandler } from 'msw';
import { type AcceptedCredentials, defaultAcceptedCredentials } from './credentials.js';
import {
  authErrorReply,
  geminiInvalidTokenReply,
  type HttpErrorReply,
  providerErrorReply,
  toolsNotDeclaredReply,
  unscriptedReply,
} from './error-bodies.js';
import { type ChunkMode, responseSeed, seededRandom, splitAtRandomOffsets } from './rechunk.js';
import type { WireRenderContext } from './render-context.js';
import { renderAnthropicJson, renderAnthropicStream } from './render-anthropic.js';
import { renderGeminiJson, renderGeminiJsonArray, renderGeminiSse } from './render-gemini.js';
import { renderOpenAIChatJson, renderOpenAIChatStream } from './render-openai-chat.js';
import { renderOpenAIResponsesJson, renderOpenAIResponsesStream } from './render-openai-responses.js';
import { mapToolsToDeclared } from './map-tools.js';
import { requestView } from './request-views.js';
import type { MockProviderId, ModelResponse, Scenario } from './scenario-types.js';
import { buildStreamPlan, type PlanStep } from './stream-plan.js';
import type { WireFrame } from './wire-frames.js';

export interface MockServerOptions {
  scenario: Scenario;
  /** The provider under test (what checks and `serve` focus on). Every provider's endpoints are served. */
  provider?: MockProviderId;
  /** Re-chunk every stream at offsets drawn from this seed (deterministic). */
  seed?: number;
  /** Overrides the split: 'every-offset' writes one byte at a time (opt-in, slow). Default: seeded when `seed` is set. */
  chunking?: 'frames' | 'seeded' | 'every-offset';
  /** Withhold the rest of each stream after its first text chunk until openGate(). */
  gate?: boolean;
  /** 0 (default) = a random free port. */
  port?: number;
  /** When a turn's responses are used up, move on to the next turn by itself (for `serve`). */
  autoAdvance?: boolean;
  acceptedCredentials?: Partial<AcceptedCredentials>;
  /** Safety bound for a stalled stream that nobody closes (default 120 s). */
  stallTimeoutMs?: number;
  /** Largest request body accepted (default DEFAULT_MAX_BODY_BYTES); a larger one is answered 413 unread. */
  maxBodyBytes?: number;
  /** Answer with the tools the request declares when it lacks the scripted app names (map-tools.ts). */
  mapTools?: boolean;
}

/** Default request body limit: far above any real conversation, far below what would exhaust the runner. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

export type RequestOutcome =
  | 'stream' // a scripted streaming answer
  | 'json' // a scripted non-streaming answer
  | 'http-fault' // a scripted HTTP error
  | 'auth-rejected' // credentials missing or wrong
  | 'tools-not-declared' // D1: a tool the script calls is not declared
  | 'unscripted' // more requests than the script answers
  | 'no-route' // not an endpoint of any mocked API
  | 'bad-body' // body is not JSON
  | 'body-too-large'; // body over maxBodyBytes: answered 413, not read

export interface RecordedRequest {
  /** 0-based arrival order within this server. */
  index: number;
  provider: MockProviderId | undefined;
  method: string;
  path: string;
  /** Raw query string including '?', or ''. */
  query: string;
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when absent or not JSON; see rawBody). */
  body: unknown;
  rawBody: string;
  /** 0-based turn the request was answered in. */
  turn: number;
  /** Which scripted response of the turn answered it, and how often that response had been served before. */
  responseIndex?: number;
  attempt?: number;
  /** Arrival: epoch ms, and ms since the server started. */
  time: number;
  elapsedMs: number;
  outcome: RequestOutcome;
  status: number;
  missingTools?: string[];
  /** The client closed the connection before the response was complete. */
  closedByClient: boolean;
  closedAtMs?: number;
  /** The response was written completely (false for cuts, stalls and client aborts). */
  completed: boolean;
}

export interface MockServer {
  url: string;
  baseUrls: { openai: string; anthropic: string; gemini: string };
  port: number;
  setTurn(index: number): void;
  currentTurn(): number;
  openGate(): void;
  requests(): RecordedRequest[];
  /** 'request' (RecordedRequest), 'first-text-sent' ({ index, turn }), 'client-closed' (RecordedRequest), 'response-end' (RecordedRequest). */
  events: EventEmitter;
  close(): Promise<void>;
}

const INDEX_HEADER = 'x-yume-mock-request-index';
const HOST = '127.0.0.1';

interface TurnCursor {
  response: number;
  served: number;
  /** The turn's last response (a cut or malformed stream) was served again: to a streamed retry, to a non-streamed fallback. */
  replayedStreamed: boolean;
  replayedFallback: boolean;
}

/**
 * A call cut off before it completed (stream cut, malformed chunk) may be retried once, and a client may fall back
 * once to a non-streamed request for it (as Claude Code does); each meets the same fault again. Anything beyond
 * that is unscripted.
 */
function replayable(response: ModelResponse | undefined): boolean {
  return response?.fault?.kind === 'cut' || response?.fault?.kind === 'malformed';
}

export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  const { scenario } = options;
  const credentials: AcceptedCredentials = { ...defaultAcceptedCredentials(), ...options.acceptedCredentials };
  const chunkMode: ChunkMode =
    options.chunking === 'every-offset'
      ? { kind: 'every-offset' }
      : options.chunking === 'frames' || options.seed === undefined
        ? { kind: 'frames' }
        : { kind: 'seeded', seed: options.seed };
  const stallTimeoutMs = options.stallTimeoutMs ?? 120_000;
  const events = new EventEmitter();
  events.setMaxListeners(100);
  const recorded: RecordedRequest[] = [];
  const startedAt = performance.now();
  let turn = 0;
  const cursors = scenario.turns.map(
    (): TurnCursor => ({ response: 0, served: 0, replayedStreamed: false, replayedFallback: false }),
  );
  let gateOpen = false;
  let gateWaiters: (() => void)[] = [];
  const stopWaiters = new Set<() => void>();
  let closing = false;

  /** Picks the scripted response for the next request of the current turn (advancing when allowed). */
  const peekResponse = (
    stream: boolean,
  ): { response: ModelResponse; index: number; attempt: number; replay?: 'streamed' | 'fallback' } | undefined => {
    for (;;) {
      const responses = scenario.turns[turn]?.responses ?? [];
      const cursor = cursors[turn];
      if (cursor && cursor.response < responses.length) {
        return { response: responses[cursor.response]!, index: cursor.response, attempt: cursor.served };
      }
      if (cursor && replayable(responses.at(-1)) && !(stream ? cursor.replayedStreamed : cursor.replayedFallback)) {
        const attempt = 1 + Number(cursor.replayedStreamed) + Number(cursor.replayedFallback);
        return {
          response: responses.at(-1)!,
          index: responses.length - 1,
          attempt,
          replay: stream ? 'streamed' : 'fallback',
        };
      }
      if (options.autoAdvance && turn + 1 < scenario.turns.length) {
        turn += 1;
        continue;
      }
      return undefined;
    }
  };
  const consumeResponse = (replay: 'streamed' | 'fallback' | undefined): void => {
    const cursor = cursors[turn]!;
    if (replay === 'streamed') cursor.replayedStreamed = true;
    if (replay === 'fallback') cursor.replayedFallback = true;
    if (replay) return;
    const responses = scenario.turns[turn]!.responses;
    const response = responses[cursor.response]!;
    cursor.served += 1;
    if (cursor.served >= (response.repeat ?? 1)) {
      cursor.response += 1;
      cursor.served = 0;
    }
  };

  const handlerFor =
    (provider: MockProviderId) =>
    async ({ request }: { request: Request }): Promise<Response> => {
      const entry = recorded[Number(request.headers.get(INDEX_HEADER))]!;
      entry.provider = provider;
      const reject = (outcome: RequestOutcome, reply: HttpErrorReply): Response => {
        entry.outcome = outcome;
        entry.status = reply.status;
        return HttpResponse.json(reply.body as Record<string, unknown>, {
          status: reply.status,
          headers: reply.headers,
        });
      };
      const authFailure = checkAuth(provider, entry, credentials);
      if (authFailure) return reject('auth-rejected', authFailure);
      if (entry.body === undefined) {
        return reject(
          'bad-body',
          providerErrorReply(provider, 400, { message: 'We could not parse the JSON body of your request.' }),
        );
      }
      const view = requestView(provider, entry.body, entry.path);
      const model = view.model ?? 'unknown-model';
      const next = peekResponse(view.stream);
      entry.turn = turn;
      if (!next)
        return reject('unscripted', unscriptedReply(provider, turn, scenario.turns[turn]?.responses.length ?? 0));
      // The real-CLI mode and `serve --map-tools` answer with the CLI's own tools (map-tools.ts).
      const scripted = options.mapTools
        ? mapToolsToDeclared(provider, next.response, view.declaredTools)
        : next.response;
      const called = [...new Set((scripted.toolCalls ?? []).map((call) => call.name))];
      const missing = called.filter((name) => !view.declaredTools.includes(name));
      if (missing.length > 0) {
        entry.missingTools = missing;
        return reject('tools-not-declared', toolsNotDeclaredReply(provider, missing, view.declaredTools));
      }
      consumeResponse(next.replay);
      entry.responseIndex = next.index;
      entry.attempt = next.attempt;
      const fault = scripted.fault;
      if (fault?.kind === 'http') {
        return reject(
          'http-fault',
          providerErrorReply(provider, fault.status, { model, message: fault.message, retryAfter: fault.retryAfter }),
        );
      }
      const ctx: WireRenderContext = {
        scenarioId: scenario.id,
        model,
        turn,
        responseIndex: next.index,
        attempt: next.attempt,
        includeUsage: view.includeUsage,
      };
      if (!view.stream) {
        entry.outcome = 'json';
        entry.status = 200;
        // A non-streamed answer is one body; in-stream faults become a cut/stall of that body.
        const json = JSON.stringify(renderJson(provider, scripted, ctx));
        return streamResponse(entry, [{ bytes: json }], scripted, provider, 'application/json');
      }
      entry.outcome = 'stream';
      entry.status = 200;
      const sse = !(provider === 'gemini' && new URLSearchParams(entry.query).get('alt') !== 'sse');
      const frames = renderStream(provider, scripted, ctx, sse);
      return streamResponse(entry, frames, scripted, provider, sse ? 'text/event-stream' : 'application/json');
    };

  const streamResponse = (
    entry: RecordedRequest,
    frames: WireFrame[],
    response: ModelResponse,
    provider: MockProviderId,
    contentType: string,
  ): Response => {
    const plan = buildStreamPlan(provider, frames, response);
    const encoder = new TextEncoder();
    const abort = new AbortController();
    const key = `${entry.turn}.${entry.responseIndex}.${entry.attempt}`;
    const random = chunkMode.kind === 'seeded' ? seededRandom(responseSeed(chunkMode.seed, key)) : undefined;
    const wait = (ms: number): Promise<void> =>
      new Promise((resolve) => {
        if (abort.signal.aborted) return resolve();
        const timer = setTimeout(done, ms);
        function done(): void {
          clearTimeout(timer);
          abort.signal.removeEventListener('abort', done);
          resolve();
        }
        abort.signal.addEventListener('abort', done, { once: true });
      });
    const untilStopped = (timeoutMs: number): Promise<void> =>
      new Promise((resolve) => {
        const finish = (): void => {
          stopWaiters.delete(finish);
          resolve();
        };
        stopWaiters.add(finish);
        void wait(timeoutMs).then(finish);
      });
    const body = new ReadableStream<Uint8Array>({
      start: async (controller) => {
        let first = true;
        const write = async (chunk: Uint8Array): Promise<void> => {
          if (abort.signal.aborted) return;
          // A pause between writes lets each chunk leave as its own TCP segment (split points are the test).
          if (!first) await (plan.gapMs > 0 ? wait(plan.gapMs) : new Promise<void>((resolve) => setImmediate(resolve)));
          first = false;
          if (!abort.signal.aborted) controller.enqueue(chunk);
        };
        // Consecutive byte steps form one segment, re-chunked as a whole (several events per chunk).
        const flush = async (pending: string[]): Promise<void> => {
          if (pending.length === 0) return;
          if (chunkMode.kind === 'frames') {
            for (const piece of pending) await write(encoder.encode(piece));
          } else {
            const bytes = encoder.encode(pending.join(''));
            const chunks =
              chunkMode.kind === 'every-offset'
                ? Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1))
                : splitAtRandomOffsets(bytes, random!);
            for (const chunk of chunks) await write(chunk);
          }
          pending.length = 0;
        };
        try {
          const pending: string[] = [];
          for (const step of plan.steps as PlanStep[]) {
            if (abort.signal.aborted) return;
            if (step.kind === 'bytes' && !step.atomic) {
              pending.push(step.bytes);
              continue;
            }
            await flush(pending);
            if (step.kind === 'bytes') {
              await wait(15); // an atomic chunk must not merge with the previous one
              await write(encoder.encode(step.bytes));
              await wait(15);
            } else if (step.kind === 'first-text') {
              events.emit('first-text-sent', { index: entry.index, turn: entry.turn });
              if (options.gate && !gateOpen) {
                // Released by openGate(), by close(), or by the client going away meanwhile.
                await new Promise<void>((resolve) => {
                  gateWaiters.push(resolve);
                  stopWaiters.add(resolve);
                  abort.signal.addEventListener('abort', () => resolve(), { once: true });
                });
              }
            } else if (step.kind === 'stall') {
              await untilStopped(stallTimeoutMs);
              if (!abort.signal.aborted) controller.close();
              return;
            } else if (step.kind === 'cut') {
              await new Promise<void>((resolve) => setTimeout(resolve, 5));
              controller.error(new Error('yume-conformance mock: stream cut mid-event'));
              return;
            }
          }
          await flush(pending);
          if (!abort.signal.aborted) {
            entry.completed = true;
            controller.close();
          }
        } catch (error) {
          if (!abort.signal.aborted) controller.error(error);
        }
      },
      cancel: () => abort.abort(),
    });
    return new HttpResponse(body, {
      status: 200,
      headers: { 'content-type': contentType, 'cache-control': 'no-cache', connection: 'keep-alive' },
    });
  };

  const handlers: RequestHandler[] = [
    http.post('*/v1/chat/completions', handlerFor('openai-chat')),
    http.post('*/v1/responses', handlerFor('openai-responses')),
    http.post('*/v1/messages', handlerFor('anthropic')),
    http.post(/\/(v1beta|v1|v1alpha)\/models\/[^/:]+:(streamGenerateContent|generateContent)$/, handlerFor('gemini')),
  ];

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => void serve(req, res));
  server.on('connection', (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const arrived = Date.now();
    const url = new URL(req.url ?? '/', `http://${HOST}`);
    const received = await readBody(req, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    if (received === 'aborted') return; // client went away while sending
    if ('tooLarge' in received) {
      rejectTooLarge(req, res, url, received.tooLarge, arrived);
      return;
    }
    const rawBody = received.body.toString('utf8');
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const entry: RecordedRequest = {
      index: recorded.length,
      provider: undefined,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.search,
      headers,
      body,
      rawBody,
      turn,
      time: arrived,
      elapsedMs: Math.round(performance.now() - startedAt),
      outcome: 'no-route',
      status: 404,
      closedByClient: false,
      completed: false,
    };
    recorded.push(entry);

    const abort = new AbortController();
    let destroyedByUs = false;
    res.on('close', () => {
      if (!res.writableFinished && !destroyedByUs && !closing) {
        entry.closedByClient = true;
        entry.closedAtMs = Math.round(performance.now() - startedAt);
        events.emit('client-closed', entry);
      }
      abort.abort();
      events.emit('response-end', entry);
    });
    try {
      const requestHeaders = new Headers();
      for (const [name, value] of Object.entries(headers)) requestHeaders.set(name, value);
      requestHeaders.set(INDEX_HEADER, String(entry.index));
      const request = new Request(new URL(`${url.pathname}${url.search}`, `http://${HOST}`), {
        method: entry.method,
        headers: requestHeaders,
        body: entry.method === 'GET' || entry.method === 'HEAD' ? undefined : rawBody,
        signal: abort.signal,
      });
      const response = await getResponse(handlers, request);
      events.emit('request', entry);
      if (!response) {
        const text = JSON.stringify({
          error: {
            message: `yume-conformance mock: no mocked API at ${entry.method} ${url.pathname}. Served: POST /v1/chat/completions, POST /v1/responses, POST /v1/messages, POST /v1beta/models/{model}:streamGenerateContent.`,
          },
        });
        res.writeHead(404, { 'content-type': 'application/json' }).end(text);
        return;
      }
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        responseHeaders[name] = value;
      });
      res.writeHead(response.status, responseHeaders);
      if (!response.body) {
        res.end();
        return;
      }
      res.flushHeaders();
      const reader = response.body.getReader();
      abort.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!res.write(value)) await once(res, 'drain');
      }
      res.end();
    } catch {
      // A stream that errors mid-body (a cut) resets the connection, as a failing upstream would.
      destroyedByUs = true;
      res.destroy();
    }
  };

  /** Answers an oversized body with 413 and closes the connection (the rest of the body is never read). */
  const rejectTooLarge = (req: IncomingMessage, res: ServerResponse, url: URL, bytes: number, arrived: number) => {
    const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const entry: RecordedRequest = {
      index: recorded.length,
      provider: undefined,
      method: req.method ?? 'POST',
      path: url.pathname,
      query: url.search,
      headers: {},
      body: undefined,
      rawBody: `(${limit} bytes; ${bytes} bytes seen, not read)`,
      turn,
      time: arrived,
      elapsedMs: Math.round(performance.now() - startedAt),
      outcome: 'body-too-large',
      status: 413,
      closedByClient: false,
      completed: true,
    };
    recorded.push(entry);
    events.emit('request', entry);
    const text = JSON.stringify({
      error: { message: `yume-conformance mock: request body over ${limit} bytes`, type: 'request_too_large' },
    });
    res.on('finish', () => req.socket.destroy());
    res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(text);
    events.emit('response-end', entry);
  };

  server.listen(options.port ?? 0, HOST);
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const url = `http://${HOST}:${port}`;

  return {
    url,
    port,
    baseUrls: { openai: `${url}/v1`, anthropic: url, gemini: url },
    setTurn(index: number): void {
      if (!Number.isInteger(index) || index < 0 || index >= scenario.turns.length) {
        throw new RangeError(`setTurn(${index}): scenario "${scenario.id}" has turns 0..${scenario.turns.length - 1}`);
      }
      turn = index;
      gateOpen = false; // each turn's first stream is withheld again
    },
    currentTurn: () => turn,
    openGate(): void {
      gateOpen = true;
      const waiting = gateWaiters;
      gateWaiters = [];
      for (const resolve of waiting) resolve();
    },
    requests: () => recorded.slice(),
    events,
    async close(): Promise<void> {
      closing = true;
      for (const stop of [...stopWaiters]) stop();
      for (const resolve of gateWaiters) resolve();
      gateWaiters = [];
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

function renderStream(
  provider: MockProviderId,
  response: ModelResponse,
  ctx: WireRenderContext,
  sse: boolean,
): WireFrame[] {
  switch (provider) {
    case 'openai-chat':
      return renderOpenAIChatStream(response, ctx);
    case 'openai-responses':
      return renderOpenAIResponsesStream(response, ctx);
    case 'gemini':
      return sse ? renderGeminiSse(response, ctx) : renderGeminiJsonArray(response, ctx);
    case 'anthropic':
      return renderAnthropicStream(response, ctx);
  }
}

function renderJson(provider: MockProviderId, response: ModelResponse, ctx: WireRenderContext): unknown {
  switch (provider) {
    case 'openai-chat':
      return renderOpenAIChatJson(response, ctx);
    case 'openai-responses':
      return renderOpenAIResponsesJson(response, ctx);
    case 'gemini':
      return renderGeminiJson(response, ctx);
    case 'anthropic':
      return renderAnthropicJson(response, ctx);
  }
}

/** Auth as the real APIs check it; returns the error reply, or undefined when the credentials are accepted. */
function checkAuth(
  provider: MockProviderId,
  entry: RecordedRequest,
  accepted: AcceptedCredentials,
): HttpErrorReply | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(entry.headers.authorization ?? '')?.[1]?.trim();
  switch (provider) {
    case 'openai-chat':
    case 'openai-responses':
      if (!bearer) return authErrorReply(provider, 'missing-key');
      return accepted.openai.includes(bearer) ? undefined : authErrorReply(provider, 'invalid-key');
    case 'anthropic': {
      // x-api-key is the documented header; @anthropic-ai/sdk 1.x sends the same API key as a Bearer token.
      const key = entry.headers['x-api-key'] ?? bearer;
      if (!key) return authErrorReply(provider, 'missing-key');
      if (!accepted.anthropic.includes(key)) return authErrorReply(provider, 'invalid-key');
      return entry.headers['anthropic-version'] ? undefined : authErrorReply(provider, 'missing-version');
    }
    case 'gemini': {
      const key = entry.headers['x-goog-api-key'] ?? new URLSearchParams(entry.query).get('key') ?? undefined;
      if (key) return accepted.gemini.includes(key) ? undefined : authErrorReply(provider, 'invalid-key');
      if (bearer) return accepted.geminiBearer.includes(bearer) ? undefined : geminiInvalidTokenReply();
      return authErrorReply(provider, 'missing-key');
    }
  }
}

/**
 * Reads a request body up to `limit` bytes. A declared or actual size over the limit stops reading at once
 * (memory stays bounded whatever the client sends); the caller answers 413.
 */
function readBody(req: IncomingMessage, limit: number): Promise<{ body: Buffer } | { tooLarge: number } | 'aborted'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.pause();
    return Promise.resolve({ tooLarge: declared });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.pause();
      chunks.length = 0;
      resolve({ tooLarge: size });
    };
    req.on('data', onData);
    req.once('end', () => resolve({ body: Buffer.concat(chunks) }));
    req.once('error', () => resolve('aborted'));
    req.once('aborted', () => resolve('aborted'));
  });
}
