// The dialect a run's stdout spoke, as the report records it (R1a): under the yume-app invocation the runner
// asks for none, as the app does, and judges what it sees; every run records it.
import { type ForeignDialect, isForeignDialect, type StreamDialect } from '../../protocol/dialect.js';
import type { ValidationResult } from '../../validate/validate-stream.js';
import type { Dialect } from '../config/capabilities.js';

/** `claude` for Claude envelopes (the name `dialect` uses), `mixed` when processes or lines disagree. */
export type DialectSeen = 'flat' | 'claude' | 'mixed' | ForeignDialect;

/** One process's dialect; undefined when it printed only lines both dialects share (init, result) or nothing. */
function processDialect(validation: Pick<ValidationResult, 'dialect' | 'dialectLines'>): DialectSeen | undefined {
  const { dialect, dialectLines } = validation;
  if (isForeignDialect(dialect)) return dialect;
  if (dialectLines.flat > 0 && dialectLines.envelope > 0) return 'mixed';
  if (dialectLines.envelope > 0) return 'claude';
  if (dialectLines.flat > 0) return 'flat';
  return undefined;
}

/**
 * One dialect for all the run's processes. A process that printed nothing a dialect owns (killed after its init
 * line, an argument error on stderr) says nothing; processes that disagree make the run `mixed`.
 */
export function runDialect(
  validations: readonly Pick<ValidationResult, 'dialect' | 'dialectLines'>[],
): DialectSeen | undefined {
  const named = new Set(validations.map(processDialect).filter((seen) => seen !== undefined));
  if (named.size > 1) return 'mixed';
  return [...named][0];
}

/**
 * The dialect a process's stdout is judged in (R1). A process that printed lines a dialect owns is judged in its
 * own. One that printed only lines both dialects share (`stream_event` deltas, init, usage: a turn killed before
 * its first envelope) takes the dialect the run's other processes printed, else the one the run asks for or the
 * shim declares (`asked`, the checks' input dialect: under the app's invocation, `claude` for a shim that may
 * print envelopes).
 */
export function judgedDialect(
  validation: Pick<ValidationResult, 'dialect' | 'dialectLines'> | undefined,
  run: { printed: DialectSeen | undefined; asked: Dialect | undefined },
): StreamDialect {
  if (validation && processDialect(validation) !== undefined) return validation.dialect;
  const printed = run.printed === 'flat' || run.printed === 'claude' ? run.printed : undefined;
  return (printed ?? run.asked ?? 'flat') === 'claude' ? 'claude-envelope' : 'flat';
}
