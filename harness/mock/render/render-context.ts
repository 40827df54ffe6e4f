// What every renderer needs besides the script response.
import type { ModelResponse, ScriptUsage } from '../scenario/scenario-types.js';
import { argumentsText } from './wire-frames.js';

export interface WireRenderContext {
  scenarioId: string;
  /** Model name taken from the request (path or body), echoed like the real APIs do. */
  model: string;
  /** 0-based turn and response index, and how many times this response was served before (repeat). */
  turn: number;
  responseIndex: number;
  attempt: number;
  /** Chat Completions: the request set stream_options.include_usage. */
  includeUsage?: boolean;
}

/** A stable suffix for per-response ids (message ids, response ids). */
export function responseKey(ctx: WireRenderContext): string {
  return `${ctx.turn}.${ctx.responseIndex}.${ctx.attempt}`;
}

/**
 * The usage the provider reports. Scripts normally give it; otherwise a deterministic estimate is reported,
 * because every real provider reports usage on a completed response.
 */
export function resolveUsage(response: ModelResponse): Required<ScriptUsage> {
  if (response.usage) return { cache_read_input_tokens: 0, ...response.usage };
  const produced = [
    ...(response.thinking ?? []),
    ...(response.text ?? []),
    ...(response.toolCalls ?? []).map(argumentsText),
  ].join('');
  return { input_tokens: 100, output_tokens: Math.max(1, Math.ceil(produced.length / 4)), cache_read_input_tokens: 0 };
}

/** The stop reason in script terms: explicit, else tool_use when the response calls tools. */
export function resolveStop(response: ModelResponse): 'end_turn' | 'tool_use' | 'max_tokens' {
  return response.stop ?? (response.toolCalls?.length ? 'tool_use' : 'end_turn');
}
