// Reads a provider's server-sent-events body. Besides the events, it surfaces "stray" JSON that is not an
// SSE field at all: Gemini reports mid-stream errors as a bare `{"error":{...}}` chunk (provider-wire §3.5).
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ProviderError } from './provider.js';
import type { StreamingResponse } from './transport.js';

export type SseItem = { kind: 'event'; event?: string; data: string } | { kind: 'stray'; value: unknown };

const MAX_STRAY_CHARS = 1_000_000;

export async function* readSse(response: StreamingResponse, provider: string, signal: AbortSignal): AsyncGenerator<SseItem> {
  const queue: SseItem[] = [];
  let stray = '';
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      queue.push({ kind: 'event', event: event.event, data: event.data });
    },
    onError(error) {
      if (error.type !== 'unknown-field' || error.line === undefined) return;
      stray += error.line + '\n';
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
  try {
    for (;;) {
      let chunk: IteratorResult<Buffer>;
      try {
        chunk = await chunks.next();
      } catch (error) {
        if (signal.aborted) throw new ProviderError('aborted', 'request aborted');
        if (response.idleTimedOut) throw new ProviderError('stream', `${provider}: the stream stalled (no data for too long); giving up`);
        throw new ProviderError('stream', `${provider}: the connection closed mid-stream (${(error as Error).message})`);
      }
      if (chunk.done) break;
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
    // Closes the connection when the consumer stops early (interrupt, error).
    response.close();
  }
}

/** JSON.parse that turns a malformed chunk into the error R5 asks for. */
export function parseChunk(provider: string, data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new ProviderError('stream', `${provider}: malformed stream chunk: ${data.slice(0, 200)}`);
  }
}
