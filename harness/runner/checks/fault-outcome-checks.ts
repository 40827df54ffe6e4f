// How a turn with a scripted provider fault, or with its official CLI missing, must end (R5): an error
// result, the retries listed, no success after an error.

import { claudeErrorShown, claudeRetriesReported, isClaudeDialect } from '../../golden/compare/claude-forms.js';
import type { Turn } from '../../mock/scenario/scenario-types.js';
import type { CanonicalEvent, ResultEvent } from '../../protocol/canonical.js';
import type { StreamDialect } from '../../protocol/dialect.js';
import { runFinding } from '../../rules/finding.js';
import type { Finding } from '../../rules/types.js';
import type { CheckInput } from './check-types.js';
import { about } from './run-events.js';

/**
 * Whether a request of the turn was answered with an HTTP fault and so retried: recorded by the mock, or (a
 * fake official CLI, which plays the faults itself) the CLI ran the turn to its final event. A CLI that never
 * ran retried nothing, so error.retries-listed has nothing to demand.
 */
export function retried(input: CheckInput, turnIndex: number): boolean {
  if (input.requests.some((request) => request.turn === turnIndex && request.outcome === 'http-fault')) return true;
  return (
    input.cli?.log.some(
      (entry) => entry.event === 'exit' && entry.turnIndex === turnIndex && entry.finalEvent === true,
    ) ?? false
  );
}

/** How a turn's outcome is judged and named: the process's label, whether retries can show, the dialect seen. */
export interface FaultOutcomeOptions {
  label: string;
  /** False when the retries happen where the shim cannot see them (an official CLI that hides them). */
  retriesVisible?: boolean;
  dialect?: StreamDialect | undefined;
}

/** R5's required outcome per injected fault, and recovered retries listed in result.errors. */
export function faultOutcomeChecks(
  turn: Turn,
  turnIndex: number,
  events: CanonicalEvent[],
  options: FaultOutcomeOptions,
): Finding[] {
  const { label, retriesVisible = true, dialect } = options;
  const result = events.find((event): event is ResultEvent => event.kind === 'result');
  if (!result) return []; // turn.result-last reports it
  const faults = turn.responses.flatMap((response) => (response.fault ? [response.fault] : []));
  if (faults.length === 0 || turn.interrupt) return [];
  const where = `turn ${turnIndex + 1}`;
  const findings: Finding[] = [];
  const claude = isClaudeDialect(dialect);
  if (turn.expect.isError) {
    const last = faults.at(-1)!;
    const before = events.filter((event) => event.line < result.line);
    // Claude envelopes may show the error as assistant text before the error result instead.
    if (claude && claudeErrorShown(before, result.isError)) return findings;
    if (last.kind === 'http' && (last.status === 401 || last.status === 403)) {
      if (!before.some((event) => event.kind === 'system' && event.subtype === 'error')) {
        findings.push(
          runFinding(
            'error.fault-outcome',
            about(
              label,
              `${where}: HTTP ${last.status} needs a \`system\` line with subtype "error" (a readable message) before the error result`,
            ),
            { line: result.line },
          ),
        );
      }
    } else if (
      !before.some((event) => event.kind === 'error' || (event.kind === 'system' && event.subtype === 'error'))
    ) {
      const what =
        last.kind === 'http'
          ? `HTTP ${last.status}`
          : last.kind === 'cut'
            ? 'a stream cut mid-event'
            : last.kind === 'malformed'
              ? 'a malformed chunk'
              : `a ${last.kind} fault`;
      findings.push(
        runFinding(
          'error.fault-outcome',
          about(label, `${where}: ${what} needs an \`error\` line before the error result`),
          { line: result.line },
        ),
      );
    }
  } else if (retriesVisible && faults.some((fault) => fault.kind === 'http') && !result.isError) {
    const errors = result.errors;
    const reportedByClaude = claude && claudeRetriesReported(events) > 0;
    if ((!Array.isArray(errors) || errors.length === 0) && !reportedByClaude) {
      findings.push(
        runFinding(
          'error.retries-listed',
          about(
            label,
            `${where}: the turn recovered from ${faults.filter((fault) => fault.kind === 'http').length} failed request(s) but \`result.errors\` does not list them`,
          ),
          { line: result.line },
        ),
      );
    }
  }
  return findings;
}

/** R5 "binary or CLI missing": a `system` error (a readable message), then an error result, and no tool run. */
export function missingCliOutcomeChecks(turnIndex: number, events: CanonicalEvent[], label: string): Finding[] {
  const result = events.find((event): event is ResultEvent => event.kind === 'result');
  if (!result) return []; // turn.result-last reports it
  const where = `turn ${turnIndex + 1}`;
  const before = events.filter((event) => event.line < result.line);
  const findings: Finding[] = [];
  const systemError = before.find(
    (event): event is Extract<CanonicalEvent, { kind: 'system' }> =>
      event.kind === 'system' && event.subtype === 'error',
  );
  if (!systemError || !result.isError) {
    const saw =
      before.map((event) => (event.kind === 'system' ? `system ${event.subtype}` : event.kind)).join(', ') || 'nothing';
    findings.push(
      runFinding(
        'error.fault-outcome',
        about(
          label,
          `${where}: the official CLI is not installed; expected a \`system\` line with subtype "error" (a readable message) and then an error result, got ${saw} then a ${result.isError ? 'error' : 'success'} result`,
        ),
        { line: result.line },
      ),
    );
  } else if (!systemError.message || systemError.message.trim() === '') {
    findings.push(
      runFinding(
        'error.fault-outcome',
        about(label, `${where}: the \`system\` error about the missing CLI has no readable message`),
        { line: systemError.line },
      ),
    );
  }
  const toolUse = before.find((event) => event.kind === 'tool_use');
  if (toolUse)
    findings.push(
      runFinding(
        'error.fault-outcome',
        about(label, `${where}: a tool call was reported although no CLI could run one`),
        { line: toolUse.line },
      ),
    );
  return findings;
}
