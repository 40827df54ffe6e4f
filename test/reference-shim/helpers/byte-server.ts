// A tiny loopback HTTP server that answers each request with the next scripted reply, byte for byte: the
// chunks are written separately (so JSON can be split across TCP reads), and a reply can end by resetting the
// connection. Requests are recorded (headers and parsed body).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  chunks: string[];
  /** Destroy the socket after the chunks instead of ending the response. */
  reset?: boolean;
  /** Hold the stream open after the chunks until the client goes away. */
  hold?: boolean;
  /** Send the last chunk together with the end of the body (one write), as most servers end a stream. */
  endWithLastChunk?: boolean;
  /** ms between the last chunk and the end of the body (default 2). */
  tailDelayMs?: number;
}

export interface RecordedCall {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  closedByClient: boolean;
}

export interface ByteServer {
  url: string;
  calls: RecordedCall[];
  /** TCP connections accepted so far (a client that reuses its connection opens fewer than it sends requests). */
  readonly connections: number;
  close(): Promise<void>;
}

export async function startByteServer(replies: ScriptedReply[]): Promise<ByteServer> {
  const calls: RecordedCall[] = [];
  let next = 0;
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', async () => {
      const call: RecordedCall = {
        path: request.url ?? '',
        headers: request.headers,
        body: raw ? JSON.parse(raw) : undefined,
        closedByClient: false,
      };
      calls.push(call);
      response.on('close', () => {
        if (!response.writableFinished) call.closedByClient = true;
      });
      const reply = replies[next++];
      if (!reply) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end('{"error":{"message":"unscripted request"}}');
        return;
      }
      response.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', ...reply.headers });
      const last = reply.endWithLastChunk ? reply.chunks.length - 1 : reply.chunks.length;
      for (const [index, chunk] of reply.chunks.slice(0, last).entries()) {
        response.write(chunk);
        const tail = index === last - 1 && reply.tailDelayMs !== undefined;
        await new Promise((resolve) => setTimeout(resolve, tail ? reply.tailDelayMs : 2));
      }
      if (reply.endWithLastChunk) {
        response.end(reply.chunks[last]);
        return;
      }
      if (reply.reset) response.socket?.destroy();
      else if (!reply.hold) response.end();
    });
  });
  let connections = 0;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** SSE frames: `data:` only (OpenAI Chat, Gemini) or with `event:` lines (Responses, Anthropic). */
export const sse = (data: unknown): string => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
export const namedSse = (data: { type: string }): string => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

/** Splits a string into pieces of `size` characters (to cut events and JSON at odd places). */
export function shred(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += size) pieces.push(text.slice(index, index + size));
  return pieces;
}
