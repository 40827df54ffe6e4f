// Reads what a shim sent, per provider, into one neutral shape: the model, the declared tools, whether it
// streams and asks for usage, and the conversation history with its tool calls and tool results.
import type { MockProviderId } from './scenario/scenario-types.js';

export interface HistoryToolCall {
  id?: string;
  name: string;
  /** Arguments as sent (JSON text for OpenAI, serialised object for Anthropic/Gemini). */
  arguments: string;
  thoughtSignature?: string;
}

export interface HistoryToolResult {
  id?: string;
  name?: string;
  /** Every string inside the result, joined with newlines (content is compared by substance, R10). */
  content: string;
  isError?: boolean;
}

export interface HistoryItem {
  role: 'system' | 'user' | 'assistant' | 'tool';
  texts: string[];
  toolCalls: HistoryToolCall[];
  toolResults: HistoryToolResult[];
}

export interface RequestView {
  model?: string;
  stream: boolean;
  includeUsage: boolean;
  declaredTools: string[];
  history: HistoryItem[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** All string leaves of a value (except `type` tags), so that the substance of any content shape is searchable. */
export function stringLeaves(value: unknown): string {
  const out: string[] = [];
  const walk = (node: unknown, key?: string): void => {
    if (typeof node === 'string') {
      if (key !== 'type') out.push(node);
    } else if (Array.isArray(node)) for (const item of node) walk(item);
    else if (isObject(node)) for (const [k, v] of Object.entries(node)) walk(v, k);
    else if (typeof node === 'number' || typeof node === 'boolean') out.push(String(node));
  };
  walk(value);
  return out.join('\n');
}

const emptyItem = (role: HistoryItem['role']): HistoryItem => ({ role, texts: [], toolCalls: [], toolResults: [] });

/** A Chat Completions tool's name: a function's, or a custom (free-form) tool's such as copilot's apply_patch. */
function chatToolName(tool: Record<string, unknown>): unknown {
  if (isObject(tool.function)) return tool.function.name;
  if (isObject(tool.custom)) return tool.custom.name;
  return tool.name;
}

/** `path` identifies Gemini's streaming method and model; the rest comes from the JSON body. */
export function requestView(provider: MockProviderId, body: unknown, path = ''): RequestView {
  const b = isObject(body) ? body : {};
  switch (provider) {
    case 'openai-chat':
      return {
        model: typeof b.model === 'string' ? b.model : undefined,
        stream: b.stream === true,
        includeUsage: isObject(b.stream_options) && b.stream_options.include_usage === true,
        declaredTools: asArray(b.tools)
          .map((tool) => (isObject(tool) ? chatToolName(tool) : undefined))
          .filter((n): n is string => typeof n === 'string'),
        history: asArray(b.messages).map(chatMessage),
      };
    case 'openai-responses':
      return {
        model: typeof b.model === 'string' ? b.model : undefined,
        stream: b.stream === true,
        includeUsage: true, // the Responses API always reports usage in response.completed
        declaredTools: asArray(b.tools)
          .map((tool) => (isObject(tool) ? tool.name : undefined))
          .filter((n): n is string => typeof n === 'string'),
        history: responsesInput(b.input, b.instructions),
      };
    case 'gemini': {
      const match = /models\/([^/:]+):(\w+)/.exec(path);
      return {
        model: match?.[1],
        stream: match?.[2] === 'streamGenerateContent',
        includeUsage: true,
        declaredTools: asArray(b.tools)
          .flatMap((tool) => (isObject(tool) ? asArray(tool.functionDeclarations ?? tool.function_declarations) : []))
          .map((decl) => (isObject(decl) ? decl.name : undefined))
          .filter((n): n is string => typeof n === 'string'),
        history: [
          ...(isObject(b.systemInstruction)
            ? [{ ...emptyItem('system'), texts: [stringLeaves(b.systemInstruction)] }]
            : []),
          ...asArray(b.contents).map(geminiContent),
        ],
      };
    }
    case 'anthropic':
      return {
        model: typeof b.model === 'string' ? b.model : undefined,
        stream: b.stream === true,
        includeUsage: true,
        declaredTools: asArray(b.tools)
          .map((tool) => (isObject(tool) ? tool.name : undefined))
          .filter((n): n is string => typeof n === 'string'),
        history: [
          ...(b.system !== undefined ? [{ ...emptyItem('system'), texts: [stringLeaves(b.system)] }] : []),
          ...asArray(b.messages).map(anthropicMessage),
        ],
      };
  }
}

function chatMessage(message: unknown): HistoryItem {
  const m = isObject(message) ? message : {};
  const role =
    m.role === 'assistant'
      ? 'assistant'
      : m.role === 'tool'
        ? 'tool'
        : m.role === 'system' || m.role === 'developer'
          ? 'system'
          : 'user';
  const item = emptyItem(role);
  if (role === 'tool') {
    item.toolResults.push({
      id: typeof m.tool_call_id === 'string' ? m.tool_call_id : undefined,
      content: stringLeaves(m.content),
    });
    return item;
  }
  if (typeof m.content === 'string') item.texts.push(m.content);
  else
    for (const part of asArray(m.content))
      if (isObject(part) && typeof part.text === 'string') item.texts.push(part.text);
  for (const call of asArray(m.tool_calls)) {
    if (!isObject(call)) continue;
    const fn = isObject(call.function) ? call.function : {};
    item.toolCalls.push({
      id: typeof call.id === 'string' ? call.id : undefined,
      name: String(fn.name ?? ''),
      arguments: typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}),
    });
  }
  return item;
}

function responsesInput(input: unknown, instructions: unknown): HistoryItem[] {
  const items: HistoryItem[] = [];
  if (typeof instructions === 'string') items.push({ ...emptyItem('system'), texts: [instructions] });
  if (typeof input === 'string') {
    items.push({ ...emptyItem('user'), texts: [input] });
    return items;
  }
  for (const entry of asArray(input)) {
    if (!isObject(entry)) continue;
    if (entry.type === 'function_call') {
      items.push({
        ...emptyItem('assistant'),
        toolCalls: [
          {
            id: typeof entry.call_id === 'string' ? entry.call_id : undefined,
            name: String(entry.name ?? ''),
            arguments: typeof entry.arguments === 'string' ? entry.arguments : '',
          },
        ],
      });
    } else if (entry.type === 'function_call_output' || entry.type === 'custom_tool_call_output') {
      items.push({
        ...emptyItem('tool'),
        toolResults: [
          { id: typeof entry.call_id === 'string' ? entry.call_id : undefined, content: stringLeaves(entry.output) },
        ],
      });
    } else if (entry.type === 'message' || entry.role !== undefined) {
      const role =
        entry.role === 'assistant'
          ? 'assistant'
          : entry.role === 'system' || entry.role === 'developer'
            ? 'system'
            : 'user';
      const texts =
        typeof entry.content === 'string'
          ? [entry.content]
          : asArray(entry.content)
              .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : undefined))
              .filter((t): t is string => t !== undefined);
      items.push({ ...emptyItem(role), texts });
    }
  }
  return items;
}

function geminiContent(content: unknown): HistoryItem {
  const c = isObject(content) ? content : {};
  const item = emptyItem(c.role === 'model' ? 'assistant' : 'user');
  for (const part of asArray(c.parts)) {
    if (!isObject(part)) continue;
    if (typeof part.text === 'string' && part.thought !== true) item.texts.push(part.text);
    const call = isObject(part.functionCall)
      ? part.functionCall
      : isObject(part.function_call)
        ? part.function_call
        : undefined;
    if (call) {
      const signature = part.thoughtSignature ?? part.thought_signature;
      item.toolCalls.push({
        id: typeof call.id === 'string' ? call.id : undefined,
        name: String(call.name ?? ''),
        arguments: JSON.stringify(call.args ?? {}),
        thoughtSignature: typeof signature === 'string' ? signature : undefined,
      });
    }
    const response = isObject(part.functionResponse)
      ? part.functionResponse
      : isObject(part.function_response)
        ? part.function_response
        : undefined;
    if (response) {
      const payload = isObject(response.response) ? response.response : {};
      item.toolResults.push({
        id: typeof response.id === 'string' ? response.id : undefined,
        name: typeof response.name === 'string' ? response.name : undefined,
        content: stringLeaves(response.response),
        isError: 'error' in payload ? true : undefined,
      });
    }
  }
  return item;
}

function anthropicMessage(message: unknown): HistoryItem {
  const m = isObject(message) ? message : {};
  const item = emptyItem(m.role === 'assistant' ? 'assistant' : 'user');
  if (typeof m.content === 'string') {
    item.texts.push(m.content);
    return item;
  }
  for (const block of asArray(m.content)) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') item.texts.push(block.text);
    else if (block.type === 'tool_use')
      item.toolCalls.push({
        id: typeof block.id === 'string' ? block.id : undefined,
        name: String(block.name ?? ''),
        arguments: JSON.stringify(block.input ?? {}),
      });
    else if (block.type === 'tool_result') {
      item.toolResults.push({
        id: typeof block.tool_use_id === 'string' ? block.tool_use_id : undefined,
        content: stringLeaves(block.content),
        isError: block.is_error === true ? true : block.is_error === false ? false : undefined,
      });
    }
  }
  return item;
}

/** A text without its white space: how the request checks find one text inside another, whatever its wrapping. */
export function squash(text: string): string {
  return text.replace(/\s+/g, '');
}
