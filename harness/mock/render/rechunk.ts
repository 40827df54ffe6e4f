// Re-chunking: the same response bytes cut at different offsets. A correct client's output must not change,
// whatever the split (mid-line, mid-UTF-8 character, several events in one chunk).

export type ChunkMode =
  | { kind: 'frames' } // one write per provider event (the natural split)
  | { kind: 'seeded'; seed: number } // random offsets drawn from the seed (deterministic)
  | { kind: 'every-offset' }; // one byte per write: every offset is a boundary (opt-in, slow)

/** Small deterministic PRNG (mulberry32); returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes the run seed with a response key so each response of a run gets its own, reproducible split. */
export function responseSeed(seed: number, key: string): number {
  let hash = seed >>> 0;
  for (const ch of key) hash = (Math.imul(hash ^ ch.charCodeAt(0), 0x01000193) + 0x9e3779b9) >>> 0;
  return hash;
}

/**
 * Splits bytes into chunks: mostly small pieces (1–7 bytes, which land inside lines and UTF-8 sequences)
 * mixed with large ones (up to 400 bytes, which merge several events).
 */
export function splitAtRandomOffsets(bytes: Uint8Array, random: () => number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const size = random() < 0.5 ? 1 + Math.floor(random() * 7) : 8 + Math.floor(random() * 392);
    chunks.push(bytes.subarray(offset, Math.min(bytes.length, offset + size)));
    offset += size;
  }
  return chunks;
}

/** `count` distinct seeds derived from `base`, for running a few re-chunked variants. */
export function rechunkSeeds(base: number, count: number): number[] {
  const random = seededRandom(base);
  const seeds = new Set<number>();
  while (seeds.size < count) seeds.add(1 + Math.floor(random() * 2_147_483_646));
  return [...seeds];
}
