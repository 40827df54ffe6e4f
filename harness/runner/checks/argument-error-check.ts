// process.argument-error (R2, R13): given a flag it does not know, a shim stops before calling the provider, in one
// of two forms. The flat form: a `system` error, then an error result, and exit code 2. Claude Code's form (only
// when the run asks for Claude envelopes): nothing on stdout, a message on stderr, a non-zero exit; the stream rules that ask for output
// (`framing.not-empty`, `turn.init-first`, `turn.result-last`), `process.no-output` and the golden (recorded in
// the flat form) do not apply to it.
import type { CanonicalEvent, ResultEvent } from '../../protocol/canonical.js';
import { runFinding } from '../../rules/finding.js';
import type { Finding } from '../../rules/types.js';
import type { Dialect } from '../config/capabilities.js';
import type { ExecutedProcess } from '../execution/execute-run.js';

/** Rules an argument error in Claude Code's form is exempt from: they ask for output it does not print. */
const SILENT_FORM_EXEMPT = new Set(['framing.not-empty', 'turn.init-first', 'turn.result-last', 'process.no-output']);

export interface ArgumentErrorVerdict {
  findings: Finding[];
  /** Keeps the run's other findings that apply to the form the shim chose. */
  applies: (finding: Finding) => boolean;
}

export function argumentErrorCheck(
  process: ExecutedProcess,
  events: readonly CanonicalEvent[],
  badArgument: string,
  dialect: Dialect | undefined,
): ArgumentErrorVerdict {
  const { exit } = process;
  const code = exit.signal ?? `code ${exit.exitCode}`;
  if (exit.spawnError || exit.timedOut) return { findings: [], applies: () => true };
  if (exit.stdout.length === 0) {
    const silent: ArgumentErrorVerdict = {
      findings: [],
      applies: (finding) => !SILENT_FORM_EXEMPT.has(finding.rule) && !finding.rule.startsWith('golden.'),
    };
    if (dialect !== 'claude')
      silent.findings.push(
        runFinding(
          'process.argument-error',
          `given ${badArgument}, the shim printed nothing on stdout (exit ${code}); that form is Claude Code's and conforms only in Claude envelopes: a flat shim prints a \`system\` error, an error result, and exits 2`,
        ),
      );
    else if (exit.exitCode === 0 && !exit.signal)
      silent.findings.push(
        runFinding('process.argument-error', `given ${badArgument}, the shim printed nothing and exited with code 0`),
      );
    else if (exit.stderr.toString('utf8').trim() === '')
      silent.findings.push(
        runFinding(
          'process.argument-error',
          `given ${badArgument}, the shim printed nothing on stdout or stderr (exit ${code}): say on stderr which argument was refused`,
        ),
      );
    return silent;
  }
  const first = events[0];
  const result = events.find((event): event is ResultEvent => event.kind === 'result');
  const problems: string[] = [];
  if (first?.kind !== 'system' || first.subtype !== 'error')
    problems.push(
      `its first line is ${first ? (first.kind === 'system' ? `system ${first.subtype}` : first.kind) : 'not a message'}, not a \`system\` error`,
    );
  if (!result?.isError) problems.push(result ? 'its result is a success' : 'it printed no result');
  if (exit.exitCode !== 2) problems.push(`it exited with ${code}, not 2`);
  const worked = events.filter((event) => event.kind === 'text' || event.kind === 'tool_use');
  if (worked.length > 0) problems.push(`it went on to answer the prompt (line ${worked[0]!.line})`);
  return {
    findings: problems.map((problem) =>
      runFinding(
        'process.argument-error',
        `given ${badArgument}, the shim did not stop with an argument error: ${problem}`,
        first ? { line: first.line } : {},
      ),
    ),
    applies: () => true,
  };
}
