// validateStream(): judges one captured stdout (raw bytes) against the rule catalog. Pure and synchronous; the
// runner calls it once per process output and the `validate` command once per file.
import { isUtf8 } from 'node:buffer';
import { type CanonicalEvent, messageToCanonicalEvents } from '../protocol/canonical.js';
import { DIALECT_NAMES, DialectTally, type LineDialect, lineDialect, type StreamDialect } from '../protocol/dialect.js';
import { LineIndex } from '../protocol/line-index.js';
import { asBuffer, excerptOf, firstInvalidUtf8Offset, forEachLine } from '../protocol/lines.js';
import { AppHazardChecks } from '../rules/checks/app-hazards.js';
import type { CheckContext, Json } from '../rules/checks/context.js';
import { diagnoseUnparsableLine } from '../rules/checks/framing.js';
import { lexicalProblems, UnicodeEscapeIndex } from '../rules/checks/lexical.js';
import { checkMessageSchema } from '../rules/checks/message-schema.js';
import { SequenceChecks, type SequenceMode } from '../rules/checks/sequence.js';
import type { Finding, Profile } from '../rules/types.js';
import { FindingCollector } from './findings.js';

export interface ValidateOptions {
  /** Rule profile (default `spec`). */
  profile?: Profile;
  /** Where the bytes came from (a file path, `-`, or a run label); carried into the result for reports. */
  source?: string;
  /** `spawn-per-turn` also requires one turn per stream (turn.nothing-after-result). Default: any number of turns. */
  mode?: SequenceMode;
  /** Keep the canonical events in the result (default true; the `validate` command turns it off to save memory). */
  keepEvents?: boolean;
  /** Findings listed per rule before the rest are only counted (default 50). */
  maxFindingsPerRule?: number;
}

export interface ValidationResult {
  source?: string;
  profile: Profile;
  dialect: StreamDialect;
  /** Lines only the flat dialect has, and Claude envelopes (a stream of shared lines alone reads as `flat`). */
  dialectLines: { flat: number; envelope: number };
  /** Number of lines (0x0A-terminated, plus an unterminated last one). */
  lines: number;
  /** Lines that were JSON objects with a string `type`. */
  messages: number;
  events: CanonicalEvent[];
  findings: Finding[];
  /** No MUST finding. */
  conforms: boolean;
  counts: { must: number; should: number; info: number };
}

const LINE_SIZE_LIMIT = 100_000;
/** Rules still meaningful when a stream turned out to be another CLI's native dialect. */
const FOREIGN_KEEPS = /^(framing\.|dialect\.|app\.(blank-line|dollar-line|duplicate-line))/;

/**
 * True for a line no JSON parser accepts and no framing rule but framing.single-line-json concerns: its first
 * byte cannot start a JSON value (nor whitespace or a BOM), and it has no `{` (a prefixed object) and no ESC
 * (ANSI colours). Decided on bytes, in native searches.
 */
function cannotBeJson(buf: Buffer, start: number, end: number): boolean {
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
function openedButNotClosed(buf: Buffer, start: number, end: number): boolean {
  const first = buf[start];
  if (first !== 0x7b && first !== 0x5b) return false;
  let last = end - 1;
  while (last > start && (buf[last] === 0x20 || buf[last] === 0x09)) last -= 1;
  if (buf[last] === (first === 0x7b ? 0x7d : 0x5d) && last > start) return false;
  const line = buf.subarray(start, end);
  return line.indexOf(0x1b) === -1;
}

export function validateStream(bytes: Uint8Array, options: ValidateOptions = {}): ValidationResult {
  const profile = options.profile ?? 'spec';
  const appProfile = profile === 'yume-app';
  const buf = asBuffer(bytes);
  // Whole-input check first: for the usual valid capture no line needs its own UTF-8 check.
  const allValid = isUtf8(buf);
  const lineIndex = new LineIndex(buf);
  const escapes = new UnicodeEscapeIndex(buf);
  const excerptForLine = (line: number) => {
    const span = lineIndex.span(line);
    return span ? excerptOf(buf, span.start, span.end) : undefined;
  };
  const collector = new FindingCollector(profile, excerptForLine, options.maxFindingsPerRule);
  const ctx: CheckContext = { profile, report: (rule, line, message) => collector.report(rule, line, message) };

  const sequence = new SequenceChecks(ctx, options.mode);
  const app = appProfile ? new AppHazardChecks(ctx) : undefined;
  const seenLines = appProfile ? new Map<string, number>() : undefined;
  const tally = new DialectTally();
  const keepEvents = options.keepEvents ?? true;
  const events: CanonicalEvent[] = [];
  const foreignLines: { line: number; dialect: Extract<LineDialect, StreamDialect> }[] = [];
  let firstFlatLine = 0;
  let firstEnvelopeLine = 0;
  let messages = 0;
  let lastMessageLine = 0;
  let lastLineParsed = false;
  let currentFlat = false;
  const onEvent = (event: CanonicalEvent) => {
    sequence.onEvent(event, currentFlat);
    if (keepEvents) events.push(event);
  };

  const lineCount = forEachLine(buf, (line, start, end, terminated) => {
    lineIndex.add(line, start);
    lastLineParsed = false;
    if (end === start) {
      ctx.report(appProfile ? 'app.blank-line' : 'framing.blank-line', line, 'blank line');
      return;
    }
    if (!allValid) {
      const bad = firstInvalidUtf8Offset(buf, start, end);
      if (bad !== -1) {
        ctx.report(
          'framing.utf8',
          line,
          `invalid UTF-8 byte 0x${buf[bad]!.toString(16).padStart(2, '0')} at column ${bad - start + 1}`,
        );
        return;
      }
    }
    // Fast path for lines that cannot be JSON at all (a flood of junk): no decoding, no exception thrown.
    if (terminated && cannotBeJson(buf, start, end)) {
      ctx.report('framing.single-line-json', line, 'line is not JSON');
      return;
    }
    if (terminated && openedButNotClosed(buf, start, end)) {
      ctx.report(
        'framing.single-line-json',
        line,
        'line is not one complete JSON value; pretty-printed or split objects are not allowed',
      );
      return;
    }
    if (end - start > LINE_SIZE_LIMIT)
      ctx.report('framing.line-size', line, `line is ${end - start} bytes (limit ${LINE_SIZE_LIMIT})`);
    const text = buf.toString('utf8', start, end);
    const first = text.charCodeAt(0);
    // Cheap pre-test: only lines starting with whitespace or `$` can be blank or a `$` terminator.
    if (first === 0x20 || first === 0x09 || first === 0x24 || first === 0x0d) {
      const trimmed = text.trim();
      if (trimmed === '') {
        ctx.report(appProfile ? 'app.blank-line' : 'framing.blank-line', line, 'line holds only whitespace');
        return;
      }
      if (trimmed === '$') {
        ctx.report(appProfile ? 'app.dollar-line' : 'framing.dollar-terminator', line, 'legacy `$` terminator line');
        return;
      }
    }
    if (seenLines) {
      const earlier = seenLines.get(text);
      if (earlier !== undefined)
        ctx.report('app.duplicate-line', line, `line is byte-identical to line ${earlier}; the app drops it`);
      else seenLines.set(text, line);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      const verdict = diagnoseUnparsableLine(text, error, terminated);
      ctx.report(verdict.rule, line, verdict.message);
      return;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      ctx.report(
        'framing.json-object',
        line,
        `line is ${parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a JSON ${typeof parsed}`}, not an object`,
      );
      return;
    }
    lastLineParsed = true;
    for (const problem of lexicalProblems(buf, start, end, escapes))
      ctx.report(problem.rule, line, `${problem.message} (column ${problem.column})`);
    const message = parsed as Json;
    if (typeof message.type !== 'string' || message.type === '') {
      ctx.report(
        'schema.type-field',
        line,
        message.type === undefined
          ? 'message has no `type` field'
          : message.type === ''
            ? '`type` is an empty string'
            : '`type` is not a string',
      );
      return;
    }
    messages += 1;
    lastMessageLine = line;
    const dialect = lineDialect(message);
    tally.add(dialect);
    if (dialect === 'gemini-cli-native' || dialect === 'codex-native') {
      foreignLines.push({ line, dialect });
      return;
    }
    currentFlat = dialect === 'flat';
    if (currentFlat) firstFlatLine ||= line;
    else if (dialect === 'envelope') firstEnvelopeLine ||= line;
    checkMessageSchema(message, line, ctx);
    app?.onMessage(message, line, currentFlat);
    messageToCanonicalEvents(message, line, onEvent);
  });

  // An unterminated last line that failed to parse already says "cut off"; a complete one only lacks the newline.
  if (lastLineParsed && buf[buf.length - 1] !== 0x0a) {
    ctx.report('framing.final-newline', lineCount, 'the last line has no newline at the end');
  }

  const dialect = tally.result();
  const foreign = dialect === 'gemini-cli-native' || dialect === 'codex-native';
  if (messages === 0) {
    ctx.report(
      'framing.not-empty',
      lineCount === 0 ? undefined : lineCount,
      lineCount === 0 ? 'stdout is empty' : `no stream-json message in ${lineCount} line(s)`,
    );
  } else if (foreign) {
    const firstForeign = foreignLines[0]!;
    ctx.report(
      'dialect.stream-json',
      firstForeign.line,
      `this is ${DIALECT_NAMES[dialect]}, not stream-json (${foreignLines.length} of ${messages} messages)`,
    );
  } else {
    sequence.end(lastMessageLine);
    for (const stray of foreignLines) {
      ctx.report('dialect.stream-json', stray.line, `line is ${DIALECT_NAMES[stray.dialect]}, not stream-json`);
    }
    if (dialect === 'mixed') {
      const later = Math.max(firstFlatLine, firstEnvelopeLine);
      ctx.report(
        'dialect.consistent',
        later,
        `stream mixes flat lines (from line ${firstFlatLine}) and Claude envelopes (from line ${firstEnvelopeLine})`,
      );
    }
  }

  const findings = collector.result(foreign ? (f) => FOREIGN_KEEPS.test(f.rule) : undefined);
  const counts = { must: 0, should: 0, info: 0 };
  for (const finding of findings) {
    if (finding.severity === 'MUST') counts.must += 1;
    else if (finding.severity === 'SHOULD') counts.should += 1;
    else counts.info += 1;
  }
  const result: ValidationResult = {
    profile,
    dialect: messages === 0 ? 'unknown' : dialect,
    dialectLines: { flat: tally.flat, envelope: tally.envelope },
    lines: lineCount,
    messages,
    events: foreign ? [] : events,
    findings,
    conforms: counts.must === 0,
    counts,
  };
  if (options.source !== undefined) result.source = options.source;
  return result;
}
