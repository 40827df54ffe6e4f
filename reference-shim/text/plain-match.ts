// Small text checks the shim makes on every start, written with string methods rather than regular expressions:
// a process runs a given regular expression for the first time at a cost of 20–100 µs (V8 compiles it then), and
// a one-turn process would pay that for each of these (~0.4 ms in all). Each function says which pattern it is.

/** Letters, digits, `_` and `-`: the characters of a session id (R8). */
function isIdCharacter(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || // 0-9
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    code === 0x5f || // _
    code === 0x2d // -
  );
}

/** /^[A-Za-z0-9_-]{1,maxLength}$/ */
export function isIdText(text: string, maxLength: number): boolean {
  if (text.length === 0 || text.length > maxLength) return false;
  for (let index = 0; index < text.length; index += 1) if (!isIdCharacter(text.charCodeAt(index))) return false;
  return true;
}

/** text.replace(/[^A-Za-z0-9_.-]/g, replacement): one plain path segment (the dot is kept). */
export function fileNameSafe(text: string, replacement = '_'): string {
  let safe = '';
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    safe += isIdCharacter(code) || code === 0x2e ? text[index] : replacement;
  }
  return safe;
}

/** text.replace(/\/+$/, '') */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}

/** /(word1|word2|…)/i.test(text) for ASCII words: upper-cased, text may match a few more non-ASCII spellings. */
export function includesAnyWord(text: string, upperCaseWords: readonly string[]): boolean {
  const upper = text.toUpperCase();
  return upperCaseWords.some((word) => upper.includes(word));
}
