// The loopback mock provider: msw handlers answered through getResponse() behind node:http on 127.0.0.1
// (not @mswjs/http-middleware: it crashes when a stream fails mid-body, and failing mid-body is the point).
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { getResponse, http, HttpResponse, type RequestHandler } from 'msw';
import { type AcceptedCredentials, defaultAcceptedCredentials } from './credentials.js';
import {
  type HttpErrorReply,
  providerErrorReply,
  toolsNotDeclaredReply,
  unscriptedReply,
} from './render/error-bodies.js';
import { type ChunkMode, responseSeed, seededRandom, splitAtRandomOffsets } from './render/rechunk.js';
import type { WireRenderContext } from './render/render-context.js';
import { requestView } from './request-views.js';
import type { MockProviderId, ModelResponse } from './scenario/scenario-types.js';
import { buildStreamPlan, type PlanStep } from './render/stream-plan.js';
import type { WireFrame } from './render/wire-frames.js';
import type { MockServer, MockServerOptions, RecordedRequest, RequestOutcome, ToolMapper } from './mock-types.js';
import { DEFAULT_MAX_BODY_BYTES } from './mock-types.js';
import { ResponseScript } from './scenario/response-script.js';
import { renderJson, renderStream } from './render/render-response.js';
import { checkAuth } from './request-auth.js';
import { readBody } from './read-body.js';

export type { MockServer, MockServerOptions, RecordedRequest, RequestOutcome, ToolMapper };
export { DEFAULT_MAX_BODY_BYTES };

const INDEX_HEADER = 'x-yume-mock-request-index';
const HOST = '127.0.0.1';

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
  const script = new ResponseScript(scenario, options.autoAdvance === true);
  let gateOpen = false;
  let gateWaiters: (() => void)[] = [];
  const stopWaiters = new Set<() => void>();
  let closing = false;

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
      const next = script.peek(view.stream);
      entry.turn = script.turn;
      if (!next)
        return reject(
          'unscripted',
          unscriptedReply(provider, script.turn, scenario.turns[script.turn]?.responses.length ?? 0),
        );
      // The real-CLI mode and `serve --map-tools` answer with the CLI's own tools (map-tools.ts).
      const scripted = options.mapTools ? options.mapTools(provider, next.response, view.declaredTools) : next.response;
      const called = [...new Set((scripted.toolCalls ?? []).map((call) => call.name))];
      const missing = called.filter((name) => !view.declaredTools.includes(name));
      if (missing.length > 0) {
        entry.missingTools = missing;
        return reject('tools-not-declared', toolsNotDeclaredReply(provider, missing, view.declaredTools));
      }
      script.consume(next.replay);
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
        turn: script.turn,
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
    // Released by close(), the client going away or the timeout; whichever comes first clears the others, so
    // a stall released by close() leaves no timer behind to hold the runner's process open.
    const untilStopped = (timeoutMs: number): Promise<void> =>
      new Promise((resolve) => {
        const timer = setTimeout(finish, timeoutMs);
        function finish(): void {
          clearTimeout(timer);
          stopWaiters.delete(finish);
          abort.signal.removeEventListener('abort', finish);
          resolve();
        }
        if (abort.signal.aborted) return finish();
        stopWaiters.add(finish);
        abort.signal.addEventListener('abort', finish, { once: true });
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

  const routes: [MockProviderId, RequestHandler][] = [
    ['openai-chat', http.post('*/v1/chat/completions', handlerFor('openai-chat'))],
    ['openai-responses', http.post('*/v1/responses', handlerFor('openai-responses'))],
    ['anthropic', http.post('*/v1/messages', handlerFor('anthropic'))],
    [
      'gemini',
      http.post(/\/(v1beta|v1|v1alpha)\/models\/[^/:]+:(streamGenerateContent|generateContent)$/, handlerFor('gemini')),
    ],
  ];
  // The provider under test first: msw tries the handlers in order (each try parses the request's URL and
  // cookies), and the paths are disjoint, so the order changes nothing but the work of a request.
  const handlers = [
    ...routes.filter(([provider]) => provider === options.provider),
    ...routes.filter(([provider]) => provider !== options.provider),
  ].map(([, handler]) => handler);

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
      turn: script.turn,
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
      turn: script.turn,
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
      script.turn = index;
      gateOpen = false; // each turn's first stream is withheld again
    },
    currentTurn: () => script.turn,
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
