// OpenAI Chat Completions (and any compatible endpoint, local ones included),
// https://platform.openai.com/docs/api-reference/chat-streaming.
import type { HistoryEntry, TokenUsage } from '../session/history.js';
import {
  bearerAuth,
  cutOffError,
  HttpModelProvider,
  rawExcerpt,
  stopReasonFrom,
  streamError,
  usageFromPromptTotal,
} from './model-stream.js';
import type { AssembledMessage, ModelRequest, ModelStreamEvent, StopReason } from './provider.js';
import { parseChunk } from './sse.js';

export interface OpenAIConfig {
  baseUrl: string;
  apiKey?: string;
}

interface ChatToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface ChatChunk {
  error?: { message?: string; code?: string | null };
  choices?: Array<{
    delta?: { content?: string | null; reasoning_content?: string | null; tool_calls?: ChatToolCallDelta[] };
    finish_reason?: string | null;
  }>;
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
  } | null;
}

export function chatMessages(system: string, history: readonly HistoryEntry[]): unknown[] {
  const messages: unknown[] = [{ role: 'system', content: system }];
  for (const entry of history) {
    if (entry.role === 'user') messages.push({ role: 'user', content: entry.content });
    else if (entry.role === 'assistant') {
      const calls = entry.toolCalls ?? [];
      messages.push({
        role: 'assistant',
        content: entry.content || (calls.length > 0 ? null : ''),
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((call) => ({
                id: call.wireId ?? call.id,
                type: 'function',
                function: { name: call.name, arguments: call.rawArguments ?? JSON.stringify(call.input) },
              })),
            }
          : {}),
      });
    } else {
      messages.push({ role: 'tool', tool_call_id: entry.wireId ?? entry.toolCallId, content: entry.content });
    }
  }
  return messages;
}

const STOP_REASONS: Readonly<Record<string, StopReason>> = {
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
  stop: 'end_turn',
};

export class OpenAIChatProvider extends HttpModelProvider<OpenAIConfig> {
  readonly generatedIdPrefix = 'call_openai_';

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const stream = this.openStream({
      path: '/chat/completions',
      headers: bearerAuth(this.config.apiKey),
      body: {
        model: request.model,
        messages: chatMessages(request.system, request.history),
        tools: request.tools.map((tool) => ({
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.parameters },
        })),
        stream: true,
        stream_options: { include_usage: true },
      },
      signal: request.signal,
    });

    let text = '';
    let finish: string | null | undefined;
    let done = false;
    let usage: TokenUsage | undefined;
    // Fragments are keyed by `index` and only parsed once the stream is complete (https://platform.openai.com/docs/guides/function-calling).
    const calls = new Map<number, { id?: string; name: string; args: string }>();
    for await (const item of stream) {
      if (item.kind === 'stray') continue;
      const data = item.data.trim();
      if (data === '[DONE]') {
        done = true;
        break;
      }
      if (!data) continue;
      const chunk = parseChunk(this.id, data) as ChatChunk;
      if (chunk.error || item.event === 'error') {
        throw streamError(this.id, chunk.error?.message ?? rawExcerpt(data));
      }
      if (chunk.usage) {
        usage = usageFromPromptTotal(
          chunk.usage.prompt_tokens,
          chunk.usage.completion_tokens ?? 0,
          chunk.usage.prompt_tokens_details?.cached_tokens,
        );
      }
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta ?? {};
      if (delta.reasoning_content) yield { type: 'thinking', text: delta.reasoning_content };
      if (delta.content) {
        text += delta.content;
        yield { type: 'text', text: delta.content };
      }
      for (const fragment of delta.tool_calls ?? []) {
        const index = fragment.index ?? 0;
        const call = calls.get(index) ?? { name: '', args: '' };
        if (fragment.id) call.id = fragment.id;
        if (fragment.function?.name) call.name += fragment.function.name;
        if (fragment.function?.arguments) call.args += fragment.function.arguments;
        calls.set(index, call);
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    // Some compatible servers omit [DONE]; a finish_reason still proves the answer is whole.
    if (!done && !finish) throw cutOffError(this.id, 'before [DONE]');

    const message: AssembledMessage = {
      text,
      thinking: [],
      toolCalls: [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, call]) => ({ id: call.id, name: call.name, argumentsText: call.args })),
      usage,
      stopReason: calls.size > 0 ? 'tool_use' : stopReasonFrom(finish, STOP_REASONS),
    };
    yield { type: 'done', message };
  }
}
