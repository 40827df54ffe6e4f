// The loopback mock provider: msw handlers answered through getResponse() behind node:http on 127.0.0.1
// (not @mswjs/http-middleware: it crashes when a stream fails mid-body, and failing mid-body is the point).
// The parts live in server/: the shared state, the request path, each provider's handler, the stream writer.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { http, type RequestHandler } from 'msw';
import type { MockServer, MockServerOptions, RecordedRequest } from './mock-types.js';
import { DEFAULT_MAX_BODY_BYTES } from './mock-types.js';
import type { MockProviderId } from './scenario/scenario-types.js';
import { createMockState, type MockState } from './server/mock-state.js';
import { providerHandler } from './server/provider-handler.js';
import { HOST, serveRequest } from './server/serve-request.js';

export type { MockServer, MockServerOptions, RecordedRequest };
export { DEFAULT_MAX_BODY_BYTES };

export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  const state = createMockState(options);
  const handlers = providerHandlers(state);
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => void serveRequest(state, handlers, req, res));
  server.on('connection', (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(options.port ?? 0, HOST);
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const url = `http://${HOST}:${port}`;
  const { scenario } = options;

  return {
    url,
    port,
    baseUrls: { openai: `${url}/v1`, anthropic: url, gemini: url },
    setTurn(index: number): void {
      if (!Number.isInteger(index) || index < 0 || index >= scenario.turns.length) {
        throw new RangeError(`setTurn(${index}): scenario "${scenario.id}" has turns 0..${scenario.turns.length - 1}`);
      }
      state.script.turn = index;
      state.gateOpen = false; // each turn's first stream is withheld again
    },
    currentTurn: () => state.script.turn,
    openGate(): void {
      state.gateOpen = true;
      const waiting = state.gateWaiters;
      state.gateWaiters = [];
      for (const resolve of waiting) resolve();
    },
    requests: () => state.recorded.slice(),
    events: state.events,
    async close(): Promise<void> {
      state.closing = true;
      for (const stop of [...state.stopWaiters]) stop();
      for (const resolve of state.gateWaiters) resolve();
      state.gateWaiters = [];
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/**
 * Every provider's endpoints, the provider under test first: msw tries the handlers in order (each try parses
 * the request's URL and cookies), and the paths are disjoint, so the order changes nothing but the work of a
 * request.
 */
function providerHandlers(state: MockState): RequestHandler[] {
  const routes: [MockProviderId, RequestHandler][] = [
    ['openai-chat', http.post('*/v1/chat/completions', providerHandler(state, 'openai-chat'))],
    ['openai-responses', http.post('*/v1/responses', providerHandler(state, 'openai-responses'))],
    ['anthropic', http.post('*/v1/messages', providerHandler(state, 'anthropic'))],
    [
      'gemini',
      http.post(
        /\/(v1beta|v1|v1alpha)\/models\/[^/:]+:(streamGenerateContent|generateContent)$/,
        providerHandler(state, 'gemini'),
      ),
    ],
  ];
  const provider = state.options.provider;
  return [...routes.filter(([id]) => id === provider), ...routes.filter(([id]) => id !== provider)].map(
    ([, handler]) => handler,
  );
}
