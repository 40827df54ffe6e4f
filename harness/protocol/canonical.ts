// Canonical events (docs/architecture.md): the flat dialect and Claude-native envelopes mapped to one list,
// so the runner and the checks compare both dialects as equal (R1). Each event carries its 1-based line.
import { Buffer } from 'node:buffer';
import { asBuffer, forEachLine, isValidUtf8 } from './lines.js';

export interface CanonicalUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
  estimated?: boolean;
}

export type CanonicalEvent =
  | {
      kind: 'init';
      line: number;
      sessionId?: string;
      tools?: string[];
      model?: string;
      cwd?: string;
      permissionMode?: string;
    }
  /** `trigger` and `preTokens`: a `compact_boundary`'s `compact_metadata`. */
  | {
      kind: 'system';
      line: number;
      subtype: string;
      message?: string;
      sessionId?: string;
      trigger?: string;
      preTokens?: number;
    }
  | { kind: 'text'; line: number; text: string }
  | { kind: 'thinking'; line: number; text: string }
  | { kind: 'tool_use'; line: number; id: string; name: string; input: unknown; messageId?: string }
  | { kind: 'tool_result'; line: number; toolUseId: string; content: unknown; isError: boolean }
  /** `nested`: the counts sat in a `usage` object (`{"type":"usage","usage":{...}}`), the form the app counts. */
  | { kind: 'usage'; line: number; inputTokens?: number; outputTokens?: number; nested?: true }
  | {
      kind: 'result';
      line: number;
      isError: boolean;
      subtype?: string;
      usage?: CanonicalUsage;
      errors?: unknown;
      sessionId?: string;
      text?: string | null;
    }
  | { kind: 'message_stop'; line: number }
  | { kind: 'error'; line: number; message: string }
  | { kind: 'interrupt'; line: number }
  /** `text`: what a `user` line says (claude's `[Request interrupted by user]`) or a `stream_event` text delta. */
  | { kind: 'other'; line: number; type: string; text?: string };

/** A turn's closing `result` event. */
export type ResultEvent = Extract<CanonicalEvent, { kind: 'result' }>;

type Json = Record<string, unknown>;

const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const asNumber = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Token counts of a `usage` object in canonical (camelCase) form, or undefined when it is not an object. */
export function canonicalUsage(value: unknown): CanonicalUsage | undefined {
  if (!isObject(value)) return undefined;
  const usage: CanonicalUsage = {};
  const input = asNumber(value.input_tokens);
  const output = asNumber(value.output_tokens);
  const cacheRead = asNumber(value.cache_read_input_tokens);
  const cacheCreation = asNumber(value.cache_creation_input_tokens);
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (cacheRead !== undefined) usage.cacheReadInputTokens = cacheRead;
  if (cacheCreation !== undefined) usage.cacheCreationInputTokens = cacheCreation;
  if (value.estimated === true) usage.estimated = true;
  return usage;
}

function errorText(message: Json): string {
  const direct = asString(message.message);
  if (direct !== undefined) return direct;
  if (isObject(message.error)) return asString(message.error.message) ?? '';
  return asString(message.error) ?? '';
}

function assistantEvents(message: Json, line: number, push: (event: CanonicalEvent) => void): void {
  const body = message.message;
  if (!isObject(body) || !Array.isArray(body.content)) return;
  const messageId = asString(body.id);
  for (const block of body.content) {
    if (!isObject(block)) continue;
    if (block.type === 'text') push({ kind: 'text', line, text: asString(block.text) ?? '' });
    else if (block.type === 'thinking') push({ kind: 'thinking', line, text: asString(block.thinking) ?? '' });
    else if (block.type === 'tool_use') {
      const event: CanonicalEvent = {
        kind: 'tool_use',
        line,
        id: asString(block.id) ?? '',
        name: asString(block.name) ?? '',
        input: block.input,
      };
      if (messageId !== undefined) event.messageId = messageId;
      push(event);
    } else push({ kind: 'other', line, type: `assistant.${String(block.type)}` });
  }
}

function userEvents(message: Json, line: number, push: (event: CanonicalEvent) => void): void {
  const body = message.message;
  const content = isObject(body) ? body.content : undefined;
  let echoed = false;
  const said: string[] = typeof content === 'string' ? [content] : [];
  if (Array.isArray(content)) {
    for (const block of content) {
      if (isObject(block) && block.type === 'text' && typeof block.text === 'string') said.push(block.text);
      if (isObject(block) && block.type === 'tool_result') {
        push({
          kind: 'tool_result',
          line,
          toolUseId: asString(block.tool_use_id) ?? '',
          content: block.content,
          isError: block.is_error === true,
        });
      } else echoed = true;
    }
  } else echoed = true;
  // User text (an echoed prompt, claude's "[Request interrupted by user]") is not assistant output.
  if (echoed)
    push(
      said.length > 0
        ? { kind: 'other', line, type: 'user', text: said.join('') }
        : { kind: 'other', line, type: 'user' },
    );
}

/** The text of a `stream_event` carrying a text delta (claude's `--include-partial-messages`), if it is one. */
function streamEventText(message: Json): string | undefined {
  const event = message.event;
  if (!isObject(event) || event.type !== 'content_block_delta' || !isObject(event.delta)) return undefined;
  return event.delta.type === 'text_delta' ? asString(event.delta.text) : undefined;
}

/** A `system` line: the session's `init`, or any other subtype. */
function systemEvent(message: Json, line: number): CanonicalEvent {
  const subtype = asString(message.subtype) ?? '';
  if (subtype === 'init') return initEvent(message, line);
  const event: CanonicalEvent = { kind: 'system', line, subtype };
  const text = asString(message.message);
  if (text !== undefined) event.message = text;
  const sessionId = asString(message.session_id);
  if (sessionId !== undefined) event.sessionId = sessionId;
  if (isObject(message.compact_metadata)) {
    const trigger = asString(message.compact_metadata.trigger);
    const preTokens = asNumber(message.compact_metadata.pre_tokens);
    if (trigger !== undefined) event.trigger = trigger;
    if (preTokens !== undefined) event.preTokens = preTokens;
  }
  return event;
}

function initEvent(message: Json, line: number): CanonicalEvent {
  const event: CanonicalEvent = { kind: 'init', line };
  const sessionId = asString(message.session_id);
  if (sessionId !== undefined) event.sessionId = sessionId;
  if (Array.isArray(message.tools)) event.tools = message.tools.filter((t): t is string => typeof t === 'string');
  const model = asString(message.model);
  if (model !== undefined) event.model = model;
  const cwd = asString(message.cwd);
  if (cwd !== undefined) event.cwd = cwd;
  const mode = asString(message.permissionMode);
  if (mode !== undefined) event.permissionMode = mode;
  return event;
}

/** A flat `usage` line, its counts at its top or nested in a `usage` object. */
function usageEvent(message: Json, line: number): CanonicalEvent {
  const usage = isObject(message.usage) ? canonicalUsage(message.usage) : canonicalUsage(message);
  const event: CanonicalEvent = { kind: 'usage', line };
  if (isObject(message.usage)) event.nested = true;
  if (usage?.inputTokens !== undefined) event.inputTokens = usage.inputTokens;
  if (usage?.outputTokens !== undefined) event.outputTokens = usage.outputTokens;
  return event;
}

/** A turn's `result` line; undefined for Gemini CLI's native result (stats or status, no is_error). */
function resultEvent(message: Json, line: number): CanonicalEvent | undefined {
  if (message.is_error === undefined && (message.stats !== undefined || message.status !== undefined)) return undefined;
  const event: CanonicalEvent = { kind: 'result', line, isError: message.is_error === true };
  const subtype = asString(message.subtype);
  if (subtype !== undefined) event.subtype = subtype;
  const usage = canonicalUsage(message.usage);
  if (usage !== undefined) event.usage = usage;
  if (message.errors !== undefined) event.errors = message.errors;
  const sessionId = asString(message.session_id);
  if (sessionId !== undefined) event.sessionId = sessionId;
  if (typeof message.result === 'string' || message.result === null) event.text = message.result;
  return event;
}

/** A flat `tool_use` line; undefined for Gemini CLI's native one (tool_name, no name). */
function toolUseEvent(message: Json, line: number): CanonicalEvent | undefined {
  if (message.name === undefined && message.tool_name !== undefined) return undefined;
  return {
    kind: 'tool_use',
    line,
    id: asString(message.id) ?? '',
    name: asString(message.name) ?? '',
    input: message.input,
  };
}

/** A flat `tool_result` line; undefined for Gemini CLI's native one (tool_id, no tool_use_id). */
function toolResultEvent(message: Json, line: number): CanonicalEvent | undefined {
  if (message.tool_use_id === undefined && message.tool_id !== undefined) return undefined;
  return {
    kind: 'tool_result',
    line,
    toolUseId: asString(message.tool_use_id) ?? '',
    content: message.content,
    isError: message.is_error === true,
  };
}

/** The one event of a line type that maps to a single event; undefined: a native line, or a type mapped elsewhere. */
function singleEvent(message: Json, type: string, line: number): CanonicalEvent | undefined {
  switch (type) {
    case 'system':
      return systemEvent(message, line);
    case 'text':
      return { kind: 'text', line, text: asString(message.content) ?? '' };
    case 'thinking':
      return { kind: 'thinking', line, text: asString(message.thought) ?? '' };
    case 'tool_use':
      return toolUseEvent(message, line);
    case 'tool_result':
      return toolResultEvent(message, line);
    case 'usage':
      return usageEvent(message, line);
    case 'result':
      return resultEvent(message, line);
    case 'message_stop':
      return { kind: 'message_stop', line };
    case 'error':
      return { kind: 'error', line, message: errorText(message) };
    case 'interrupt':
      return { kind: 'interrupt', line };
    case 'stream_event': {
      const text = streamEventText(message);
      return text === undefined ? { kind: 'other', line, type } : { kind: 'other', line, type, text };
    }
    default:
      return undefined;
  }
}

/**
 * Maps one parsed stdout message to canonical events (none for a value that is not an object with a string
 * `type`). `push` receives each event; nothing is allocated beyond the events themselves. A line of a type
 * the protocol does not know, or another CLI's native line, is one `other` event.
 */
export function messageToCanonicalEvents(message: unknown, line: number, push: (event: CanonicalEvent) => void): void {
  if (!isObject(message)) return;
  const type = message.type;
  if (typeof type !== 'string') return;
  if (type === 'assistant') assistantEvents(message, line, push);
  else if (type === 'user') userEvents(message, line, push);
  else push(singleEvent(message, type, line) ?? { kind: 'other', line, type });
}

/**
 * Canonical events of a whole stdout capture (raw bytes or text). Lines that are not JSON objects, or not
 * valid UTF-8, produce no events; judging them is the validator's job.
 */
export function toCanonicalEvents(input: Uint8Array | string): CanonicalEvent[] {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : asBuffer(input);
  const events: CanonicalEvent[] = [];
  const push = (event: CanonicalEvent) => {
    events.push(event);
  };
  forEachLine(bytes, (line, start, end) => {
    if (end === start || !isValidUtf8(bytes, start, end)) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8', start, end));
    } catch {
      return;
    }
    messageToCanonicalEvents(parsed, line, push);
  });
  return events;
}
