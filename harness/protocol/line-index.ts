// Where line N of a captured stdout is, without an entry per line: a stream of 30 million short lines would
// need hundreds of megabytes for two numbers a line. Every CHECKPOINT-th line start is kept; any other line
// is found by scanning forward from the checkpoint before it (at most CHECKPOINT newlines, natively).
import { asBuffer } from './lines.js';

const CHECKPOINT = 256;

export class LineIndex {
  private readonly checkpoints: number[] = [];
  private count = 0;
  private readonly bytes: Buffer;

  constructor(bytes: Uint8Array) {
    this.bytes = asBuffer(bytes);
  }

  /** Records the next line (lines must be added in order, starting at 1). */
  add(line: number, start: number): void {
    this.count = line;
    if ((line - 1) % CHECKPOINT === 0) this.checkpoints.push(start);
  }

  /** Start and end (newline and a trailing CR excluded) of a recorded line. */
  span(line: number): { start: number; end: number } | undefined {
    if (line < 1 || line > this.count) return undefined;
    const checkpoint = Math.floor((line - 1) / CHECKPOINT);
    let start = this.checkpoints[checkpoint]!;
    for (let at = checkpoint * CHECKPOINT + 1; at < line; at += 1) start = this.bytes.indexOf(0x0a, start) + 1;
    const newline = this.bytes.indexOf(0x0a, start);
    let end = newline === -1 ? this.bytes.length : newline;
    if (end > start && this.bytes[end - 1] === 0x0d) end -= 1;
    return { start, end };
  }
}
