// The substance check of R10 for tool results: each call the scenario fixes must be answered with the
// `is_error` it expects and with content containing what the scenario lists (fixture lines for a Read, the
// command output for a Bash, the error for a failing call). Formatting is free: `cat -n` numbering, caps,
// redaction and line endings do not matter.

import type { Turn } from '../../mock/scenario/scenario-types.js';
import type { ToolOutputCliOptions } from '../../official-cli/behaviour.js';
import { runFinding } from '../../rules/finding.js';
import type { Finding } from '../../rules/types.js';
import { scriptedCallKey, type ToolCallModel, type TurnModel } from '../golden-model.js';
import { type NormaliseContext, normaliseLineEndings } from '../normalise.js';

/** Removes `cat -n` style line numbers ("     1\t", "1→") so fixture lines can be found in numbered output. */
export function withoutLineNumbers(text: string): string {
  return text.replace(/^[ \t]*\d+(?:\t|→|: |\| )/gm, '');
}

function contains(haystack: string, needle: string): boolean {
  const text = normaliseLineEndings(haystack);
  const wanted = normaliseLineEndings(needle);
  return text.includes(wanted) || withoutLineNumbers(text).includes(wanted);
}

export interface ToolOutputOptions {
  context: NormaliseContext;
  /** Type-B shims (R10): how the wrapped CLI's turns are read (official-cli/behaviour.ts). */
  cli?: ToolOutputCliOptions;
}

/** Checks one observed turn against the scenario turn's `expect.toolResults`. */
export function checkToolOutputs(turn: Turn, observed: TurnModel | undefined, options: ToolOutputOptions): Finding[] {
  const expected = turn.expect.toolResults ?? [];
  if (expected.length === 0 || !observed) return [];
  const scripted = new Map(
    turn.responses.flatMap((response) => response.toolCalls ?? []).map((call) => [call.id, call]),
  );
  const calls: ToolCallModel[] = observed.items.flatMap((item) => (item.kind === 'tools' ? item.calls : []));
  const used = new Set<ToolCallModel>();
  const findings: Finding[] = [];
  for (const expectation of expected) {
    const script = scripted.get(expectation.id);
    if (!script) continue;
    const key = options.cli?.keyOf ? options.cli.keyOf(script) : scriptedCallKey(script, options.context);
    const call = calls.find((candidate) => candidate.key === key && !used.has(candidate));
    if (!call) continue; // a missing or different call is golden.tool-calls' finding
    used.add(call);
    if (!call.result) continue; // golden.tool-result reports the missing answer
    const shellVerdictHidden = options.cli?.shellFailureAsSuccess === true && script.name === 'Bash';
    if (call.result.isError !== expectation.isError && !shellVerdictHidden) {
      findings.push(
        runFinding(
          'golden.tool-results',
          `${call.name} call ${expectation.id} was answered with is_error ${call.result.isError}; the scenario expects ${expectation.isError}`,
          { line: call.result.line, excerpt: call.result.text.slice(0, 200) },
        ),
      );
      continue;
    }
    if (options.cli?.outputNotPrinted.includes(script.name)) continue;
    const missing = (expectation.contains ?? []).filter((needle) => !contains(call.result!.text, needle));
    if (missing.length > 0) {
      findings.push(
        runFinding(
          'golden.tool-results',
          `${call.name} call ${expectation.id}: its tool_result does not contain ${missing.map((text) => JSON.stringify(text)).join(', ')} (the tool's real output)`,
          { line: call.result.line, excerpt: call.result.text.slice(0, 200) },
        ),
      );
    }
  }
  return findings;
}
