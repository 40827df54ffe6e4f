// One HTTP request on the loopback server: read (bounded) and record it, hand it to the msw handlers, and pipe
// their answer to the socket. A body that errors mid-stream (a scripted cut) resets the connection, as a
// failing upstream would; a body over the limit is answered 413 unread.
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getResponse, type RequestHandler } from 'msw';
import { DEFAULT_MAX_BODY_BYTES, type RecordedRequest } from '../mock-types.js';
import { readBody } from '../read-body.js';
import { elapsedMs, type MockState } from './mock-state.js';
import { INDEX_HEADER } from './provider-handler.js';

export const HOST = '127.0.0.1';

const NO_ROUTE =
  'Served: POST /v1/chat/completions, POST /v1/responses, POST /v1/messages, POST /v1beta/models/{model}:streamGenerateContent.';

export async function serveRequest(
  state: MockState,
  handlers: RequestHandler[],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const arrived = Date.now();
  const url = new URL(req.url ?? '/', `http://${HOST}`);
  const received = await readBody(req, state.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  if (received === 'aborted') return; // client went away while sending
  if ('tooLarge' in received) {
    rejectTooLarge(state, { req, res, url, bytes: received.tooLarge, arrived });
    return;
  }
  const entry = recordRequest(state, { req, url, rawBody: received.body.toString('utf8'), arrived });
  const abort = new AbortController();
  let destroyedByUs = false;
  res.on('close', () => {
    if (!res.writableFinished && !destroyedByUs && !state.closing) {
      entry.closedByClient = true;
      entry.closedAtMs = elapsedMs(state);
      state.events.emit('client-closed', entry);
    }
    abort.abort();
    state.events.emit('response-end', entry);
  });
  try {
    const response = await getResponse(handlers, toFetchRequest(entry, url, abort.signal));
    state.events.emit('request', entry);
    if (!response) {
      const message = `yume-conformance mock: no mocked API at ${entry.method} ${url.pathname}. ${NO_ROUTE}`;
      const text = JSON.stringify({ error: { message } });
      state.events.emit('response-head', entry, { status: 404, headers: { 'content-type': 'application/json' } });
      state.events.emit('response-data', entry, Buffer.from(text));
      res.writeHead(404, { 'content-type': 'application/json' }).end(text);
      return;
    }
    await pipeResponse(response, { res, state, entry }, abort.signal);
  } catch {
    // A stream that errors mid-body (a cut) resets the connection, as a failing upstream would.
    destroyedByUs = true;
    res.destroy();
  }
}

/** The request as it arrived, recorded before any handler sees it (a 404 keeps outcome 'no-route'). */
function recordRequest(
  state: MockState,
  arrival: { req: IncomingMessage; url: URL; rawBody: string; arrived: number },
): RecordedRequest {
  const { req, url, rawBody } = arrival;
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
    index: state.recorded.length,
    provider: undefined,
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.search,
    headers,
    body,
    rawBody,
    turn: state.script.turn,
    time: arrival.arrived,
    elapsedMs: elapsedMs(state),
    outcome: 'no-route',
    status: 404,
    closedByClient: false,
    completed: false,
  };
  state.recorded.push(entry);
  return entry;
}

/**
 * The request msw matches its handlers against: method, path and headers, without the body. The handlers read
 * the body from the recorded entry the index header names (provider-handler.ts), and a resumed session's body
 * holds the whole history: copying it into a fetch body would cost the runner every byte again.
 */
function toFetchRequest(entry: RecordedRequest, url: URL, signal: AbortSignal): Request {
  const requestHeaders = new Headers();
  for (const [name, value] of Object.entries(entry.headers)) requestHeaders.set(name, value);
  requestHeaders.set(INDEX_HEADER, String(entry.index));
  return new Request(new URL(`${url.pathname}${url.search}`, `http://${HOST}`), {
    method: entry.method,
    headers: requestHeaders,
    signal,
  });
}

/**
 * Writes the handler's answer to the socket. Each part written is also announced ('response-head', then
 * 'response-data' per chunk) so a recorder (`serve --record`) can keep the bytes the client was sent.
 */
async function pipeResponse(
  response: Response,
  target: { res: ServerResponse; state: MockState; entry: RecordedRequest },
  signal: AbortSignal,
): Promise<void> {
  const { res, state, entry } = target;
  const responseHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    responseHeaders[name] = value;
  });
  state.events.emit('response-head', entry, { status: response.status, headers: responseHeaders });
  res.writeHead(response.status, responseHeaders);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    state.events.emit('response-data', entry, value);
    if (!res.write(value)) await once(res, 'drain');
  }
  res.end();
}

/** Answers an oversized body with 413 and closes the connection (the rest of the body is never read). */
function rejectTooLarge(
  state: MockState,
  request: { req: IncomingMessage; res: ServerResponse; url: URL; bytes: number; arrived: number },
): void {
  const { req, res, url } = request;
  const limit = state.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const entry: RecordedRequest = {
    index: state.recorded.length,
    provider: undefined,
    method: req.method ?? 'POST',
    path: url.pathname,
    query: url.search,
    headers: {},
    body: undefined,
    rawBody: `(${limit} bytes; ${request.bytes} bytes seen, not read)`,
    turn: state.script.turn,
    time: request.arrived,
    elapsedMs: elapsedMs(state),
    outcome: 'body-too-large',
    status: 413,
    closedByClient: false,
    completed: true,
  };
  state.recorded.push(entry);
  state.events.emit('request', entry);
  const text = JSON.stringify({
    error: { message: `yume-conformance mock: request body over ${limit} bytes`, type: 'request_too_large' },
  });
  res.on('finish', () => req.socket.destroy());
  state.events.emit('response-head', entry, { status: 413, headers: { 'content-type': 'application/json' } });
  state.events.emit('response-data', entry, Buffer.from(text));
  res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(text);
  state.events.emit('response-end', entry);
}
