// Provider-realistic, deterministic ids. The same scenario and script id always give the same provider id,
// so request checks (and goldens after normalisation) can rely on them without a shared registry.
import { createHash } from 'node:crypto';
import type { MockProviderId, Scenario } from './scenario-types.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` base62 characters derived from the parts (stable across runs and platforms). */
export function stableToken(length: number, ...parts: string[]): string {
  let out = '';
  for (let round = 0; out.length < length; round += 1) {
    const digest = createHash('sha256')
      .update(`${round}\u0000${parts.join('\u0000')}`)
      .digest();
    for (const byte of digest) {
      if (out.length >= length) break;
      out += BASE62[byte % 62];
    }
  }
  return out;
}

/** Lower-case hex derived from the parts (Responses item ids are hex-like). */
export function stableHex(length: number, ...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').repeat(2).slice(0, length);
}

/**
 * The id a provider puts on a tool call the script names `scriptId`:
 * Anthropic `toolu_01…`, OpenAI Chat `call_…`, Responses `call_…` (the call_id), Gemini none (matched by name and order).
 */
export function providerToolCallId(provider: MockProviderId, scenarioId: string, scriptId: string): string | undefined {
  switch (provider) {
    case 'anthropic':
      return `toolu_01${stableToken(22, 'anthropic', scenarioId, scriptId)}`;
    case 'openai-chat':
      return `call_${stableToken(24, 'openai-chat', scenarioId, scriptId)}`;
    case 'openai-responses':
      return `call_${stableToken(24, 'openai-responses', scenarioId, scriptId)}`;
    case 'gemini':
      return undefined;
  }
}

/** The Responses API output item id of a function_call (distinct from its call_id). */
export function responsesItemId(scenarioId: string, scriptId: string): string {
  return `fc_${stableHex(48, 'responses-item', scenarioId, scriptId)}`;
}

/** Gemini's opaque thoughtSignature for the function-call part of `scriptId` (base64, like the real ones). */
export function geminiThoughtSignature(scenarioId: string, scriptId: string): string {
  return createHash('sha256').update(`gemini-signature\u0000${scenarioId}\u0000${scriptId}`).digest('base64');
}

export interface ToolCallIdEntry {
  scriptId: string;
  name: string;
  turn: number;
  response: number;
  /** The id the mock issues for this provider; undefined for Gemini, which issues none. */
  providerId: string | undefined;
  /** Gemini only: the thoughtSignature the mock puts on the call's part (the first call of a response). */
  thoughtSignature?: string;
}

/** Every tool call of the scenario with the id the mock issues to `provider` (exposed for request checks). */
export function toolCallIdMap(scenario: Scenario, provider: MockProviderId): Map<string, ToolCallIdEntry> {
  const map = new Map<string, ToolCallIdEntry>();
  scenario.turns.forEach((turn, t) => {
    turn.responses.forEach((response, r) => {
      (response.toolCalls ?? []).forEach((call, c) => {
        map.set(call.id, {
          scriptId: call.id,
          name: call.name,
          turn: t,
          response: r,
          providerId: providerToolCallId(provider, scenario.id, call.id),
          thoughtSignature: provider === 'gemini' && c === 0 ? geminiThoughtSignature(scenario.id, call.id) : undefined,
        });
      });
    });
  });
  return map;
}
