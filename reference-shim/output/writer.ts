// Writes one JSON object per line to stdout, promptly, with credentials redacted.
// JSON.stringify escapes lone surrogates, so every line is valid UTF-8 (R9); invalid bytes from tools are
// replaced when their output is decoded. Lines produced while handling one input event (one network chunk
// may hold hundreds of deltas) are gathered and written together right after it (setImmediate), which keeps
// the first line's latency at about zero and saves a system call per line on big streams.
import type { Writable } from 'node:stream';
import { lineId } from './ids.js';
import type { SecretRedactor } from './redact.js';

export class LineWriter {
  private closed = false;
  private readonly closeListeners: Array<() => void> = [];
  private pending: string[] = [];
  private scheduled = false;

  constructor(
    private readonly stream: Writable,
    private readonly redactor: SecretRedactor,
  ) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      // The reader went away (EPIPE): stop writing and let the process end its turn quietly.
      this.closed = true;
      this.pending = [];
      if (error.code !== 'EPIPE') process.stderr.write(`yume-shim: stdout error: ${error.message}\n`);
      for (const listener of this.closeListeners.splice(0)) listener();
    });
  }

  /** Called once when stdout can no longer be written. */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Prints `fields` as one line, adding a fresh `uuid` so no two lines are ever byte-identical. */
  write(fields: Record<string, unknown>): void {
    if (this.closed) return;
    const json = JSON.stringify(fields);
    // `fields` is always a non-empty object literal, so the id can be spliced in before the closing brace.
    this.pending.push(`${json.slice(0, -1)},"uuid":"${lineId()}"}\n`);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  /** Resolves once everything written so far has been handed to the OS. */
  flush(): Promise<void> {
    this.drain();
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const ok = this.stream.write('', () => resolve());
      if (!ok) this.stream.once('drain', () => resolve());
    });
  }

  private drain(): void {
    this.scheduled = false;
    if (this.closed || this.pending.length === 0) return;
    const text = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    this.pending = [];
    this.stream.write(this.redactor.redact(text));
  }
}
