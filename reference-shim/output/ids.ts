// Cheap unique ids. Lines only need ids that never repeat (the app drops byte-identical lines), so a random
// per-process prefix plus a counter does; it also spares loading node:crypto at start-up.

function randomHex(length: number): string {
  let out = '';
  while (out.length < length)
    out += Math.floor(Math.random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, length);
}

// 20 random hex digits with the UUID version and variant nibbles fixed, then a 12-digit counter.
const random = randomHex(20);
const prefix = `${random.slice(0, 12)}4${random.slice(13, 16)}${'89ab'[Number.parseInt(random[16]!, 16) % 4]}${random.slice(17, 20)}`;
let counter = 0;

/** A UUID-shaped id (version 4 layout), unique within the process and, by its random prefix, across processes. */
export function lineId(): string {
  counter += 1;
  const hex = prefix + counter.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export { randomHex };
