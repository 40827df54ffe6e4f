// readChunks: a response body read from its events, with the contract of Node's own stream iterator.
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readChunks } from '../../reference-shim/providers/chunk-reader.js';

async function readAll(stream: Readable): Promise<string[]> {
  const chunks = readChunks(stream);
  const out: string[] = [];
  for (;;) {
    const next = await chunks.next();
    if (next.done) return out;
    out.push(next.value.toString('utf8'));
  }
}

describe('readChunks', () => {
  it('yields the chunks in order, then done, like the stream iterator', async () => {
    const body = ['data: 1\n\n', 'data: 2\n\n', 'data: [DONE]\n\n'];
    const viaEvents = await readAll(Readable.from(body.map((text) => Buffer.from(text))));
    const viaIterator: string[] = [];
    for await (const chunk of Readable.from(body.map((text) => Buffer.from(text))))
      viaIterator.push((chunk as Buffer).toString('utf8'));
    expect(viaEvents).toEqual(body);
    expect(viaEvents).toEqual(viaIterator);
  });

  it('yields chunks that arrive while nobody waits, and ends after them', async () => {
    const stream = new PassThrough();
    const chunks = readChunks(stream);
    stream.write('a');
    stream.write('b');
    stream.end('c');
    await new Promise((resolve) => setImmediate(resolve));
    const seen: string[] = [];
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) seen.push(next.value.toString());
    expect(seen.join('')).toBe('abc');
  });

  it("throws the stream's error, dropping chunks not yet read, as the stream iterator does", async () => {
    const stream = new PassThrough();
    const chunks = readChunks(stream);
    stream.write('first');
    expect((await chunks.next()).value?.toString()).toBe('first');
    stream.write('unread');
    await new Promise((resolve) => setImmediate(resolve));
    stream.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    await expect(chunks.next()).rejects.toMatchObject({ message: 'aborted', code: 'ECONNRESET' });
  });

  it('reports a close before the end as a premature close (the same error as the stream iterator)', async () => {
    const viaEvents = new PassThrough();
    const chunks = readChunks(viaEvents);
    viaEvents.write('partial');
    await chunks.next();
    viaEvents.destroy();
    const ours = await chunks.next().catch((error: Error & { code?: string }) => error);

    const viaIterator = new PassThrough();
    const iterator = viaIterator[Symbol.asyncIterator]();
    viaIterator.write('partial');
    await iterator.next();
    viaIterator.destroy();
    const nodes = await iterator.next().catch((error: Error & { code?: string }) => error);
    expect(ours).toMatchObject({ message: (nodes as Error).message, code: (nodes as { code?: string }).code });
    expect(ours).toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });

  it('pauses the stream while the reader lags behind and resumes it as the reader catches up', async () => {
    const stream = new PassThrough();
    const chunks = readChunks(stream);
    for (let index = 0; index < 40; index += 1) stream.write(`chunk ${index};`);
    stream.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(stream.isPaused()).toBe(true);
    let text = '';
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) text += next.value.toString();
    expect(text).toBe(Array.from({ length: 40 }, (_, index) => `chunk ${index};`).join(''));
    expect(stream.isPaused()).toBe(false);
  });
});
