// validateStream(): judges one captured stdout (raw bytes) against the rule catalog. Pure and synchronous; the
// runner calls it once per process output and the `validate` command once per file. The judging itself, line
// by line, is stream-judge.ts.
import type { CanonicalEvent } from '../protocol/canonical.js';
import { isForeignDialect, type StreamDialect } from '../protocol/dialect.js';
import { asBuffer, forEachLine } from '../protocol/lines.js';
import type { CompactTurn } from '../rules/checks/compaction.js';
import type { SequenceMode } from '../rules/checks/sequence.js';
import type { Finding, Profile } from '../rules/types.js';
import { StreamJudge } from './stream-judge.js';

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
  /**
   * Which of the stream's turns ask for a compaction, by their prompts (the runner knows them). Without it a turn
   * with a `trigger: "manual"` boundary is taken for one (docs/protocol.md#r21-compaction).
   */
  compactTurns?: readonly CompactTurn[];
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

/** Rules still meaningful when a stream turned out to be another CLI's native dialect. */
const FOREIGN_KEEPS = /^(framing\.|dialect\.|app\.(blank-line|dollar-line|duplicate-line))/;

export function validateStream(bytes: Uint8Array, options: ValidateOptions = {}): ValidationResult {
  const profile = options.profile ?? 'spec';
  const buf = asBuffer(bytes);
  const judge = new StreamJudge(buf, {
    profile,
    keepEvents: options.keepEvents ?? true,
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.maxFindingsPerRule === undefined ? {} : { maxFindingsPerRule: options.maxFindingsPerRule }),
    ...(options.compactTurns ? { compactTurns: options.compactTurns } : {}),
  });
  const lineCount = forEachLine(buf, (line, start, end, terminated) => judge.onLine(line, start, end, terminated));
  const dialect = judge.end(lineCount);
  const foreign = isForeignDialect(dialect);
  const findings = judge.collector.result(foreign ? (f) => FOREIGN_KEEPS.test(f.rule) : undefined);
  const counts = { must: 0, should: 0, info: 0 };
  for (const finding of findings) {
    if (finding.severity === 'MUST') counts.must += 1;
    else if (finding.severity === 'SHOULD') counts.should += 1;
    else counts.info += 1;
  }
  const result: ValidationResult = {
    profile,
    dialect: judge.messages === 0 ? 'unknown' : dialect,
    dialectLines: { flat: judge.tally.flat, envelope: judge.tally.envelope },
    lines: lineCount,
    messages: judge.messages,
    events: foreign ? [] : judge.events,
    findings,
    conforms: counts.must === 0,
    counts,
  };
  if (options.source !== undefined) result.source = options.source;
  return result;
}
