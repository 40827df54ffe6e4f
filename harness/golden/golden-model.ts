// The comparison model of R10: what a golden and an observed transcript must agree on, per turn, after
// normalisation. Built from canonical events, so the flat dialect and Claude envelopes compare as equal.
import type { CanonicalEvent, CanonicalUsage } from '../protocol/canonical.js';
import {
  MAX_COMPARED_DEPTH,
  type NormaliseContext,
  normaliseText,
  normaliseToolInput,
  TOO_DEEP_MARKER,
  toolResultText,
  withoutDefaultInputs,
} from './normalise.js';

export interface ToolCallModel {
  name: string;
  /** Normalised input. */
  input: unknown;
  /** Canonical JSON of (name, input): equal calls have equal keys. */
  key: string;
  /** The stdout line of the tool_use. */
  line: number;
  /** The answering tool_result (paired by id), if any. `isError` undefined: not compared (see official-cli/golden-adjustments.ts). */
  result?: { isError: boolean | undefined; text: string; line: number };
}

export type ModelItem =
  | { kind: 'text'; text: string; lines: number[] }
  | { kind: 'tools'; calls: ToolCallModel[]; lines: number[] }
  | { kind: 'result'; isError: boolean; usage?: CanonicalUsage; lines: number[] };

export interface TurnModel {
  items: ModelItem[];
}

/** Stable JSON (sorted keys) for set comparison of tool calls. */
export function stableJson(value: unknown, depth = 0): string {
  if (depth >= MAX_COMPARED_DEPTH && value && typeof value === 'object') return JSON.stringify(TOO_DEEP_MARKER);
  if (Array.isArray(value)) return `[${value.map((item) => stableJson(item, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson(record[key], depth + 1)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A running sum of a turn's usage lines (a count no line gave stays absent). */
function addUsage(
  sum: CanonicalUsage | undefined,
  line: { inputTokens?: number; outputTokens?: number },
): CanonicalUsage {
  const next: CanonicalUsage = { ...sum };
  if (line.inputTokens !== undefined) next.inputTokens = (sum?.inputTokens ?? 0) + line.inputTokens;
  if (line.outputTokens !== undefined) next.outputTokens = (sum?.outputTokens ?? 0) + line.outputTokens;
  return next;
}

/**
 * Splits events into turns (each ends with its `result`) and each turn into items: assistant text
 * concatenated per stretch between tool calls, the tool calls between two stretches as one group (R3
 * leaves their order free), and the result. Usage lines count only as the turn's usage when its result has
 * none (R4a). Thinking, system lines, message_stop, errors and unknown types are not compared (R10). Events after the last result belong to no turn.
 */
export function buildTurnModels(events: readonly CanonicalEvent[], context: NormaliseContext): TurnModel[] {
  const turns: TurnModel[] = [];
  let items: ModelItem[] = [];
  let text: { parts: string[]; lines: number[] } | undefined;
  let tools: { calls: ToolCallModel[]; lines: number[] } | undefined;
  let callsById = new Map<string, ToolCallModel>();
  // R4a: a turn without result.usage is judged on the sum of its usage lines.
  let lineUsage: CanonicalUsage | undefined;

  const closeText = () => {
    if (text) {
      const joined = normaliseText(text.parts.join(''), context);
      if (joined !== '') items.push({ kind: 'text', text: joined, lines: text.lines });
    }
    text = undefined;
  };
  const closeTools = () => {
    if (tools) items.push({ kind: 'tools', calls: tools.calls, lines: tools.lines });
    tools = undefined;
  };

  for (const event of events) {
    switch (event.kind) {
      case 'text':
        closeTools();
        text ??= { parts: [], lines: [] };
        text.parts.push(event.text);
        text.lines.push(event.line);
        break;
      case 'tool_use': {
        closeText();
        tools ??= { calls: [], lines: [] };
        const input = normaliseToolInput(withoutDefaultInputs(event.name, event.input ?? {}), context);
        const call: ToolCallModel = {
          name: event.name,
          input,
          key: stableJson({ name: event.name, input }),
          line: event.line,
        };
        tools.calls.push(call);
        tools.lines.push(event.line);
        callsById.set(event.id, call);
        break;
      }
      case 'tool_result': {
        const call = callsById.get(event.toolUseId);
        if (call && !call.result) {
          call.result = {
            isError: event.isError,
            text: normaliseText(toolResultText(event.content), context),
            line: event.line,
          };
        }
        if (tools) tools.lines.push(event.line);
        break;
      }
      case 'usage':
        lineUsage = addUsage(lineUsage, event);
        break;
      case 'result':
        closeText();
        closeTools();
        items.push({ kind: 'result', isError: event.isError, usage: event.usage ?? lineUsage, lines: [event.line] });
        turns.push({ items });
        items = [];
        callsById = new Map();
        lineUsage = undefined;
        break;
      default:
        break;
    }
  }
  // A transcript cut off before its result still has a last (unfinished) turn to compare.
  closeText();
  closeTools();
  if (items.length > 0) turns.push({ items });
  return turns;
}

/** The comparison key a shim's tool_use for a scripted call should have (invalid JSON: R3's raw-text form). */
export function scriptedCallKey(
  call: { name: string; input?: Record<string, unknown>; rawArguments?: string },
  context: NormaliseContext,
): string {
  const input = call.rawArguments !== undefined ? { _invalid_arguments: call.rawArguments } : (call.input ?? {});
  return stableJson({ name: call.name, input: normaliseToolInput(input, context) });
}
