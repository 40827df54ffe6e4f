// The raw-byte line splitter (R9): 0x0A only, CR tolerated, bytes never decoded before they are checked.

import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { excerptOf, firstInvalidUtf8Offset, isValidUtf8, splitLines } from '../../harness/protocol/lines.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('splitLines', () => {
  it('splits on 0x0A only, keeps 1-based numbers and drops one trailing CR', () => {
    const input = bytes('a\r\nb\rc\n\nd');
    const spans = splitLines(input);
    expect(spans.map((s) => input.toString('utf8', s.start, s.end))).toEqual(['a', 'b\rc', '', 'd']);
    expect(spans.map((s) => s.line)).toEqual([1, 2, 3, 4]);
    expect(spans.map((s) => s.hadCarriageReturn)).toEqual([true, false, false, false]);
    expect(spans.map((s) => s.terminated)).toEqual([true, true, true, false]);
  });

  it('does not split on U+2028, U+2029, CR alone or a NEL', () => {
    const input = bytes('{"type":"text","content":"a\u2028b\u2029c\u0085"}\n');
    expect(splitLines(input)).toHaveLength(1);
  });

  it('has no lines for empty input and no phantom line after a final newline', () => {
    expect(splitLines(new Uint8Array())).toEqual([]);
    expect(splitLines(bytes('x\n'))).toHaveLength(1);
    expect(splitLines(bytes('\n'))).toEqual([
      { line: 1, start: 0, end: 0, terminated: true, hadCarriageReturn: false },
    ]);
  });

  it('works on a plain Uint8Array that is a view into a larger buffer', () => {
    const backing = bytes('xxxx{"a":1}\n{"b":2}\nyyyy');
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 4, 16);
    expect(splitLines(view).map((s) => Buffer.from(view).toString('utf8', s.start, s.end))).toEqual([
      '{"a":1}',
      '{"b":2}',
    ]);
  });
});

describe('UTF-8 validity', () => {
  it.each([
    [[0xc3, 0xa9], true],
    [[0xe2, 0x80, 0xa8], true],
    [[0xf0, 0x9f, 0x98, 0x80], true],
    [[0xc3], false], // truncated
    [[0xc0, 0x80], false], // overlong
    [[0xed, 0xa0, 0x80], false], // surrogate
    [[0xff], false],
    [[0xf4, 0x90, 0x80, 0x80], false], // above U+10FFFF
  ])('%j valid=%s agrees with the native check', (seq, valid) => {
    const b = Buffer.from([0x61, ...seq, 0x62]);
    expect(isValidUtf8(b)).toBe(valid);
    expect(firstInvalidUtf8Offset(b, 0, b.length) === -1).toBe(valid);
    if (!valid) expect(firstInvalidUtf8Offset(b, 0, b.length)).toBe(1);
  });
});

describe('excerptOf', () => {
  it('shows invalid bytes as \\xNN and escapes control characters, BOM and separators', () => {
    const b = bytes([0xef, 0xbb, 0xbf], '{"a":"', [0xff], '"}', [0x1b], '[31m\u2028');
    expect(excerptOf(b, 0, b.length)).toBe('\\ufeff{"a":"\\xff"}\\u001b[31m\\u2028');
  });

  it('cuts long lines and says how long they were, without breaking a multi-byte character', () => {
    const b = bytes('é'.repeat(200));
    const text = excerptOf(b, 0, b.length, 11);
    expect(text).toBe('ééééé… (400 bytes)');
  });
});
