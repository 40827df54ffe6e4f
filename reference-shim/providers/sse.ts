// Reads a provider's server-sent-events body. Besides the events, it surfaces "stray" JSON that is not an
// SSE field at all: Gemini reports mid-stream errors as a bare `{"error":{...}}` chunk
// (https://ai.google.dev/gemini-api/docs/troubleshooting).
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { messageOf } from '../../common/errors.js';
import type { InterruptSignal } from '../tools/interrupt.js';
import { ProviderError } from './provider.js';
import { noteDraining, type StreamingResponse } from './transport.js';

export type SseItem = { kind: 'event'; event?: string; data: string } | { kind: 'stray'; value: unknown };

const MAX_STRAY_CHARS = 1_000_000;

export async function* readSse(
  response: StreamingResponse,
  provider: string,
  signal: InterruptSignal,
): AsyncGenerator<SseItem> {
  const queue: SseItem[] = [];
  let stray = '';
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      queue.push({ kind: 'event', event: event.event, data: event.data });
    },
    onError(error) {
      if (error.type !== 'unknown-field' || error.line === undefined) return;
      stray += `${error.line}\n`;
      if (stray.length > MAX_STRAY_CHARS) stray = '';
      try {
        queue.push({ kind: 'stray', value: JSON.parse(stray) });
        stray = '';
      } catch {
        // not complete yet (a pretty-printed error arrives line by line)
      }
    },
  });
  const decoder = new TextDecoder();
  const chunks = response.body[Symbol.asyncIterator]();
  let settled = false; // the body ended, or reading it failed
  try {
    for (;;) {
      let chunk: IteratorResult<Buffer>;
      try {
        chunk = await chunks.next();
      } catch (error) {
        settled = true;
        if (signal.aborted) throw new ProviderError('aborted', 'request aborted');
        if (response.idleTimedOut)
          throw new ProviderError('stream', `${provider}: the stream stalled (no data for too long); giving up`);
        throw new ProviderError(
          'stream',
          `${provider}: the connection closed mid-stream (${messageOf(error)})`,
          {},
          { cause: error },
        );
      }
      if (chunk.done) {
        settled = true;
        break;
      }
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      // One network chunk can hold hundreds of events: hand them out, then reuse the array.
      for (let index = 0; index < queue.length; index += 1) yield queue[index]!;
      queue.length = 0;
    }
    if (signal.aborted) throw new ProviderError('aborted', 'request aborted');
    parser.feed(decoder.decode());
    parser.reset({ consume: true });
    for (let index = 0; index < queue.length; index += 1) yield queue[index]!;
    queue.length = 0;
  } finally {
    // Stopping at the stream's end marker usually finds the body ended already (it came in the same network
    // chunk), and its connection back in the pool: nothing is left to drain.
    if (settled || signal.aborted || response.ended) response.close();
    else drainInBackground(chunks, response);
  }
}

/** How long the rest of a body may take to arrive before the connection is cut. */
const DRAIN_GRACE_MS = 1000;

/**
 * The consumer stopped before the body ended: usually at the stream's own end marker (`[DONE]`,
 * `message_stop`), with only the end of the chunked encoding still to come. Reading that rest lets the
 * connection go back to the agent's pool, so the next model call of the turn reuses it instead of opening
 * (and, against a real provider, TLS-handshaking) a new one. Nothing waits for it here: the next request does,
 * briefly (transport.ts). A body that does not end within the grace period is cut.
 */
function drainInBackground(chunks: AsyncIterator<Buffer>, response: StreamingResponse): void {
  const timer = setTimeout(() => response.close(), DRAIN_GRACE_MS);
  timer.unref();
  const released = response.released();
  const drained = (async () => {
    try {
      while (!(await chunks.next()).done) {
        // discard
      }
    } catch {
      // the connection broke: nothing to reuse
    } finally {
      clearTimeout(timer);
      response.close();
    }
  })();
  // The connection is free as soon as the body has ended, a little before the iteration above notices.
  noteDraining(Promise.race([released, drained]));
}

/** JSON.parse that turns a malformed chunk into the error R5 asks for. */
export function parseChunk(provider: string, data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new ProviderError('stream', `${provider}: malformed stream chunk: ${data.slice(0, 200)}`);
  }
}
