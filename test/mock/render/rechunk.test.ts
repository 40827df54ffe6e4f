import { describe, expect, test } from 'vitest';
import {
  rechunkSeeds,
  responseSeed,
  seededRandom,
  splitAtRandomOffsets,
} from '../../../harness/mock/render/rechunk.js';
import { malformFrame } from '../../../harness/mock/render/stream-plan.js';
import { splitIntoPieces } from '../../../harness/mock/render/wire-frames.js';

describe('re-chunking', () => {
  const bytes = new TextEncoder().encode('data: {"a":"naïve café ✓"}\n\n'.repeat(20));

  test('pieces concatenate to the original bytes; the same seed gives the same split, another seed another', () => {
    const split = (seed: number): number[] =>
      splitAtRandomOffsets(bytes, seededRandom(seed)).map((chunk) => chunk.length);
    const pieces = splitAtRandomOffsets(bytes, seededRandom(42));
    expect(Buffer.concat(pieces)).toEqual(Buffer.from(bytes));
    expect(split(42)).toEqual(split(42));
    expect(split(42)).not.toEqual(split(43));
    expect(pieces.some((chunk) => chunk.length <= 7)).toBe(true);
    expect(pieces.some((chunk) => chunk.length > 60)).toBe(true);
  });

  test('responses of one run get different splits; seeds for variants are distinct and reproducible', () => {
    expect(responseSeed(7, '0.0.0')).not.toBe(responseSeed(7, '0.1.0'));
    expect(rechunkSeeds(1, 3)).toEqual(rechunkSeeds(1, 3));
    expect(new Set(rechunkSeeds(1, 5)).size).toBe(5);
  });

  test('tool arguments split at code points, never inside a surrogate pair', () => {
    const value = '{"q":"😀😀😀"}';
    const pieces = splitIntoPieces(value, 4);
    expect(pieces.join('')).toBe(value);
    for (const piece of pieces) expect(piece).toBe(Buffer.from(piece, 'utf8').toString('utf8'));
  });

  test('a malformed frame keeps its framing but its JSON no longer parses', () => {
    const broken = malformFrame({ bytes: 'event: x\ndata: {"type":"x","text":"hello"}\n\n' });
    expect(broken.bytes.startsWith('event: x\ndata: {')).toBe(true);
    expect(broken.bytes.endsWith('\n\n')).toBe(true);
    expect(() => JSON.parse(broken.bytes.split('data: ')[1]!)).toThrow();
  });
});
