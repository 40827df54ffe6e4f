// Splits a captured stdout on raw bytes (R9): only 0x0A ends a line, a trailing 0x0D is tolerated, and nothing
// is decoded before its UTF-8 validity is known, so invalid bytes, a BOM, CR and U+2028 are seen as they are.
import { Buffer, isUtf8 } from 'node:buffer';

/** Where one line sits in the captured bytes. `end` excludes the newline and a tolerated trailing CR. */
export interface LineSpan {
  /** 1-based line number. */
  line: number;
  start: number;
  end: number;
  /** False only for a last line that has no 0x0A after it (output cut off, or a missing final newline). */
  terminated: boolean;
  /** True when a 0x0D before the 0x0A was dropped. */
  hadCarriageReturn: boolean;
}

/** A view of the bytes as a Buffer without copying (Buffer methods such as indexOf are native and fast). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Calls `visit` for every line of `bytes`, in order. An empty input has no lines; an input ending in 0x0A has
 * no empty line after that newline. The callback gets plain numbers so the hot loop allocates nothing.
 */
export function forEachLine(
  bytes: Uint8Array,
  visit: (line: number, start: number, end: number, terminated: boolean, hadCarriageReturn: boolean) => void,
): number {
  const buf = asBuffer(bytes);
  const length = buf.length;
  let start = 0;
  let line = 0;
  while (start < length) {
    const newline = buf.indexOf(0x0a, start);
    const terminated = newline !== -1;
    const stop = terminated ? newline : length;
    const hadCarriageReturn = stop > start && buf[stop - 1] === 0x0d;
    line += 1;
    visit(line, start, hadCarriageReturn ? stop - 1 : stop, terminated, hadCarriageReturn);
    start = stop + 1;
  }
  return line;
}

/** All line spans of `bytes` (convenience for callers that want an array). */
export function splitLines(bytes: Uint8Array): LineSpan[] {
  const spans: LineSpan[] = [];
  forEachLine(bytes, (line, start, end, terminated, hadCarriageReturn) => {
    spans.push({ line, start, end, terminated, hadCarriageReturn });
  });
  return spans;
}

/** True when the byte range is valid UTF-8 (checked natively, no decoding). */
export function isValidUtf8(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
  if (start === 0 && end === bytes.length) return isUtf8(bytes);
  return isUtf8(asBuffer(bytes).subarray(start, end));
}

/** Offset of the first byte of an invalid UTF-8 sequence in the range, or -1 (used for precise messages). */
export function firstInvalidUtf8Offset(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    if (i + need >= end) return i; // sequence cut short by the end of the range
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k += 1) {
      const c = bytes[i + k]!;
      if ((c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

const EXCERPT_BYTES = 160;

/**
 * A short, printable excerpt of a byte range: valid text as is, invalid bytes as `\xNN`, control characters,
 * BOM and line separators escaped, so an excerpt never breaks a terminal or a report.
 */
export function excerptOf(bytes: Uint8Array, start: number, end: number, maxBytes = EXCERPT_BYTES): string {
  const stop = Math.min(end, start + maxBytes);
  const buf = asBuffer(bytes);
  let text = '';
  let i = start;
  while (i < stop) {
    const bad = firstInvalidUtf8Offset(buf, i, stop);
    const goodEnd = bad === -1 ? stop : bad;
    if (goodEnd > i) text += buf.toString('utf8', i, goodEnd);
    if (bad === -1) break;
    // A multi-byte character cut by the excerpt limit is not an encoding error: stop there.
    if (stop < end && stop - bad < 4 && isValidUtf8(buf, bad, Math.min(end, bad + 4))) break;
    text += `\\x${buf[bad]!.toString(16).padStart(2, '0')}`;
    i = bad + 1;
  }
  text = text.replace(/[\u0000-\u001f\u007f\u2028\u2029\ufeff]/g, (ch) => {
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return end > stop ? `${text}… (${end - start} bytes)` : text;
}
