// The provider transport's idle limit (YUME_SHIM_IDLE_TIMEOUT_MS) over real loopback HTTP: silence before the
// headers ends the request, a slow but steady stream does not, and a keep-alive connection handed to the next
// request is not ended by the limit of the previous one.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postJson, TransportError } from '../../reference-shim/providers/transport.js';
import { Interrupter } from '../../reference-shim/tools/interrupt.js';

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

let server: http.Server | undefined;
let previousLimit: string | undefined;

beforeEach(() => {
  previousLimit = process.env.YUME_SHIM_IDLE_TIMEOUT_MS;
  process.env.YUME_SHIM_IDLE_TIMEOUT_MS = '250';
});

afterEach(async () => {
  if (previousLimit === undefined) delete process.env.YUME_SHIM_IDLE_TIMEOUT_MS;
  else process.env.YUME_SHIM_IDLE_TIMEOUT_MS = previousLimit;
  const closing = server;
  server = undefined;
  if (closing) {
    closing.closeAllConnections();
    await new Promise((resolve) => closing.close(resolve));
  }
});

async function serve(handler: Handler): Promise<string> {
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => handler(request, response));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat`;
}

const post = (url: string) =>
  postJson(url, { 'content-type': 'application/json' }, { hello: 'world' }, new Interrupter().signal);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('provider transport idle limit', () => {
  it('ends a request whose response headers never come', async () => {
    const url = await serve(() => undefined); // never answers
    const started = Date.now();
    const error = await post(url).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).message).toContain('no data from the provider');
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('ends a body that goes silent, and reports it as an idle time-out', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n'); // then nothing
    });
    const response = await post(url);
    await expect(response.text()).rejects.toThrow();
    expect(response.idleTimedOut).toBe(true);
  });

  it('keeps a stream that is slow but never silent for the whole limit', async () => {
    const url = await serve(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      // 6 chunks 100 ms apart: 600 ms in all, more than twice the 250 ms limit, never 250 ms of silence.
      for (let index = 0; index < 6; index += 1) {
        response.write(`data: ${index}\n\n`);
        await sleep(100);
      }
      response.end('data: [DONE]\n\n');
    });
    const response = await post(url);
    const text = await response.text();
    expect(response.idleTimedOut).toBe(false);
    expect(text).toContain('data: 5');
    expect(text).toContain('[DONE]');
  });

  it('keeps one keep-alive connection across requests spaced further apart than the limit', async () => {
    let connections = 0;
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('data: [DONE]\n\n');
    });
    server!.on('connection', () => (connections += 1));
    for (let request = 0; request < 3; request += 1) {
      const response = await post(url);
      await response.text();
      await response.released();
      // Past the limit between requests: a watch left behind would end the pooled connection.
      await sleep(300);
    }
    expect(connections).toBe(1);
    // What a connection carries after one request made without any watch, on an agent of its own.
    const fresh = new http.Agent({ keepAlive: true });
    const baseline = await new Promise<number>((resolve, reject) => {
      const request = http.request(url, { method: 'POST', agent: fresh }, (response) => {
        response.resume();
        response.on('end', () => setImmediate(() => resolve(request.socket?.listenerCount('data') ?? -1)));
      });
      request.on('error', reject);
      request.end('{}');
    });
    fresh.destroy();
    const port = new URL(url).port;
    const pooled = Object.entries(http.globalAgent.freeSockets)
      .filter(([key]) => key.includes(`:${port}:`))
      .flatMap(([, sockets]) => sockets ?? []) as Socket[];
    expect(pooled).toHaveLength(1);
    expect(pooled[0]!.destroyed).toBe(false);
    expect(pooled[0]!.listenerCount('data')).toBe(baseline);
  });
});
