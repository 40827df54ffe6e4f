// Standard output of the reference shim: direct writes within the first pipe's worth of bytes, then the stream;
// whatever path a byte takes, the reader sees every byte once and in order.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StdoutSink, SYNC_BUDGET_BYTES } from '../../reference-shim/output/stdout-sink.js';

function sinkWith(options: { direct?: boolean; writeDirect?: (text: string) => number } = {}) {
  const direct: string[] = [];
  const streamed: Buffer[] = [];
  let opened = 0;
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => streamed.push(chunk));
  const sink = new StdoutSink(
    () => {
      opened += 1;
      return stream;
    },
    options.direct ?? true,
    options.writeDirect ??
      ((text) => {
        direct.push(text);
        return Buffer.byteLength(text);
      }),
  );
  return {
    sink,
    stream,
    direct,
    streamedText: () => Buffer.concat(streamed).toString('utf8'),
    opened: () => opened,
  };
}

describe('StdoutSink', () => {
  it('writes directly while the output fits the budget, without opening the stream', async () => {
    const out = sinkWith();
    out.sink.write('{"a":1}\n');
    out.sink.write('{"b":"é"}\n');
    await out.sink.flush();
    expect(out.direct).toEqual(['{"a":1}\n', '{"b":"é"}\n']);
    expect(out.opened()).toBe(0);
  });

  it('counts bytes, not characters, and hands everything after the budget to the stream, in order', async () => {
    const out = sinkWith();
    const wide = 'é'.repeat(SYNC_BUDGET_BYTES / 2 - 1); // 2 bytes each: 2 bytes short of the budget
    out.sink.write(wide);
    out.sink.write('abc'); // 3 bytes: over the budget
    out.sink.write('d'); // would fit the 2 bytes left, but stays behind 'abc'
    await out.sink.flush();
    expect(out.direct).toEqual([wide]);
    expect(out.streamedText()).toBe('abcd');
    expect(out.opened()).toBe(1);
  });

  it('gives a failed direct write to the stream, whose error reaches the listeners', async () => {
    const out = sinkWith({
      writeDirect: () => {
        throw Object.assign(new Error('EPIPE: broken pipe, write'), { code: 'EPIPE' });
      },
    });
    const errors: string[] = [];
    out.sink.onError((error) => errors.push(String(error.code)));
    out.sink.write('line\n');
    expect(out.streamedText()).toBe('line\n');
    out.stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(errors).toEqual(['EPIPE']);
  });

  it('sends the rest of a short direct write through the stream', async () => {
    const out = sinkWith({ writeDirect: () => 3 });
    out.sink.write('héllo\n'); // "hé" is 3 bytes
    await out.sink.flush();
    expect(out.streamedText()).toBe('llo\n');
  });

  it('uses the stream alone where direct writes are off (Windows)', async () => {
    const out = sinkWith({ direct: false });
    out.sink.write('one\n');
    out.sink.write('two\n');
    await out.sink.flush();
    expect(out.direct).toEqual([]);
    expect(out.streamedText()).toBe('one\ntwo\n');
  });
});
