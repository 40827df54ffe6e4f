// framing.integer-lexeme, framing.lone-surrogate, framing.nesting-depth: what the contract's parser (serde,
// see docs/protocol.md#r14-the-yume-app-profile-follows-the-app) rejects although JSON.parse accepts it.
// Judged on the raw bytes of a line that already parsed, in one linear pass with no recursion: an integer
// field written with a fraction or an exponent (`121.0`, `1.21e2`, `1e-400`), a `\uD800`-`\uDFFF` escape
// without its partner, and nesting of MAX_NESTING levels or more.

import { asBuffer } from '../../protocol/lines.js';

/** serde_json's recursion limit: 127 nested levels parse, 128 do not. */
export const MAX_NESTING = 128;

/** Fields the contract's parser reads as unsigned integers (token counts, durations, turn counts). */
export const INTEGER_FIELDS: ReadonlySet<string> = new Set([
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
]);

/** Values under these keys are the shim's or a tool's free data (tool input, tool output): not protocol fields. */
const FREE_DATA_KEYS: ReadonlySet<string> = new Set(['input', 'content', 'tool_use_result']);

export interface LexicalProblem {
  rule: 'framing.integer-lexeme' | 'framing.lone-surrogate' | 'framing.nesting-depth';
  /** 1-based byte column in the line. */
  column: number;
  message: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

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

const isNumberByte = (c: number) =>
  (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;

/**
 * The problems of one line of valid JSON (bytes[start, end)), at most one per rule (the first). Assumes the
 * line parsed, so the grammar is known to be right.
 */
export function lexicalProblems(bytes: Uint8Array, start: number, end: number): LexicalProblem[] {
  const problems: LexicalProblem[] = [];
  const seen = new Set<LexicalProblem['rule']>();
  const report = (rule: LexicalProblem['rule'], at: number, message: string) => {
    if (seen.has(rule)) return;
    seen.add(rule);
    problems.push({ rule, column: at - start + 1, message });
  };
  const text = asBuffer(bytes);
  // Per open container: whether it is an object (a comma in one starts a key).
  const objects: boolean[] = [];
  let depth = 0;
  let freeDataDepth = 0; // > 0 while inside a container under a FREE_DATA_KEYS key
  let expectKey = false;
  let lastString: [number, number] | undefined;
  let currentKey: string | undefined;
  let i = start;
  while (i < end) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      let j = i + 1;
      while (j < end && bytes[j] !== QUOTE) {
        if (bytes[j] !== BACKSLASH) {
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
      lastString = expectKey ? [i + 1, j] : undefined;
      i = j + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth === MAX_NESTING)
        report(
          'framing.nesting-depth',
          i,
          `nesting reaches ${MAX_NESTING} levels here (the contract's parser stops at ${MAX_NESTING})`,
        );
      objects.push(c === 0x7b);
      if (freeDataDepth === 0 && currentKey !== undefined && FREE_DATA_KEYS.has(currentKey)) freeDataDepth = depth;
      expectKey = c === 0x7b;
      currentKey = undefined;
      i += 1;
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      if (freeDataDepth === depth) freeDataDepth = 0;
      objects.pop();
      depth -= 1;
      expectKey = false;
      currentKey = undefined;
      i += 1;
      continue;
    }
    if (c === 0x3a) {
      currentKey = lastString ? text.toString('utf8', lastString[0], lastString[1]) : undefined;
      expectKey = false;
      i += 1;
      continue;
    }
    if (c === 0x2c) {
      expectKey = objects[objects.length - 1] === true;
      currentKey = undefined;
      i += 1;
      continue;
    }
    if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      let j = i + 1;
      let fractional = false;
      while (j < end && isNumberByte(bytes[j]!)) {
        const d = bytes[j]!;
        if (d === 0x2e || d === 0x65 || d === 0x45) fractional = true;
        j += 1;
      }
      if (fractional && freeDataDepth === 0 && currentKey !== undefined && INTEGER_FIELDS.has(currentKey)) {
        const written = text.toString('latin1', i, Math.min(j, i + 40));
        report(
          'framing.integer-lexeme',
          i,
          `integer field "${currentKey}" is written as ${written} (a fraction or an exponent); write digits only`,
        );
      }
      i = j;
      continue;
    }
    i += 1;
  }
  return problems;
}
