// Golden comparison (R10): an observed transcript against the committed golden, turn by turn, on the
// comparison model of golden-model.ts. One finding per turn, for the first difference, showing expected and
// observed around it with line numbers.

import type { CanonicalUsage } from '../../protocol/canonical.js';
import { runFinding } from '../../rules/finding.js';
import type { Finding } from '../../rules/types.js';
import type { ModelItem, ToolCallModel, TurnModel } from '../golden-model.js';

export interface GoldenSource {
  /** File name for messages, e.g. transcripts/single-tool/golden.jsonl. */
  label: string;
  turns: TurnModel[];
}

interface Difference {
  rule: string;
  /** Index of the differing item in each turn (for the excerpt). */
  expectedIndex: number;
  observedIndex: number;
  what: string;
  /** Observed stdout line to attach the finding to. */
  line?: number;
  /** A fix for this kind of difference, when the catalog's general one would not say what to change. */
  fix?: string;
}

const MAX_TEXT = 70;

function quote(text: string): string {
  const json = JSON.stringify(text);
  return json.length > MAX_TEXT ? `${json.slice(0, MAX_TEXT - 1)}…"` : json;
}

function usageText(usage: CanonicalUsage | undefined): string {
  if (!usage) return 'no usage';
  const estimated = usage.estimated ? ' (estimated)' : '';
  return `usage ${usage.inputTokens ?? '?'} in / ${usage.outputTokens ?? '?'} out${estimated}`;
}

function callText(call: ToolCallModel): string {
  const outcome = call.result
    ? call.result.isError === undefined
      ? 'ok or error'
      : call.result.isError
        ? 'error'
        : 'ok'
    : 'no result';
  const input = JSON.stringify(call.input);
  return `${call.name} ${input.length > 60 ? `${input.slice(0, 59)}…` : input} → ${outcome}`;
}

/** One printable line per item, as shown in mismatch messages. */
export function describeItem(item: ModelItem): string {
  if (item.kind === 'text') return `text ${quote(item.text)}`;
  if (item.kind === 'tools')
    return `tools [${[...item.calls]
      .sort((a, b) => a.key.localeCompare(b.key))
      .map(callText)
      .join('; ')}]`;
  return `result ${item.isError ? 'is_error' : 'success'}, ${usageText(item.usage)}`;
}

function lineRange(lines: number[]): string {
  if (lines.length === 0) return '?';
  // A loop, not Math.min(...lines): a stream may have more lines than a call can take arguments.
  let low = lines[0]!;
  let high = low;
  for (const line of lines) {
    if (line < low) low = line;
    if (line > high) high = line;
  }
  return low === high ? `${low}` : `${low}-${high}`;
}

function ruleForKind(kind: ModelItem['kind']): string {
  return kind === 'text' ? 'golden.text' : kind === 'tools' ? 'golden.tool-calls' : 'golden.result';
}

/**
 * Usage equality of R4/R10: reported totals must be equal; an estimate only present and > 0. Only a turn whose
 * golden reports no usage may omit it (R4: an error or interrupt before any provider call succeeded); a turn
 * that ends in an error after calls that completed reports their usage, like any other.
 */
export function usageDifference(
  expected: CanonicalUsage | undefined,
  observed: CanonicalUsage | undefined,
): string | undefined {
  if (!expected) return undefined; // the golden turn reports none (an error before any provider call)
  // A golden's 0/0 is a compaction's (R4 allows 0/0 nowhere else): its usage is compaction.*'s to judge.
  if (expected.inputTokens === 0 && expected.outputTokens === 0) return undefined;
  if (expected.estimated) {
    const positive = (observed?.inputTokens ?? 0) > 0 || (observed?.outputTokens ?? 0) > 0;
    return positive ? undefined : `expected an estimated usage above 0, observed ${usageText(observed)}`;
  }
  if (!observed) return `expected ${usageText(expected)}, observed no usage (no result.usage and no usage line)`;
  if (observed.estimated)
    return `expected the provider's ${usageText(expected)}, observed an estimate (${usageText(observed)})`;
  if (observed.inputTokens !== expected.inputTokens || observed.outputTokens !== expected.outputTokens) {
    return `expected ${usageText(expected)}, observed ${usageText(observed)}`;
  }
  return undefined;
}

function compareTools(
  expected: ToolCallModel[],
  observed: ToolCallModel[],
): { rule: string; what: string; line?: number; fix?: string } | undefined {
  const remaining = [...observed];
  const unmatched: ToolCallModel[] = [];
  const pairs: [ToolCallModel, ToolCallModel][] = [];
  for (const call of expected) {
    const index = remaining.findIndex((candidate) => candidate.key === call.key);
    if (index < 0) unmatched.push(call);
    else pairs.push([call, remaining.splice(index, 1)[0]!]);
  }
  if (unmatched.length > 0 || remaining.length > 0) {
    const missing = unmatched.map(callText).join('; ');
    const extra = remaining.map(callText).join('; ');
    const parts = [missing && `missing ${missing}`, extra && `unexpected ${extra}`].filter(Boolean);
    return {
      rule: 'golden.tool-calls',
      what: `tool calls differ: ${parts.join(', ')}`,
      line: remaining[0]?.line,
      fix: callsFix(unmatched, remaining),
    };
  }
  for (const [want, got] of pairs) {
    if (want.result && !got.result) {
      return {
        rule: 'golden.tool-calls',
        what: `${got.name} call (line ${got.line}) has no tool_result answering its id`,
        line: got.line,
        fix: `Answer the ${got.name} call with a tool_result whose \`tool_use_id\` is the call's id, before the turn goes on.`,
      };
    }
    if (want.result && got.result && want.result.isError !== undefined && want.result.isError !== got.result.isError) {
      return {
        rule: 'golden.tool-calls',
        what: `${got.name} call answered with is_error ${got.result.isError}, expected ${want.result.isError}`,
        line: got.result.line,
        fix: want.result.isError
          ? `The ${got.name} call failed: set \`is_error: true\` on its tool_result (and send the failure to the model as an error).`
          : `The ${got.name} call succeeded: set \`is_error: false\` on its tool_result; mark only a failed tool as an error.`,
      };
    }
  }
  return undefined;
}

/** What to change when the calls themselves differ: their names, their inputs, or how many there are. */
function callsFix(missing: readonly ToolCallModel[], unexpected: readonly ToolCallModel[]): string {
  const names = (calls: readonly ToolCallModel[]) => calls.map((call) => call.name).sort();
  if (missing.length === unexpected.length && names(missing).join() === names(unexpected).join())
    return "Pass the model's tool input fields through unchanged: the field names and values the model sent.";
  if (missing.length === unexpected.length)
    return `Use the app's tool names (expected ${[...new Set(names(missing))].join(', ')}), mapping each provider tool to the app's as docs/protocol.md lists them.`;
  if (unexpected.length === 0)
    return 'Print a tool_use for every call the model made in this step; none may be dropped or merged.';
  if (missing.length === 0) return 'Print only the calls the model made: no extra, repeated or invented tool_use.';
  return "Forward the model's calls with the app's tool names and input fields, unchanged.";
}

function firstDifference(expected: ModelItem[], observed: ModelItem[]): Difference | undefined {
  const length = Math.max(expected.length, observed.length);
  for (let index = 0; index < length; index += 1) {
    const want = expected[index];
    const got = observed[index];
    if (!want && got) {
      return {
        rule: ruleForKind(got.kind),
        expectedIndex: index,
        observedIndex: index,
        what: `unexpected ${describeItem(got)}`,
        line: got.lines[0],
      };
    }
    if (want && !got) {
      return {
        rule: ruleForKind(want.kind),
        expectedIndex: index,
        observedIndex: index,
        what: `missing ${describeItem(want)}`,
        line: observed.at(-1)?.lines.at(-1),
      };
    }
    if (!want || !got) continue;
    if (want.kind !== got.kind) {
      return {
        rule: ruleForKind(want.kind),
        expectedIndex: index,
        observedIndex: index,
        what: `expected ${want.kind}, observed ${got.kind}`,
        line: got.lines[0],
      };
    }
    if (want.kind === 'text' && got.kind === 'text' && want.text !== got.text) {
      return {
        rule: 'golden.text',
        expectedIndex: index,
        observedIndex: index,
        what: textDifference(want.text, got.text),
        line: got.lines[0],
      };
    }
    if (want.kind === 'tools' && got.kind === 'tools') {
      const difference = compareTools(want.calls, got.calls);
      if (difference)
        return { ...difference, expectedIndex: index, observedIndex: index, line: difference.line ?? got.lines[0] };
    }
    if (want.kind === 'result' && got.kind === 'result') {
      if (want.isError !== got.isError) {
        return {
          rule: 'golden.result',
          expectedIndex: index,
          observedIndex: index,
          what: `expected is_error ${want.isError}, observed ${got.isError}`,
          line: got.lines[0],
          fix: want.isError
            ? 'This turn fails (see the scenario): end it with a result whose `is_error` is true and whose subtype is an error subtype.'
            : 'This turn succeeds: end it with `is_error: false` and subtype "success"; a recovered retry is listed in `result.errors`, not an error result.',
        };
      }
      const usage = usageDifference(want.usage, got.usage);
      if (usage)
        return { rule: 'usage.totals', expectedIndex: index, observedIndex: index, what: usage, line: got.lines[0] };
    }
  }
  return undefined;
}

/** Where two texts first differ, with a little context around it. */
export function textDifference(expected: string, observed: string): string {
  let at = 0;
  while (at < expected.length && at < observed.length && expected[at] === observed[at]) at += 1;
  const from = Math.max(0, at - 20);
  const around = (text: string) => JSON.stringify(text.slice(from, at + 30));
  return `text differs at character ${at + 1}: expected …${around(expected)}…, observed …${around(observed)}…`;
}

function excerpt(items: ModelItem[], focus: number, label: string): string {
  const lines: string[] = [`  ${label}:`];
  const from = Math.max(0, focus - 2);
  const to = Math.min(items.length, focus + 3);
  if (from > 0) lines.push('         …');
  for (let index = from; index < to; index += 1) {
    const item = items[index]!;
    const marker = index === focus ? '>' : ' ';
    lines.push(`  ${marker} ${`L${lineRange(item.lines)}`.padEnd(8)} ${describeItem(item)}`);
  }
  if (focus >= items.length) lines.push(`  > (nothing: the transcript ends here)`);
  if (to < items.length) lines.push('         …');
  return lines.join('\n');
}

/**
 * Compares observed turns with the golden's. `observedLabel` names the observed stdout (e.g. "stdout of
 * turn 2"). Returns one finding per differing turn (plus one when the number of turns differs).
 */
export function compareWithGolden(golden: GoldenSource, observed: TurnModel[], observedLabel: string): Finding[] {
  const findings: Finding[] = [];
  const expectedTurns = golden.turns;
  if (expectedTurns.length !== observed.length) {
    const lastLine = observed.at(-1)?.items.at(-1)?.lines.at(-1);
    findings.push(
      runFinding(
        'golden.turns',
        `${observedLabel} has ${observed.length} turn(s) ending in a result where ${golden.label} has ${expectedTurns.length}`,
        lastLine === undefined ? {} : { line: lastLine },
      ),
    );
  }
  // An observed turn cut off before its result is still a turn here (see buildTurnModels), so a missing
  // result shows as that turn's first difference.
  for (let turn = 0; turn < Math.min(expectedTurns.length, observed.length); turn += 1) {
    const want = expectedTurns[turn]!.items;
    const got = observed[turn]!.items;
    const difference = firstDifference(want, got);
    if (!difference) continue;
    const message = [
      `turn ${turn + 1}: ${difference.what}`,
      excerpt(want, difference.expectedIndex, `expected (${golden.label})`),
      excerpt(got, difference.observedIndex, `observed (${observedLabel})`),
    ].join('\n');
    findings.push(
      runFinding(difference.rule, message, {
        ...(difference.line === undefined ? {} : { line: difference.line }),
        ...(difference.fix === undefined ? {} : { fix: difference.fix }),
      }),
    );
  }
  return findings;
}
