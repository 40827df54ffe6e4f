// Reads test/fixtures/streams/captures (real claude, gemini, codex and copilot CLIs against a local mock) for the shape tests.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MockProviderId, ModelResponse } from '../../../harness/mock/scenario/scenario-types.js';

export const CAPTURES_DIR = path.resolve(import.meta.dirname, '../../fixtures/streams/captures');

/** Each captures folder and the mock provider its CLI talked to (copilot's on all three of its wire formats). */
export const CLI_PROVIDER: Record<string, MockProviderId> = {
  claude: 'anthropic',
  gemini: 'gemini',
  codex: 'openai-responses',
  copilot: 'anthropic',
  'copilot/openai-chat': 'openai-chat',
  'copilot/openai-responses': 'openai-responses',
};

export interface CapturedRequest {
  n: number;
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: unknown;
}
export interface SseEvent {
  event?: string;
  data: unknown;
}
export type CapturedResponse =
  | { kind: 'http'; status: number; headers: Record<string, string>; body: unknown }
  | { kind: 'stream'; events: SseEvent[] }
  /** A 200 answer to a non-streamed request (gemini's `:generateContent`): one JSON body. */
  | { kind: 'json'; body: unknown };

export function captureNames(cli: string): string[] {
  return readdirSync(path.join(CAPTURES_DIR, cli))
    .filter((name) => name.endsWith('.requests.jsonl'))
    .map((name) => name.replace('.requests.jsonl', ''))
    .sort();
}

export function capturedRequests(cli: string, name: string): CapturedRequest[] {
  return readFileSync(path.join(CAPTURES_DIR, cli, `${name}.requests.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CapturedRequest);
}

/** Parses a data-only or event:+data: SSE text into events (comment lines ignored). */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trim());
    }
    // Chat Completions ends its stream with `data: [DONE]`, which is no JSON.
    if (data.length && data.join('') !== '[DONE]') events.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return events;
}

export function capturedResponses(cli: string, name: string): CapturedResponse[] {
  return parseProviderSse(readFileSync(path.join(CAPTURES_DIR, cli, `${name}.provider.sse`), 'utf8'));
}

/** The answers of a `*.provider.sse` file (what `serve --record` writes), in request order. */
export function parseProviderSse(text: string): CapturedResponse[] {
  return text
    .split(/^: ==== response #\d+ .*$/m)
    .slice(1)
    .map((section): CapturedResponse => {
      const http = /^: HTTP (\d+) (\{.*\})$/m.exec(section);
      if (http) {
        const bodyLine = section
          .slice(section.indexOf(http[0]) + http[0].length)
          .trim()
          .split('\n')[0]!;
        return {
          kind: 'http',
          status: Number(http[1]),
          headers: JSON.parse(http[2]!) as Record<string, string>,
          body: JSON.parse(bodyLine),
        };
      }
      const body = section.replace(/^: .*$/gm, '').trim();
      if (body.startsWith('{')) return { kind: 'json', body: JSON.parse(body) };
      return { kind: 'stream', events: parseSse(section) };
    });
}

type Json = Record<string, any>;

/** The script a captured response corresponds to (text deltas and tool calls; HTTP errors as faults). */
export function scriptFromCapture(provider: MockProviderId, response: CapturedResponse): ModelResponse {
  if (response.kind === 'http') return { fault: { kind: 'http', status: response.status as 500 } };
  const text: string[] = [];
  const toolCalls: NonNullable<ModelResponse['toolCalls']> = [];
  const data = (response.kind === 'json' ? [{ data: response.body }] : response.events).map(
    (event) => event.data as Json,
  );
  if (provider === 'anthropic') {
    const inputs = new Map<number, { name: string; json: string }>();
    for (const event of data) {
      if (event.type === 'content_block_start' && event.content_block.type === 'tool_use')
        inputs.set(event.index, { name: event.content_block.name, json: '' });
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text.push(event.delta.text);
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta')
        inputs.get(event.index)!.json += event.delta.partial_json;
    }
    for (const { name, json } of inputs.values())
      toolCalls.push({ id: `capture-${toolCalls.length}`, name, input: JSON.parse(json) });
  } else if (provider === 'gemini') {
    for (const event of data) {
      for (const part of event.candidates?.[0]?.content?.parts ?? []) {
        if (typeof part.text === 'string') text.push(part.text);
        if (part.functionCall)
          toolCalls.push({
            id: `capture-${toolCalls.length}`,
            name: part.functionCall.name,
            input: part.functionCall.args,
          });
      }
    }
  } else if (provider === 'openai-chat') {
    const calls = new Map<number, { name: string; json: string }>();
    for (const event of data) {
      const delta = event.choices?.[0]?.delta ?? {};
      if (typeof delta.content === 'string' && delta.content !== '') text.push(delta.content);
      for (const call of delta.tool_calls ?? []) {
        const entry = calls.get(call.index) ?? { name: '', json: '' };
        entry.name += call.function?.name ?? '';
        entry.json += call.function?.arguments ?? '';
        calls.set(call.index, entry);
      }
    }
    for (const { name, json } of calls.values())
      toolCalls.push({ id: `capture-${toolCalls.length}`, name, input: JSON.parse(json) });
  } else {
    for (const event of data) {
      if (event.type === 'response.output_text.delta') text.push(event.delta);
      if (event.type === 'response.output_item.done' && event.item.type === 'function_call') {
        toolCalls.push({
          id: `capture-${toolCalls.length}`,
          name: event.item.name,
          input: JSON.parse(event.item.arguments),
        });
      }
    }
  }
  return {
    ...(text.length ? { text } : {}),
    ...(toolCalls.length ? { toolCalls } : {}),
    usage: { input_tokens: 121, output_tokens: 26 },
  };
}

/** The JSON paths present in a value: object keys by name, array items as []. Leaf values are not part of a shape. */
export function fieldPaths(value: unknown, prefix = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) fieldPaths(item, `${prefix}[]`, out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const here = prefix ? `${prefix}.${key}` : key;
      out.add(here);
      // Tool arguments are data, not wire shape.
      if (key !== 'args' && key !== 'input') fieldPaths(child, here, out);
    }
  }
  return out;
}

/** The name an event is known by: its SSE event line, else its JSON type, else 'data' (Gemini). */
export function eventName(event: SseEvent): string {
  return event.event ?? ((event.data as Json)?.type as string | undefined) ?? 'data';
}
