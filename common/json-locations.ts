// Maps JSON Pointers to 1-based line numbers in the source text, so that a schema error can name the line
// of the offending value (ajv only gives the pointer). Assumes the text already parsed with JSON.parse.

/** Returns a map from JSON Pointer ('' for the root, '/turns/0/prompt', ...) to the line where its value starts. */
export function jsonPointerLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let pos = 0;
  let line = 1;

  const skipWhitespace = (): void => {
    while (pos < text.length) {
      const ch = text[pos];
      if (ch === '\n') line += 1;
      else if (ch !== ' ' && ch !== '\t' && ch !== '\r' && ch !== '\ufeff') return;
      pos += 1;
    }
  };
  const readString = (): string => {
    const start = pos;
    pos += 1; // opening quote
    while (pos < text.length && text[pos] !== '"') pos += text[pos] === '\\' ? 2 : 1;
    pos += 1; // closing quote
    return JSON.parse(text.slice(start, pos)) as string;
  };
  const escapePointerToken = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

  const readValue = (pointer: string): void => {
    skipWhitespace();
    lines.set(pointer, line);
    const ch = text[pos];
    if (ch === '{') {
      pos += 1;
      skipWhitespace();
      if (text[pos] === '}') {
        pos += 1;
        return;
      }
      for (;;) {
        skipWhitespace();
        const keyLine = line;
        const key = readString();
        skipWhitespace();
        pos += 1; // colon
        const child = `${pointer}/${escapePointerToken(key)}`;
        readValue(child);
        // A missing-property error points at the object; an extra-property error at the key's own line.
        if (!lines.has(`${child}#key`)) lines.set(`${child}#key`, keyLine);
        skipWhitespace();
        if (text[pos] === ',') {
          pos += 1;
          continue;
        }
        pos += 1; // closing brace
        return;
      }
    }
    if (ch === '[') {
      pos += 1;
      skipWhitespace();
      if (text[pos] === ']') {
        pos += 1;
        return;
      }
      for (let index = 0; ; index += 1) {
        readValue(`${pointer}/${index}`);
        skipWhitespace();
        if (text[pos] === ',') {
          pos += 1;
          continue;
        }
        pos += 1; // closing bracket
        return;
      }
    }
    if (ch === '"') {
      readString();
      return;
    }
    while (pos < text.length && !/[,\]}\s]/.test(text[pos] ?? '')) pos += 1; // number, true, false, null
  };

  readValue('');
  return lines;
}

/** 1-based line and column of a character offset (for JSON.parse syntax errors, which report a position). */
export function offsetToLineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lineStart = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lineStart };
}
