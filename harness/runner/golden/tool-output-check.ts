// The substance check of R10 for tool results: each call the scenario fixes must be answered with the
// `is_error` it expects and with content containing what the scenario lists (fixture lines for a Read, the
// command output for a Bash, the error for a failing call). Formatting is free: `cat -n` numbering, caps,
// redaction and line endings do not matter.
import type { Finding } from '../../rules/types.js';
import type { Turn } from '../../mock/scenario/scenario-types.js';
import { stableJson, type ToolCallModel, type TurnModel } from './golden-model.js';
import { normaliseLineEndings, normaliseToolInput, type NormaliseContext } from './normalise.js';
import { runFinding } from '../../rules/finding.js';

/** The comparison key a shim's tool_use for a scripted call should have (invalid JSON: R3's raw-text form). */
export function scriptedCallKey(
  call: { name: string; input?: Record<string, unknown>; rawArguments?: string },
  context: NormaliseContext,
): string {
  const input = call.rawArguments !== undefined ? { _invalid_arguments: call.rawArguments } : (call.input ?? {});
  return stableJson({ name: call.name, input: normaliseToolInput(input, context) });
}

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
  /**
   * Type-B shims (R10): the tools whose output the wrapped CLI does not print (compared without it), whether
   * a failing shell command shows as a success, and how the CLI names a scripted call (its own tools).
   */
  cli?: {
    outputNotPrinted: readonly string[];
    shellFailureAsSuccess: boolean;
    keyOf?: (call: { id: string; name: string; input?: Record<string, unknown>; rawArguments?: string }) => string;
  };
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
