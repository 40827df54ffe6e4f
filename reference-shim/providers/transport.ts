// A streaming JSON POST over node:http / node:https.
// Why not fetch: in Node 20, fetch (undici) compiles its WebAssembly HTTP parser on first use (~60 ms) and
// process.exit then waits for that background compilation (~120 ms more), which together triple the cost of a
// one-turn process; node:http uses the built-in native parser. Aborting the signal destroys the socket, so
// an interrupted turn closes its provider connection at once (R6).
import type { IncomingMessage } from 'node:http';
import { YumeError, type YumeErrorOptions } from '../../common/errors.js';
import type { InterruptSignal } from '../tools/interrupt.js';
import { readChunks } from './chunk-reader.js';

export interface StreamingResponse {
  status: number;
  /** Set when the connection was closed because the provider sent nothing for too long. */
  readonly idleTimedOut: boolean;
  /** The whole body has come off the connection ('end' has fired), which is then back in the agent's pool. */
  readonly ended: boolean;
  header(name: string): string | undefined;
  /** The body as it arrives; iteration throws when the connection breaks mid-body. */
  body: AsyncIterable<Buffer>;
  text(limit?: number): Promise<string>;
  /** Ends the response: a body cut short closes its connection, a complete one leaves it to the pool. */
  close(): void;
  /** Resolves once the connection is back in the agent's pool (or gone): the next request can have it. */
  released(): Promise<void>;
}

/** The request failed below HTTP (connection refused, reset, idle timeout) or was aborted (code TRANSPORT). */
export class TransportError extends YumeError {
  override name = 'TransportError';
  constructor(
    message: string,
    readonly aborted: boolean,
    options?: YumeErrorOptions,
  ) {
    super('TRANSPORT', message, options);
  }
}

/**
 * How long a provider may stay silent (waiting for headers or between chunks) before the connection is
 * dropped: long enough for slow reasoning models, short enough that a dead connection cannot hang a turn.
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 600_000;

function idleTimeoutMs(): number {
  const configured = Number(process.env.YUME_SHIM_IDLE_TIMEOUT_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_IDLE_TIMEOUT_MS;
}

function wrap(response: IncomingMessage, idle: { timedOut: boolean }): StreamingResponse {
  return {
    status: response.statusCode ?? 0,
    get idleTimedOut() {
      return idle.timedOut;
    },
    get ended() {
      return response.readableEnded;
    },
    header(name) {
      const value = response.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    body: { [Symbol.asyncIterator]: () => readChunks(response) },
    async text(limit = 1 << 20) {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response as AsyncIterable<Buffer>) {
        if (size < limit) chunks.push(chunk);
        size += chunk.length;
      }
      return Buffer.concat(chunks).toString('utf8');
    },
    close() {
      response.destroy();
    },
    released() {
      const socket = response.socket;
      if (!socket || socket.destroyed) return Promise.resolve();
      return new Promise<void>((resolve) => {
        // The agent pools a keep-alive socket when it emits 'free' (the agent's own listener runs first).
        const done = (): void => {
          socket.off('free', done);
          socket.off('close', done);
          resolve();
        };
        socket.on('free', done);
        socket.on('close', done);
      });
    },
  };
}

/** A connection still receiving the rest of a body nobody needs (sse.ts); the next request waits briefly for it. */
let draining: Promise<void> | undefined;
/** How long a request waits for that connection to come free rather than opening another. */
const DRAIN_WAIT_MS = 20;

export function noteDraining(drained: Promise<void>): void {
  draining = drained;
}

async function connectionFromPreviousCall(): Promise<void> {
  const pending = draining;
  if (!pending) return;
  draining = undefined;
  let timer: NodeJS.Timeout | undefined;
  // When the wait runs out, socket reads that were due meanwhile go first (setImmediate runs after them): a
  // process held up past the wait (a loaded machine) finds both due at once, and would otherwise give up on a
  // connection whose last bytes had already arrived.
  const waited = new Promise<void>((resolve) => (timer = setTimeout(() => setImmediate(resolve), DRAIN_WAIT_MS)));
  await Promise.race([pending, waited]);
  clearTimeout(timer);
}

// node:https pulls in TLS: whichever is needed is loaded on first use only (start-up time), through
// process.getBuiltinModule: a bundled import() would copy the module's exports into a new object each time.
let http: typeof import('node:http') | undefined;
let https: typeof import('node:https') | undefined;

export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: InterruptSignal,
): Promise<StreamingResponse> {
  const payload = Buffer.from(JSON.stringify(body));
  const target = new URL(url);
  const client =
    target.protocol === 'https:'
      ? (https ??= process.getBuiltinModule('node:https'))
      : (http ??= process.getBuiltinModule('node:http'));
  await connectionFromPreviousCall();
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new TransportError('request aborted', true));
    let response: IncomingMessage | undefined;
    const idle = { timedOut: false };
    const request = client.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(payload.length) },
    });
    // A socket timeout covers both the wait for the headers and silence in the middle of the body.
    const limit = idleTimeoutMs();
    request.setTimeout(limit, () => {
      idle.timedOut = true;
      request.destroy(new Error(`no data from the provider for ${Math.round(limit / 1000)} s`));
      response?.destroy();
    });
    const onAbort = (): void => {
      request.destroy();
      response?.destroy();
      reject(new TransportError('request aborted', true));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('response', (incoming) => {
      response = incoming;
      incoming.on('close', () => signal.removeEventListener('abort', onAbort));
      resolve(wrap(incoming, idle));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      signal.removeEventListener('abort', onAbort);
      reject(
        new TransportError(idle.timedOut ? error.message : (error.code ?? error.message), signal.aborted, {
          cause: error,
        }),
      );
    });
    request.end(payload);
  });
}
