// Writes one JSON object per line to stdout, promptly, with credentials redacted.
// JSON.stringify escapes lone surrogates, so every line is valid UTF-8 (R9); invalid bytes from tools are
// replaced when their output is decoded (tools/output-buffer.ts).
import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { SecretRedactor } from './redact.js';

export class LineWriter {
  private closed = false;
  private readonly closeListeners: Array<() => void> = [];

  constructor(
    private readonly stream: Writable,
    private readonly redactor: SecretRedactor,
  ) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      // The reader went away (EPIPE): stop writing and let the process end its turn quietly.
      this.closed = true;
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
    const line = JSON.stringify({ ...fields, uuid: randomUUID() });
    this.stream.write(this.redactor.redact(line) + '\n');
  }

  /** Resolves once everything written so far has been handed to the OS. */
  flush(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const ok = this.stream.write('', () => resolve());
      if (!ok) this.stream.once('drain', () => resolve());
    });
  }
}
