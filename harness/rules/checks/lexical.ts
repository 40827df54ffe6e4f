// framing.integer-lexeme, framing.lone-surrogate, framing.nesting-depth: what the contract's parser (serde,
// see docs/protocol.md#r14-the-yume-app-profile-follows-the-app) rejects although JSON.parse accepts it.
// Judged on the raw bytes of a line that already parsed, in one linear pass with no recursion: an integer
// field written with a fraction or an exponent (`121.0`, `1.21e2`, `1e-400`), a `\uD800`-`\uDFFF` escape
// without its partner, and nesting of MAX_NESTING levels or more.

import { asBuffer } from '../../protocol/lines.js';

/** serde_json's recursion limit: 127 nested levels parse, 128 do not. */
export const MAX_NESTING = 128;

/** Fields the contract's parser reads as unsigned integers (token counts, durations, turn counts). */
export const INTEGER_FIELDS: readonly string[] = [
  'input_tokens',
  'output_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
  'pre_tokens',
  'duration_ms',
  'duration_api_ms',
  'num_turns',
  'inputTokens',
  'outputTokens',
  'cacheReadInputTokens',
  'cacheCreationInputTokens',
  'webSearchRequests',
  'contextWindow',
];

/** Values under these keys are the shim's or a tool's free data (tool input, tool output): not protocol fields. */
const FREE_DATA_KEYS: readonly string[] = ['input', 'content', 'tool_use_result'];

export interface LexicalProblem {
  rule: 'framing.integer-lexeme' | 'framing.lone-surrogate' | 'framing.nesting-depth';
  /** 1-based byte column in the line. */
  column: number;
  message: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NO_PROBLEMS: readonly LexicalProblem[] = Object.freeze([]);
const UNICODE_ESCAPE = Buffer.from('\\u');

/**
 * Where the next `\u` starts in one buffer, found by a native search that the following lines reuse (they are
 * judged in order): a line without one, as most are, cannot hold a lone surrogate, and its strings are then
 * skipped by searching for their closing quote instead of being read byte by byte.
 */
export class UnicodeEscapeIndex {
  private searchedFrom = Number.POSITIVE_INFINITY;
  private next = -1;

  constructor(private readonly bytes: Buffer) {}

  /** Whether bytes[start, end) holds a `\u` (an escaped backslash before a `u` counts too: it only costs speed). */
  holds(start: number, end: number): boolean {
    if (start < this.searchedFrom || (this.next !== -1 && this.next < start)) {
      this.next = this.bytes.indexOf(UNICODE_ESCAPE, start);
      this.searchedFrom = start;
    }
    return this.next !== -1 && this.next < end;
  }
}

/** The index of the quote that closes the string opened at `open`, found natively (no `\u` in the string). */
function closingQuote(text: Buffer, open: number, end: number): number {
  let quote = text.indexOf(QUOTE, open + 1);
  while (quote !== -1 && quote < end && text[quote - 1] === BACKSLASH) {
    // Escaped when an odd number of backslashes stands right before it.
    let before = quote - 1;
    while (text[before] === BACKSLASH) before -= 1;
    if ((quote - 1 - before) % 2 === 0) break;
    quote = text.indexOf(QUOTE, quote + 1);
  }
  return quote === -1 || quote > end ? end : quote;
}

function hexValue(bytes: Uint8Array, at: number): number {
  let value = 0;
  for (let k = 0; k < 4; k += 1) {
    const c = bytes[at + k]!;
    const digit =
      c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** Whether bytes[start, end) spell one of `names` (ASCII), compared in place: no string is made for a key. */
function spellsOneOf(bytes: Uint8Array, start: number, end: number, names: readonly string[]): boolean {
  for (const name of names) {
    if (name.length !== end - start) continue;
    let k = 0;
    while (k < name.length && bytes[start + k] === name.charCodeAt(k)) k += 1;
    if (k === name.length) return true;
  }
  return false;
}

type Report = (rule: LexicalProblem['rule'], at: number, message: string) => void;

/**
 * The end of the string opened at `open`, read byte by byte (the line holds a `\u`): each `\u` escape of a
 * UTF-16 surrogate must come in a high-low pair, or it is reported.
 */
function escapedStringEnd(bytes: Uint8Array, open: number, end: number, report: Report): number {
  let j = open + 1;
  while (j < end) {
    const b = bytes[j]!;
    if (b === QUOTE) break;
    if (b !== BACKSLASH) {
      j += 1;
      continue;
    }
    if (bytes[j + 1] !== 0x75) {
      j += 2;
      continue;
    }
    const unit = hexValue(bytes, j + 2);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = bytes[j + 6] === BACKSLASH && bytes[j + 7] === 0x75 ? hexValue(bytes, j + 8) : -1;
      if (next >= 0xdc00 && next <= 0xdfff) {
        j += 12;
        continue;
      }
      report(
        'framing.lone-surrogate',
        j,
        `escape \\u${unit.toString(16)} is a high surrogate without a low one after it`,
      );
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      report('framing.lone-surrogate', j, `escape \\u${unit.toString(16)} is a low surrogate without a high one`);
    }
    j += 6;
  }
  return j;
}

/** The end of the number that starts at `at`: the first byte that is no digit, sign, point or exponent. */
function numberEnd(bytes: Uint8Array, at: number, end: number): number {
  let j = at + 1;
  for (; j < end; j += 1) {
    const d = bytes[j]!;
    if ((d < 0x30 || d > 0x39) && d !== 0x2e && d !== 0x65 && d !== 0x45 && d !== 0x2d && d !== 0x2b) break;
  }
  return j;
}

/** Whether the number in bytes[start, end) has a fraction or an exponent. */
function fractionOrExponent(bytes: Uint8Array, start: number, end: number): boolean {
  for (let j = start; j < end; j += 1) {
    const d = bytes[j]!;
    if (d === 0x2e || d === 0x65 || d === 0x45) return true;
  }
  return false;
}

function integerLexemeMessage(
  text: Buffer,
  key: { start: number; end: number },
  number: { start: number; end: number },
) {
  const written = text.toString('latin1', number.start, Math.min(number.end, number.start + 40));
  return `integer field "${text.toString('utf8', key.start, key.end)}" is written as ${written} (a fraction or an exponent); write digits only`;
}

/**
 * The problems of one line of valid JSON (bytes[start, end)), at most one per rule (the first). Assumes the
 * line parsed, so the grammar is known to be right. It runs on every line a shim prints, so it allocates
 * nothing for a line without problems: keys are compared byte by byte, and only where a number or a container
 * follows them. `escapes`: the index of the whole stream's `\u`s (validateStream keeps one for its lines);
 * without it, one is made for this line alone.
 */
export function lexicalProblems(
  bytes: Uint8Array,
  start: number,
  end: number,
  escapes?: UnicodeEscapeIndex,
): readonly LexicalProblem[] {
  const text = asBuffer(bytes);
  const escaped = (escapes ?? new UnicodeEscapeIndex(text)).holds(start, end);
  let problems: LexicalProblem[] | undefined;
  const report: Report = (rule, at, message) => {
    problems ??= [];
    if (problems.some((problem) => problem.rule === rule)) return;
    problems.push({ rule, column: at - start + 1, message });
  };
  let depth = 0;
  let freeDataDepth = 0; // > 0 while inside a container under a FREE_DATA_KEYS key
  // The last string read and the key in force (their bytes; -1: none). In valid JSON a colon follows only a
  // key, so the string read last before a colon is that key.
  let stringStart = -1;
  let stringEnd = -1;
  let keyStart = -1;
  let keyEnd = -1;
  let i = start;
  while (i < end) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      stringStart = i + 1;
      stringEnd = escaped ? escapedStringEnd(bytes, i, end, report) : closingQuote(text, i, end);
      i = stringEnd + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth === MAX_NESTING) {
        const message = `nesting reaches ${MAX_NESTING} levels here (the contract's parser stops at ${MAX_NESTING})`;
        report('framing.nesting-depth', i, message);
      }
      if (freeDataDepth === 0 && keyStart >= 0 && spellsOneOf(bytes, keyStart, keyEnd, FREE_DATA_KEYS))
        freeDataDepth = depth;
      keyStart = -1;
    } else if (c === 0x7d || c === 0x5d) {
      if (freeDataDepth === depth) freeDataDepth = 0;
      depth -= 1;
      keyStart = -1;
    } else if (c === 0x3a) {
      keyStart = stringStart;
      keyEnd = stringEnd;
    } else if (c === 0x2c) {
      keyStart = -1;
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      const j = numberEnd(bytes, i, end);
      // The fraction is looked for first: it is cheaper than comparing the key, and rare.
      if (
        freeDataDepth === 0 &&
        keyStart >= 0 &&
        fractionOrExponent(bytes, i + 1, j) &&
        spellsOneOf(bytes, keyStart, keyEnd, INTEGER_FIELDS)
      ) {
        const message = integerLexemeMessage(text, { start: keyStart, end: keyEnd }, { start: i, end: j });
        report('framing.integer-lexeme', i, message);
      }
      i = j;
      continue;
    }
    i += 1;
  }
  return problems ?? NO_PROBLEMS;
}
