// Standard output for the line writer, without process.stdout while that changes nothing a reader can see.
// On a pipe, Node's process.stdout is a net.Socket over a libuv handle: creating it and its first writes cost a
// one-turn process about 1.5 ms, more than anything else the shim prints. On POSIX the first lines are written
// straight to file descriptor 1 with fs.writeSync: the same bytes in the same order, handed to the OS as soon as
// Node's stdout would hand them over (it, too, writes at once while the pipe has room; on files and terminals it
// is synchronous anyway).
// Where the two could differ is a full pipe: Node's stdout then queues in memory and the event loop goes on (an
// interrupt is still handled), whereas a synchronous write would block. A pipe starts empty and holds at least
// one page, so writes are only direct within the first SYNC_BUDGET_BYTES of output; after that, and after any
// failed or short write, every line goes through process.stdout, which reports EPIPE and other errors itself.
// Windows keeps process.stdout: a console needs its wide-character writes, and its pipes block there already.

import { writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { LineOutput } from './writer.js';

/** The smallest capacity of a pipe (one page on Linux; more on macOS and the BSDs). */
export const SYNC_BUDGET_BYTES = 4096;
const STDOUT_FD = 1;

export class StdoutSink implements LineOutput {
  private stream: Writable | undefined;
  private budget: number;
  private readonly errorListeners: Array<(error: NodeJS.ErrnoException) => void> = [];

  constructor(
    /** Only for tests: where the stream side comes from (process.stdout). */
    private readonly openStream: () => Writable = () => process.stdout,
    direct = process.platform !== 'win32',
    private readonly writeDirect: (text: string) => number = (text) => writeSync(STDOUT_FD, text),
  ) {
    this.budget = direct ? SYNC_BUDGET_BYTES : 0;
  }

  write(text: string): void {
    let rest: string | Buffer = text;
    if (!this.stream) {
      const bytes = Buffer.byteLength(text);
      if (bytes <= this.budget) {
        this.budget -= bytes;
        let written = 0;
        try {
          written = this.writeDirect(text);
        } catch {
          // Nothing was written (EPIPE, EAGAIN, ...): the stream writes it again and reports what it finds.
        }
        if (written === bytes) return;
        rest = written === 0 ? text : Buffer.from(text).subarray(written);
      }
    }
    this.output().write(rest);
  }

  flush(): Promise<void> {
    const stream = this.stream;
    // Direct writes are in the OS already.
    if (!stream) return Promise.resolve();
    return new Promise((resolve) => {
      const ok = stream.write('', () => resolve());
      if (!ok) stream.once('drain', () => resolve());
    });
  }

  onError(listener: (error: NodeJS.ErrnoException) => void): void {
    this.errorListeners.push(listener);
    this.stream?.on('error', listener);
  }

  private output(): Writable {
    if (!this.stream) {
      this.stream = this.openStream();
      this.budget = 0;
      for (const listener of this.errorListeners) this.stream.on('error', listener);
    }
    return this.stream;
  }
}
