// R10 for Type-B shims: what an official CLI leaves out of its stdout cannot be in the shim's transcript
// either, so the golden is adjusted before the comparison (omissions.ts lists, per CLI,
// what it omits — taken from the real CLIs' captures): its own tool calls replace the app's (codex runs a
// Read as `cat`), text of a message cut short is not printed (codex, claude), a failing shell command shows
// as a success and read_file output is not printed (gemini), and the usage of an interrupted turn is an
// estimate where the CLI reports usage only when it ends (gemini, codex), or where, on Windows (no SIGINT to send),
// the CLI's log shows the interrupt ended it before its closing event.
import { readFileSync } from 'node:fs';
import {
  type ModelItem,
  scriptedCallKey,
  stableJson,
  type ToolCallModel,
  type TurnModel,
} from '../golden/golden-model.js';
import { type NormaliseContext, normaliseToolInput } from '../golden/normalise.js';
import type { Turn } from '../mock/scenario/scenario-types.js';
import { CLI_OMISSIONS, type CliOmissions, expectedToolCall } from './omissions.js';
import type { OfficialCliName } from './script-types.js';

/**
 * The run's workspace, and whether the CLI had to make edits through its shell (a real codex without apply_patch).
 * `unclosedTurns` are the golden turns' positions whose CLI run the log shows ending without its closing event.
 */
export type CliContext = NormaliseContext & {
  workspace: string;
  editsThroughShell?: boolean;
  unclosedTurns?: ReadonlySet<number>;
};

/** What `cli` leaves out of its stdout (the installed CLI carries it: backend.ts). */
export function omissionsOf(cli: OfficialCliName): CliOmissions {
  return CLI_OMISSIONS[cli];
}

/** A turn whose last model message never completed: interrupted while streaming, or a broken stream. */
export function turnEndsInCutMessage(turn: Turn): boolean {
  if (turn.interrupt === 'after-first-text') return true;
  const last = turn.responses.at(-1)?.fault?.kind;
  return last === 'cut' || last === 'malformed' || last === 'mid-stream-error';
}

/** A turn whose only fault is a malformed chunk in its last answer (a CLI that drops such events succeeds). */
export function endsInMalformedChunk(turn: Turn): boolean {
  const faults = turn.responses.filter((response) => response.fault);
  return faults.length === 1 && turn.responses.at(-1)?.fault?.kind === 'malformed' && !turn.interrupt;
}

/** The turn as a CLI that dropped the malformed event shows it: the whole last message and a success. */
function successfulEnding(turn: Turn): ModelItem[] {
  const last = turn.responses.at(-1)!;
  const text = (last.text ?? []).join('');
  const usage = last.usage
    ? { inputTokens: last.usage.input_tokens, outputTokens: last.usage.output_tokens }
    : undefined;
  return [
    ...(text ? [{ kind: 'text' as const, text, lines: [] }] : []),
    { kind: 'result', isError: false, ...(usage ? { usage } : {}), lines: [] },
  ];
}

/** Drops the text stretch right before the result (the cut message's partial text). */
function withoutTrailingText(items: ModelItem[]): ModelItem[] {
  const resultAt = items.findIndex((item) => item.kind === 'result');
  const end = resultAt < 0 ? items.length : resultAt;
  if (end > 0 && items[end - 1]!.kind === 'text') return [...items.slice(0, end - 1), ...items.slice(end)];
  return items;
}

/** A result whose usage the shim could only estimate: compared for being present and above 0 (R4). */
function withEstimatedUsage(item: ModelItem): ModelItem {
  return item.kind === 'result' && item.usage ? { ...item, usage: { estimated: true } } : item;
}

/** What translating the golden calls of one turn needs; `used` holds the scripted calls already matched. */
interface TurnTranslation {
  cli: OfficialCliName;
  omissions: CliOmissions;
  turn: Turn;
  used: Set<string>;
  context: CliContext;
}

function readAfter(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function translateCall(call: ToolCallModel, { cli, omissions, turn, used, context }: TurnTranslation): ToolCallModel {
  const scripted = turn.responses
    .flatMap((response) => response.toolCalls ?? [])
    .find((candidate) => !used.has(candidate.id) && scriptedCallKey(candidate, {}) === call.key);
  let adjusted = call;
  if (scripted) {
    used.add(scripted.id);
    if (omissions.ownToolCalls) {
      const translated = expectedToolCall(cli, scripted, {
        workspace: context.workspace,
        readAfter,
        editsThroughShell: context.editsThroughShell === true,
      });
      const input = normaliseToolInput(translated.input, context);
      adjusted = { ...call, name: translated.name, input, key: stableJson({ name: translated.name, input }) };
    }
  }
  if (omissions.shellFailureAsSuccess && call.name === 'Bash' && adjusted.result) {
    // The CLI reports a failing command as a success: its is_error cannot be compared.
    adjusted = { ...adjusted, result: { ...adjusted.result, isError: undefined } };
  }
  return adjusted;
}

/**
 * The golden turns as a correct shim wrapping `cli` would print them. `turns` are the scenario turns the
 * golden turns stand for, in order; `options` normalises the translated inputs (the run's workspace) and may
 * give the CLI's omissions (default: the pinned CLI's).
 */
export function adjustGoldenForCli(
  golden: TurnModel[],
  turns: readonly Turn[],
  cli: OfficialCliName,
  options: CliContext & { omissions?: CliOmissions },
): TurnModel[] {
  const { omissions = omissionsOf(cli), ...context } = options;
  return golden.map((model, index) => {
    const turn = turns[index];
    if (!turn) return model;
    const translation: TurnTranslation = { cli, omissions, turn, used: new Set<string>(), context };
    let items = model.items.map(
      (item): ModelItem =>
        item.kind === 'tools' ? { ...item, calls: item.calls.map((call) => translateCall(call, translation)) } : item,
    );
    if (omissions.dropsMalformedEvents && endsInMalformedChunk(turn)) return { items: successfulEnding(turn) };
    if (omissions.partialText && turnEndsInCutMessage(turn)) items = withoutTrailingText(items);
    const usageUnknown = omissions.usageOnlyAtEnd || context.unclosedTurns?.has(index) === true;
    if (usageUnknown && turn.interrupt) items = items.map(withEstimatedUsage);
    return { items };
  });
}

/** The observed turns with the same omissions applied where the shim may or may not print the content. */
export function adjustObservedForCli(
  observed: TurnModel[],
  turns: readonly Turn[],
  cli: OfficialCliName,
  omissions: CliOmissions = omissionsOf(cli),
): TurnModel[] {
  if (!omissions.partialText) return observed;
  // Partial text of a cut message is free either way: a shim that does show it is not wrong.
  return observed.map((model, index) => {
    const turn = turns[index];
    if (!turn || !turnEndsInCutMessage(turn)) return model;
    // A malformed event the CLI dropped cut nothing: the whole message is compared.
    if (omissions.dropsMalformedEvents && endsInMalformedChunk(turn)) return model;
    return { items: withoutTrailingText(model.items) };
  });
}
