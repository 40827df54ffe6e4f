// `serve --record PREFIX`: keeps what a client sent the mock and every byte the mock answered, in the layout of
// the official CLIs' captures (test/fixtures/streams/captures/HOW-CAPTURED.md): PREFIX.requests.jsonl holds one
// line per request, its body reduced to its shape (system prompts to their size, tools to their names and
// parameters, long strings elided, keys redacted); PREFIX.provider.sse holds each answer under a
// `: ==== response #N to METHOD PATH (...)` line, an HTTP error as `: HTTP STATUS HEADERS` and its body.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { MockServer, RecordedRequest } from '../mock/mock-server.js';

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key']);
/** Strings longer than this are cut to their first ELIDED_KEEP characters. */
const LONG_STRING = 400;
const ELIDED_KEEP = 300;
/** Fields that hold a system prompt, reduced to their size. */
const SYSTEM_FIELDS = ['system', 'instructions', 'systemInstruction'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const sizeOf = (value: unknown): number => (typeof value === 'string' ? value : JSON.stringify(value)).length;

function elideStrings(value: Json): Json {
  if (typeof value === 'string')
    return value.length > LONG_STRING ? `${value.slice(0, ELIDED_KEEP)}...<+${value.length - ELIDED_KEEP}>` : value;
  if (Array.isArray(value)) return value.map(elideStrings);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, elideStrings(item)]));
  return value;
}

/** A declared tool as its kind, name and parameter names (Anthropic, OpenAI Chat (functions and custom tools) and Responses shapes). */
function reduceTool(tool: { [key: string]: Json }): Json {
  const fn = (tool.function ?? tool.custom ?? {}) as { [key: string]: Json };
  const name = tool.name ?? fn.name ?? null;
  const schema = (tool.input_schema ?? tool.parameters ?? fn.parameters ?? {}) as { properties?: object };
  return {
    ...(typeof tool.type === 'string' ? { type: tool.type } : {}),
    name,
    params: Object.keys(schema.properties ?? {}),
  };
}

function reduceTools(tools: Json[]): Json[] {
  return tools.map((tool) => {
    if (!tool || typeof tool !== 'object' || Array.isArray(tool)) return tool;
    const declarations = tool.functionDeclarations;
    if (Array.isArray(declarations))
      return { functionDeclarations: declarations.map((item) => reduceTool(item as { [key: string]: Json })) };
    return reduceTool(tool);
  });
}

/** A request body reduced to its shape: what a capture keeps of it. */
export function reduceRequestBody(body: unknown): Json {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return (body ?? null) as Json;
  const reduced: { [key: string]: Json } = { ...(body as { [key: string]: Json }) };
  for (const field of SYSTEM_FIELDS)
    if (reduced[field] !== undefined) reduced[field] = `<${sizeOf(reduced[field])} chars>`;
  if (Array.isArray(reduced.messages))
    reduced.messages = reduced.messages.map((message) => {
      const record = message as { [key: string]: Json };
      const system = record?.role === 'system' || record?.role === 'developer';
      return system ? { ...record, content: `<${sizeOf(record.content)} chars>` } : message;
    });
  if (Array.isArray(reduced.tools)) reduced.tools = reduceTools(reduced.tools);
  return elideStrings(reduced);
}

function reduceHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => {
      if (SECRET_HEADERS.has(name)) return [name, '<redacted>'];
      return [name, value.length > LONG_STRING ? `<${value.length} chars elided>` : value];
    }),
  );
}

/** What the mock made of a request: its outcome, and the turn and response it was answered with. */
function kindOf(request: RecordedRequest): string {
  const answer =
    request.responseIndex === undefined ? '' : `, turn ${request.turn + 1} response ${request.responseIndex + 1}`;
  return `${request.outcome}${answer}`;
}

interface PendingAnswer {
  status: number;
  headers: Record<string, string>;
  chunks: Buffer[];
}

function answerText(request: RecordedRequest, answer: PendingAnswer | undefined): string {
  const title = `: ==== response #${request.index + 1} to ${request.method} ${request.path}${request.query} (${kindOf(request)})\n`;
  if (!answer) return `${title}: no answer (the client closed the connection first)\n\n`;
  const body = Buffer.concat(answer.chunks).toString('utf8');
  if (answer.status === 200) return `${title}${body}${body.endsWith('\n') ? '' : '\n'}\n`;
  return `${title}: HTTP ${answer.status} ${JSON.stringify(answer.headers)}\n${body}\n\n`;
}

/** Records the mock's traffic into PREFIX.requests.jsonl and PREFIX.provider.sse as it happens. */
export function recordServeTraffic(server: Pick<MockServer, 'events'>, prefix: string): void {
  const requestsFile = `${prefix}.requests.jsonl`;
  const answersFile = `${prefix}.provider.sse`;
  mkdirSync(path.dirname(path.resolve(requestsFile)), { recursive: true });
  writeFileSync(requestsFile, '');
  writeFileSync(answersFile, '');
  const pending = new Map<number, PendingAnswer>();
  server.events.on('request', (request: RecordedRequest) => {
    const line = {
      n: request.index + 1,
      t: request.time,
      method: request.method,
      path: request.path,
      query: request.query,
      kind: kindOf(request),
      headers: reduceHeaders(request.headers),
      body: reduceRequestBody(request.body),
    };
    appendFileSync(requestsFile, `${JSON.stringify(line)}\n`);
  });
  server.events.on(
    'response-head',
    (request: RecordedRequest, head: { status: number; headers: Record<string, string> }) =>
      pending.set(request.index, { ...head, chunks: [] }),
  );
  server.events.on('response-data', (request: RecordedRequest, chunk: Uint8Array) =>
    pending.get(request.index)?.chunks.push(Buffer.from(chunk)),
  );
  server.events.on('response-end', (request: RecordedRequest) => {
    appendFileSync(answersFile, answerText(request, pending.get(request.index)));
    pending.delete(request.index);
  });
}
