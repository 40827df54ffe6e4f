// Reads a response body chunk by chunk from its 'data', 'end', 'error' and 'close' events. Node's own async
// iterator over a stream (`for await`) does the same job, but the first time a process uses it, it costs about
// half a millisecond more before the first chunk (it is built on stream.finished and the 'readable' protocol),
// and a one-turn process only ever uses it for a turn or two. The contract is the iterator's: the chunks in
// order, then done; once the stream fails, its error (or a premature close) is thrown and chunks not yet read
// are dropped, as Node's iterator does when the stream is destroyed.
import type { Readable } from 'node:stream';

/** The consumer may fall this many chunks behind before the socket is paused (backpressure). */
const PAUSE_AFTER_CHUNKS = 16;

/** The error Node's stream iterator reports when a stream closes before its end. */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

export function readChunks(stream: Readable): AsyncIterator<Buffer, undefined> {
  const buffered: Buffer[] = [];
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  stream.on('data', (chunk: Buffer) => {
    buffered.push(chunk);
    if (buffered.length >= PAUSE_AFTER_CHUNKS) stream.pause();
    notify();
  });
  stream.once('end', () => {
    ended = true;
    notify();
  });
  stream.once('error', (error: Error) => {
    failure ??= error;
    notify();
  });
  stream.once('close', () => {
    if (!ended) failure ??= prematureClose();
    notify();
  });
  if (stream.destroyed && !stream.readableEnded) failure ??= prematureClose();

  return {
    async next(): Promise<IteratorResult<Buffer, undefined>> {
      for (;;) {
        if (failure) throw failure;
        // A destroyed stream's error (or close) arrives on the next tick: its unread chunks are not handed out.
        const chunk = stream.destroyed && !ended ? undefined : buffered.shift();
        if (chunk) {
          if (stream.isPaused() && buffered.length < PAUSE_AFTER_CHUNKS / 2) stream.resume();
          return { value: chunk, done: false };
        }
        if (ended) return { value: undefined, done: true };
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}
