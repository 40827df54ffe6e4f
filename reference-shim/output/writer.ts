// Writes one JSON object per line to stdout, promptly, with credentials redacted.
// JSON.stringify escapes a lone surrogate as `\udXXX`, which keeps the line valid UTF-8 (R9) but is what the
// app's contract parser rejects (docs/protocol.md#r14-the-yume-app-profile-follows-the-app): such strings are
// made well-formed (U+FFFD) first. Invalid bytes from tools are replaced when their output is decoded. Lines produced while handling one input event (one network chunk
// may hold hundreds of deltas) are gathered and written together right after it, which keeps the first line's
// latency at about zero and saves a system call per line on big streams. "Right after" is process.nextTick: Node
// runs it once the promise chain that handles the chunk has settled (its async generators included), so a whole
// chunk's lines go out in one write; setImmediate would do the same a loop phase later, and its first use costs a
// one-turn process ~0.1 ms.
import type { Writable } from 'node:stream';
import { lineId } from './ids.js';
import type { SecretRedactor } from './redact.js';

const LONE_SURROGATE_ESCAPE = /\\ud[89a-f][0-9a-f]{2}/;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\uFFFD');

/** A JSON.stringify replacer that replaces lone surrogates in strings (keys included) by U+FFFD. */
function wellFormedStrings(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return wellFormed(value);
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.some((key) => wellFormed(key) !== key))
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [wellFormed(key), item]));
  }
  return value;
}

/** Where the lines go: standard output (stdout-sink.ts), or any stream (streamOutput). */
export interface LineOutput {
  /** Hands `text` to the OS, or queues it when it cannot take it yet. */
  write(text: string): void;
  /** Resolves once everything written so far has been handed to the OS. */
  flush(): Promise<void>;
  /** Called when a write fails (EPIPE: the reader went away). */
  onError(listener: (error: NodeJS.ErrnoException) => void): void;
}

export function streamOutput(stream: Writable): LineOutput {
  return {
    write: (text) => void stream.write(text),
    flush: () =>
      new Promise((resolve) => {
        const ok = stream.write('', () => resolve());
        if (!ok) stream.once('drain', () => resolve());
      }),
    onError: (listener) => void stream.on('error', listener),
  };
}

export class LineWriter {
  private closed = false;
  private readonly closeListeners: Array<() => void> = [];
  private pending: string[] = [];
  private scheduled = false;

  constructor(
    private readonly output: LineOutput,
    private readonly redactor: SecretRedactor,
  ) {
    output.onError((error) => {
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
    let json = JSON.stringify(fields);
    // Only a lone surrogate makes JSON.stringify print `\ud8..`-`\udf..`; a valid pair is printed as UTF-8.
    // (`includes` first: nearly every line has no `\ud`, and the pattern's first run costs a short process ~20 µs.)
    if (json.includes('\\ud') && LONE_SURROGATE_ESCAPE.test(json)) json = JSON.stringify(fields, wellFormedStrings);
    // `fields` is always a non-empty object literal, so the id can be spliced in before the closing brace.
    this.pending.push(`${json.slice(0, -1)},"uuid":"${lineId()}"}\n`);
    if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(() => this.drain());
    }
  }

  /** Resolves once everything written so far has been handed to the OS. */
  flush(): Promise<void> {
    this.drain();
    if (this.closed) return Promise.resolve();
    return this.output.flush();
  }

  private drain(): void {
    this.scheduled = false;
    if (this.closed || this.pending.length === 0) return;
    const text = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    this.pending = [];
    this.output.write(this.redactor.redact(text));
  }
}
