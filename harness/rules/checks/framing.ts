// Explains why a line is not one JSON value (R9). Called only after JSON.parse failed, so it may be slow.

export interface FramingVerdict {
  rule: 'framing.no-bom' | 'framing.no-ansi' | 'framing.no-prefix' | 'framing.single-line-json';
  message: string;
}

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007|\u001b/;

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The reason a decoded line (valid UTF-8, not blank) failed JSON.parse. */
export function diagnoseUnparsableLine(text: string, error: unknown, terminated: boolean): FramingVerdict {
  if (text.charCodeAt(0) === 0xfeff) {
    return { rule: 'framing.no-bom', message: 'line starts with a byte order mark (EF BB BF)' };
  }
  if (text.includes('\u001b')) {
    const match = ANSI.exec(text);
    return {
      rule: 'framing.no-ansi',
      message: `line contains an ANSI escape sequence ${JSON.stringify(match?.[0] ?? '\u001b')}`,
    };
  }
  const brace = text.indexOf('{');
  if (brace > 0 && text.length < 1_000_000 && parses(text.slice(brace))) {
    return {
      rule: 'framing.no-prefix',
      message: `JSON object is preceded by ${JSON.stringify(text.slice(0, Math.min(brace, 40)))}`,
    };
  }
  if (error instanceof RangeError) {
    return { rule: 'framing.single-line-json', message: 'line is nested too deeply to parse' };
  }
  const reason = error instanceof Error ? error.message : String(error);
  if (!terminated) {
    return {
      rule: 'framing.single-line-json',
      message: `last line is incomplete JSON and has no newline: output was cut off (${reason})`,
    };
  }
  const trimmed = text.trim();
  if (trimmed.startsWith('{') && /}\s*{/.test(trimmed) && !parses(trimmed)) {
    return {
      rule: 'framing.single-line-json',
      message: `line holds more than one JSON value or is malformed (${reason})`,
    };
  }
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[') && !trimmed.startsWith('"')) {
    return { rule: 'framing.single-line-json', message: `line is not JSON (${reason})` };
  }
  return {
    rule: 'framing.single-line-json',
    message: `line is not one complete JSON value; pretty-printed or split objects are not allowed (${reason})`,
  };
}
