// Byte-level tests of a line's shape, made before anything is decoded or parsed: a flood of junk costs no
// decoding and no exception, and an object split over lines is named as such.

/**
 * True for a line no JSON parser accepts and no framing rule but framing.single-line-json concerns: its first
 * byte cannot start a JSON value (nor whitespace or a BOM), and it has no `{` (a prefixed object) and no ESC
 * (ANSI colours). Decided on bytes, in native searches.
 */
export function cannotBeJson(buf: Buffer, start: number, end: number): boolean {
  const first = buf[start]!;
  const canStart =
    first === 0x7b || // {
    first === 0x5b || // [
    first === 0x22 || // "
    first === 0x2d || // -
    (first >= 0x30 && first <= 0x39) ||
    first === 0x74 || // t(rue)
    first === 0x66 || // f(alse)
    first === 0x6e || // n(ull)
    first === 0x20 ||
    first === 0x09 ||
    first === 0x0d ||
    first === 0x24 || // a `$` terminator line
    first === 0xef || // a BOM
    first === 0x1b; // ESC
  if (canStart) return false;
  // Searched within the line only (indexOf on the whole buffer would scan to its end for every line).
  if (end - start <= 256) {
    for (let at = start; at < end; at += 1) if (buf[at] === 0x7b || buf[at] === 0x1b) return false;
    return true;
  }
  const line = buf.subarray(start, end);
  return line.indexOf(0x7b) === -1 && line.indexOf(0x1b) === -1;
}

/** True for a line that opens an object or array and does not close it at its end (no ESC in it). */
export function openedButNotClosed(buf: Buffer, start: number, end: number): boolean {
  const first = buf[start];
  if (first !== 0x7b && first !== 0x5b) return false;
  let last = end - 1;
  while (last > start && (buf[last] === 0x20 || buf[last] === 0x09)) last -= 1;
  if (buf[last] === (first === 0x7b ? 0x7d : 0x5d) && last > start) return false;
  const line = buf.subarray(start, end);
  return line.indexOf(0x1b) === -1;
}
