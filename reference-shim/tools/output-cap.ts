// Keeps tool output small enough for one stdout line (R9: lines over 100 KB are a warning; the app's parsers
// buffer ~100 KB). Large output keeps its head and tail and says how much was left out.

export const MAX_TOOL_OUTPUT_CHARS = 30_000;

export function capText(text: string, maxChars = MAX_TOOL_OUTPUT_CHARS): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.75);
  const tail = maxChars - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n[... output capped: ${omitted} characters omitted ...]\n${text.slice(text.length - tail)}`;
}

/**
 * Collects a byte stream while holding at most `headBytes + tailBytes` in memory, so a command printing
 * 50 MB costs kilobytes. Decoding replaces invalid UTF-8 with U+FFFD.
 */
export class CappedOutput {
  private readonly head: Buffer[] = [];
  private headSize = 0;
  private tail: Buffer[] = [];
  private tailSize = 0;
  private total = 0;

  constructor(
    private readonly headBytes = 22_000,
    private readonly tailBytes = 8_000,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headSize < this.headBytes) {
      const take = Math.min(chunk.length, this.headBytes - this.headSize);
      this.head.push(chunk.subarray(0, take));
      this.headSize += take;
      chunk = chunk.subarray(take);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailSize += chunk.length;
    // Drop whole chunks from the front while the rest still covers the tail budget.
    while (this.tail.length > 1 && this.tailSize - this.tail[0]!.length >= this.tailBytes) {
      this.tailSize -= this.tail.shift()!.length;
    }
  }

  get totalBytes(): number {
    return this.total;
  }

  text(): string {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    const kept = head.length + tail.length;
    if (kept === this.total) return Buffer.concat([head, tail]).toString('utf8');
    if (tail.length > this.tailBytes) tail = tail.subarray(tail.length - this.tailBytes);
    const omitted = this.total - head.length - tail.length;
    return `${head.toString('utf8')}\n[... output capped: ${omitted} bytes omitted (total ${this.total} bytes) ...]\n${tail.toString('utf8')}`;
  }
}
