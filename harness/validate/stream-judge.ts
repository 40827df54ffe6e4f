// One stream's judging, line by line: framing on the raw bytes, then the message (schema, lexical form,
// dialect, the app's hazards) and its canonical events for the sequence checks; at the end, what only the
// whole stream shows (final newline, empty stream, dialect). validateStream() drives it.
import { isUtf8 } from 'node:buffer';
import { type CanonicalEvent, messageToCanonicalEvents } from '../protocol/canonical.js';
import {
  DIALECT_NAMES,
  DialectTally,
  type ForeignDialect,
  isForeignDialect,
  lineDialect,
  type StreamDialect,
} from '../protocol/dialect.js';
import { LineIndex } from '../protocol/line-index.js';
import { excerptOf, firstInvalidUtf8Offset } from '../protocol/lines.js';
import { AppHazardChecks } from '../rules/checks/app-hazards.js';
import type { CompactTurn } from '../rules/checks/compaction.js';
import type { CheckContext, Json } from '../rules/checks/context.js';
import { diagnoseUnparsableLine } from '../rules/checks/framing.js';
import { lexicalProblems, UnicodeEscapeIndex } from '../rules/checks/lexical.js';
import { checkMessageSchema } from '../rules/checks/message-schema.js';
import { SequenceChecks, type SequenceMode } from '../rules/checks/sequence.js';
import type { Profile } from '../rules/types.js';
import { FindingCollector } from './findings.js';
import { cannotBeJson, openedButNotClosed } from './line-shape.js';

const LINE_SIZE_LIMIT = 100_000;

export interface StreamJudgeOptions {
  profile: Profile;
  mode?: SequenceMode;
  /** Keep the canonical events. */
  keepEvents: boolean;
  maxFindingsPerRule?: number;
  compactTurns?: readonly CompactTurn[];
}

export class StreamJudge {
  readonly collector: FindingCollector;
  readonly tally = new DialectTally();
  readonly events: CanonicalEvent[] = [];
  /** Lines that were JSON objects with a string `type`. */
  messages = 0;
  private readonly ctx: CheckContext;
  private readonly appProfile: boolean;
  /** Whole-input check first: for the usual valid capture no line needs its own UTF-8 check. */
  private readonly allValid: boolean;
  private readonly lineIndex: LineIndex;
  private readonly escapes: UnicodeEscapeIndex;
  private readonly sequence: SequenceChecks;
  private readonly app: AppHazardChecks | undefined;
  private readonly seenLines: Map<string, number> | undefined;
  private readonly foreignLines: { line: number; dialect: ForeignDialect }[] = [];
  private firstFlatLine = 0;
  private firstEnvelopeLine = 0;
  private lastMessageLine = 0;
  private lastLineParsed = false;
  private currentFlat = false;

  constructor(
    private readonly buf: Buffer,
    private readonly options: StreamJudgeOptions,
  ) {
    const profile = options.profile;
    this.appProfile = profile === 'yume-app';
    this.allValid = isUtf8(buf);
    this.lineIndex = new LineIndex(buf);
    this.escapes = new UnicodeEscapeIndex(buf);
    const excerptForLine = (line: number) => {
      const span = this.lineIndex.span(line);
      return span ? excerptOf(buf, span.start, span.end) : undefined;
    };
    const collector = new FindingCollector(profile, excerptForLine, options.maxFindingsPerRule);
    this.collector = collector;
    this.ctx = { profile, report: (rule, line, message) => collector.report(rule, line, message) };
    this.sequence = new SequenceChecks(this.ctx, options.mode, options.compactTurns);
    this.app = this.appProfile ? new AppHazardChecks(this.ctx) : undefined;
    this.seenLines = this.appProfile ? new Map<string, number>() : undefined;
  }

  /** One line of the stream (forEachLine's callback). */
  onLine(line: number, start: number, end: number, terminated: boolean): void {
    this.lineIndex.add(line, start);
    this.lastLineParsed = false;
    if (this.rejectedBytes(line, start, end, terminated)) return;
    const text = this.buf.toString('utf8', start, end);
    if (this.rejectedText(text, line)) return;
    const message = this.parsed(text, line, terminated);
    if (!message) return;
    this.lastLineParsed = true;
    for (const problem of lexicalProblems(this.buf, start, end, this.escapes))
      this.ctx.report(problem.rule, line, `${problem.message} (column ${problem.column})`);
    this.onMessage(message, line);
  }

  /** What only the whole stream shows, once every line was seen. Returns the stream's dialect. */
  end(lineCount: number): StreamDialect {
    // An unterminated last line that failed to parse already says "cut off"; a complete one only lacks the newline.
    if (this.lastLineParsed && this.buf[this.buf.length - 1] !== 0x0a) {
      this.ctx.report('framing.final-newline', lineCount, 'the last line has no newline at the end');
    }
    const dialect = this.tally.result();
    if (this.messages === 0) {
      this.ctx.report(
        'framing.not-empty',
        lineCount === 0 ? undefined : lineCount,
        lineCount === 0 ? 'stdout is empty' : `no stream-json message in ${lineCount} line(s)`,
      );
    } else if (isForeignDialect(dialect)) {
      this.ctx.report(
        'dialect.stream-json',
        this.foreignLines[0]!.line,
        `this is ${DIALECT_NAMES[dialect]}, not stream-json (${this.foreignLines.length} of ${this.messages} messages)`,
      );
    } else {
      this.endStreamJson(dialect);
    }
    return dialect;
  }

  /** The end of a stream-json stream: the sequence's end, stray foreign lines, mixed dialects. */
  private endStreamJson(dialect: StreamDialect): void {
    this.sequence.end(this.lastMessageLine);
    for (const stray of this.foreignLines) {
      this.ctx.report('dialect.stream-json', stray.line, `line is ${DIALECT_NAMES[stray.dialect]}, not stream-json`);
    }
    if (dialect === 'mixed') {
      const later = Math.max(this.firstFlatLine, this.firstEnvelopeLine);
      this.ctx.report(
        'dialect.consistent',
        later,
        `stream mixes flat lines (from line ${this.firstFlatLine}) and Claude envelopes (from line ${this.firstEnvelopeLine})`,
      );
    }
  }

  /** Framing problems seen on the raw bytes; true when the line can be judged no further. */
  private rejectedBytes(line: number, start: number, end: number, terminated: boolean): boolean {
    const { buf, ctx } = this;
    if (end === start) {
      ctx.report(this.appProfile ? 'app.blank-line' : 'framing.blank-line', line, 'blank line');
      return true;
    }
    if (!this.allValid) {
      const bad = firstInvalidUtf8Offset(buf, start, end);
      if (bad !== -1) {
        ctx.report(
          'framing.utf8',
          line,
          `invalid UTF-8 byte 0x${buf[bad]!.toString(16).padStart(2, '0')} at column ${bad - start + 1}`,
        );
        return true;
      }
    }
    // Fast path for lines that cannot be JSON at all (a flood of junk): no decoding, no exception thrown.
    if (terminated && cannotBeJson(buf, start, end)) {
      ctx.report('framing.single-line-json', line, 'line is not JSON');
      return true;
    }
    if (terminated && openedButNotClosed(buf, start, end)) {
      ctx.report(
        'framing.single-line-json',
        line,
        'line is not one complete JSON value; pretty-printed or split objects are not allowed',
      );
      return true;
    }
    if (end - start > LINE_SIZE_LIMIT)
      ctx.report('framing.line-size', line, `line is ${end - start} bytes (limit ${LINE_SIZE_LIMIT})`);
    return false;
  }

  /** Blank, `$` and (yume-app) repeated lines, seen on the decoded text; true when the line is done with. */
  private rejectedText(text: string, line: number): boolean {
    const first = text.charCodeAt(0);
    // Cheap pre-test: only lines starting with whitespace or `$` can be blank or a `$` terminator.
    if (first === 0x20 || first === 0x09 || first === 0x24 || first === 0x0d) {
      const trimmed = text.trim();
      if (trimmed === '') {
        this.ctx.report(this.appProfile ? 'app.blank-line' : 'framing.blank-line', line, 'line holds only whitespace');
        return true;
      }
      if (trimmed === '$') {
        const rule = this.appProfile ? 'app.dollar-line' : 'framing.dollar-terminator';
        this.ctx.report(rule, line, 'legacy `$` terminator line');
        return true;
      }
    }
    if (this.seenLines) {
      const earlier = this.seenLines.get(text);
      if (earlier !== undefined)
        this.ctx.report('app.duplicate-line', line, `line is byte-identical to line ${earlier}; the app drops it`);
      else this.seenLines.set(text, line);
    }
    return false;
  }

  /** The line as a JSON object, or undefined with the reason reported. */
  private parsed(text: string, line: number, terminated: boolean): Json | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      const verdict = diagnoseUnparsableLine(text, error, terminated);
      this.ctx.report(verdict.rule, line, verdict.message);
      return undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      this.ctx.report(
        'framing.json-object',
        line,
        `line is ${parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a JSON ${typeof parsed}`}, not an object`,
      );
      return undefined;
    }
    return parsed as Json;
  }

  /** A JSON object line: its type, dialect, schema, the app's hazards and its canonical events. */
  private onMessage(message: Json, line: number): void {
    if (typeof message.type !== 'string' || message.type === '') {
      this.ctx.report(
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
    this.messages += 1;
    this.lastMessageLine = line;
    const dialect = lineDialect(message);
    this.tally.add(dialect);
    if (isForeignDialect(dialect)) {
      this.foreignLines.push({ line, dialect });
      return;
    }
    this.currentFlat = dialect === 'flat';
    if (this.currentFlat) this.firstFlatLine ||= line;
    else if (dialect === 'envelope') this.firstEnvelopeLine ||= line;
    checkMessageSchema(message, line, this.ctx);
    this.app?.onMessage(message, line, this.currentFlat);
    messageToCanonicalEvents(message, line, this.onEvent);
  }

  private readonly onEvent = (event: CanonicalEvent): void => {
    this.sequence.onEvent(event, this.currentFlat);
    if (this.options.keepEvents) this.events.push(event);
  };
}
