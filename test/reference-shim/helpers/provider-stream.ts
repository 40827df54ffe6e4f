// Shared pieces of the provider stream tests: the tool list and history every request carries, draining a
// provider's stream, catching its failure, and the OpenAI Chat chunk builder (the registry tests use it too).
import { expect } from 'vitest';
import {
  type ModelProvider,
  type ModelStreamEvent,
  ProviderError,
} from '../../../reference-shim/providers/provider.js';
import type { HistoryEntry } from '../../../reference-shim/session/history.js';
import { sse } from './byte-server.js';

export const TOOLS = [
  {
    name: 'Read',
    description: 'read',
    parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
  },
];
export const HISTORY: HistoryEntry[] = [{ role: 'user', content: 'hi' }];

export async function collect(
  provider: ModelProvider,
  history: HistoryEntry[] = HISTORY,
  signal = new AbortController().signal,
): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of provider.stream({ model: 'm-1', system: 'sys', history, tools: TOOLS, signal }))
    events.push(event);
  return events;
}

export async function failure(provider: ModelProvider): Promise<ProviderError> {
  try {
    await collect(provider);
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error('the stream did not fail');
}

export const done = (events: ModelStreamEvent[]) => {
  const last = events[events.length - 1];
  expect(last?.type).toBe('done');
  return (last as Extract<ModelStreamEvent, { type: 'done' }>).message;
};
export const texts = (events: ModelStreamEvent[]) =>
  events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text);

/** One OpenAI Chat Completions chunk as an SSE frame. */
export const chat = (delta: unknown, finish: string | null = null) =>
  sse({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
