// OpenAI Responses API (what the codex models use),
// https://platform.openai.com/docs/api-reference/responses-streaming.
import type { HistoryEntry, TokenUsage } from '../session/history.js';
import {
  bearerAuth,
  cutOffError,
  HttpModelProvider,
  rawExcerpt,
  streamError,
  usageFromPromptTotal,
} from './model-stream.js';
import type { OpenAIConfig } from './openai-chat.js';
import {
  type ModelRequest,
  type ModelStreamEvent,
  type ModelToolCall,
  ProviderError,
  type StopReason,
} from './provider.js';
import { parseChunk } from './sse.js';

interface ResponsesItem {
  id?: string;
  type?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
}

interface ResponsesEvent {
  type?: string;
  delta?: string;
  item_id?: string;
  output_index?: number;
  item?: ResponsesItem;
  arguments?: string;
  message?: string;
  code?: string;
  response?: {
    status?: string;
    error?: { code?: string; message?: string } | null;
    incomplete_details?: { reason?: string } | null;
    usage?: {
      input_tokens?: number;
      output_tokens?: number;
      input_tokens_details?: { cached_tokens?: number } | null;
    } | null;
  };
}

export function responsesInput(history: readonly HistoryEntry[]): unknown[] {
  const input: unknown[] = [];
  for (const entry of history) {
    if (entry.role === 'user') input.push({ role: 'user', content: entry.content });
    else if (entry.role === 'assistant') {
      if (entry.content) input.push({ role: 'assistant', content: entry.content });
      for (const call of entry.toolCalls ?? []) {
        input.push({
          type: 'function_call',
          call_id: call.wireId ?? call.id,
          name: call.name,
          arguments: call.rawArguments ?? JSON.stringify(call.input),
        });
      }
    } else {
      input.push({ type: 'function_call_output', call_id: entry.wireId ?? entry.toolCallId, output: entry.content });
    }
  }
  return input;
}

export class OpenAIResponsesProvider extends HttpModelProvider<OpenAIConfig> {
  readonly generatedIdPrefix = 'call_codex_';

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const stream = this.openStream({
      path: '/responses',
      headers: bearerAuth(this.config.apiKey),
      body: responsesBody(request),
      signal: request.signal,
    });

    const response = new ResponseState();
    for await (const item of stream) {
      if (item.kind === 'stray') continue;
      if (!item.data.trim() || item.data.trim() === '[DONE]') continue;
      const event = parseChunk(this.id, item.data) as ResponsesEvent;
      const type = event.type ?? item.event;
      if (type === 'response.failed')
        throw new ProviderError(
          'stream',
          `${this.id} response failed: ${event.response?.error?.message ?? 'no reason given'}`,
          { code: event.response?.error?.code },
        );
      if (type === 'error') throw streamError(this.id, event.message ?? rawExcerpt(item.data), event.code);
      const shown = response.apply(type, event);
      if (shown) yield shown;
      if (response.completed) break;
    }
    if (!response.completed) throw cutOffError(this.id, 'before response.completed');
    yield { type: 'done', message: response.final() };
  }
}

function responsesBody(request: ModelRequest): Record<string, unknown> {
  return {
    model: request.model,
    instructions: request.system,
    input: responsesInput(request.history),
    tools: request.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    })),
    tool_choice: 'auto',
    stream: true,
    store: false,
  };
}

/** One streamed response as its events build it: text, reasoning, function calls, usage and how it ended. */
class ResponseState {
  completed = false;
  private text = '';
  private thinking = '';
  private stopReason: StopReason = 'end_turn';
  private usage: TokenUsage | undefined;
  // Calls are keyed by item id; `output_item.done` carries the complete call and wins over the deltas.
  private readonly calls = new Map<string, { order: number; callId?: string; name: string; args: string }>();

  /** Takes one event in; returns the text or thinking it shows, if any. */
  apply(type: string | undefined, event: ResponsesEvent): ModelStreamEvent | undefined {
    switch (type) {
      case 'response.output_text.delta':
        if (!event.delta) return undefined;
        this.text += event.delta;
        return { type: 'text', text: event.delta };
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        if (!event.delta) return undefined;
        this.thinking += event.delta;
        return { type: 'thinking', text: event.delta };
      case 'response.output_item.added':
      case 'response.output_item.done':
        this.outputItem(event, type === 'response.output_item.done');
        return undefined;
      case 'response.function_call_arguments.delta': {
        const call = this.calls.get(event.item_id ?? '');
        if (call && event.delta) call.args += event.delta;
        return undefined;
      }
      case 'response.function_call_arguments.done': {
        const call = this.calls.get(event.item_id ?? '');
        if (call && typeof event.arguments === 'string') call.args = event.arguments;
        return undefined;
      }
      case 'response.completed':
      case 'response.incomplete':
        this.complete(event, type === 'response.incomplete');
        return undefined;
      default:
        // Unknown and uninteresting events are ignored, as the API asks of clients.
        return undefined;
    }
  }

  private outputItem(event: ResponsesEvent, done: boolean): void {
    const fc = event.item;
    if (fc?.type !== 'function_call') return;
    const key = fc.id ?? fc.call_id ?? String(event.output_index);
    const call = this.calls.get(key) ?? { order: event.output_index ?? this.calls.size, name: '', args: '' };
    if (fc.call_id) call.callId = fc.call_id;
    if (fc.name) call.name = fc.name;
    if (done && typeof fc.arguments === 'string') call.args = fc.arguments;
    this.calls.set(key, call);
  }

  private complete(event: ResponsesEvent, incomplete: boolean): void {
    this.completed = true;
    if (incomplete) this.stopReason = 'max_tokens';
    const reported = event.response?.usage;
    if (reported) {
      this.usage = usageFromPromptTotal(
        reported.input_tokens,
        reported.output_tokens ?? 0,
        reported.input_tokens_details?.cached_tokens,
      );
    }
  }

  /** The whole message: calls in output order; a response with calls stops for them. */
  final(): Extract<ModelStreamEvent, { type: 'done' }>['message'] {
    const toolCalls: ModelToolCall[] = [...this.calls.values()]
      .sort((a, b) => a.order - b.order)
      .map((call) => ({ id: call.callId, name: call.name, argumentsText: call.args }));
    return {
      text: this.text,
      thinking: this.thinking ? [{ text: this.thinking }] : [],
      toolCalls,
      usage: this.usage,
      stopReason: toolCalls.length > 0 ? 'tool_use' : this.stopReason,
    };
  }
}
