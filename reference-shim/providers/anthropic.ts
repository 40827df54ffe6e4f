// Anthropic Messages streaming — https://docs.anthropic.com/en/docs/build-with-claude/streaming
import type { HistoryEntry, ThinkingRecord, TokenUsage } from '../session/history.js';
import { cutOffError, HttpModelProvider, rawExcerpt, stopReasonFrom, streamError } from './model-stream.js';
import type { ModelRequest, ModelStreamEvent, ModelToolCall, StopReason } from './provider.js';
import { parseChunk } from './sse.js';

const ANTHROPIC_VERSION = '2023-06-01';
const MAX_TOKENS = 8192;

interface AnthropicEvent {
  type?: string;
  index?: number;
  message?: { usage?: AnthropicUsage };
  content_block?: { type?: string; id?: string; name?: string; text?: string; thinking?: string; data?: string };
  delta?: {
    type?: string;
    text?: string;
    partial_json?: string;
    thinking?: string;
    signature?: string;
    stop_reason?: string | null;
  };
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}

interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; record: ThinkingRecord }
  | { kind: 'tool'; id: string; name: string; json: string };

export function anthropicMessages(history: readonly HistoryEntry[]): unknown[] {
  const messages: Array<{ role: string; content: unknown[] }> = [];
  const push = (role: string, block: unknown): void => {
    const last = messages[messages.length - 1];
    if (last?.role === role) last.content.push(block);
    else messages.push({ role, content: [block] });
  };
  for (const entry of history) {
    if (entry.role === 'user') push('user', { type: 'text', text: entry.content });
    else if (entry.role === 'assistant') {
      const ownExtras = entry.provider === undefined || entry.provider === 'anthropic';
      const blocks: unknown[] = [];
      if (ownExtras) {
        for (const thought of entry.thinking ?? []) {
          if (thought.redacted) blocks.push({ type: 'redacted_thinking', data: thought.redacted });
          else if (thought.signature)
            blocks.push({ type: 'thinking', thinking: thought.text, signature: thought.signature });
        }
      }
      if (entry.content) blocks.push({ type: 'text', text: entry.content });
      for (const call of entry.toolCalls ?? []) {
        blocks.push({ type: 'tool_use', id: call.wireId ?? call.id, name: call.name, input: call.input });
      }
      for (const block of blocks) push('assistant', block);
    } else {
      push('user', {
        type: 'tool_result',
        tool_use_id: entry.wireId ?? entry.toolCallId,
        content: entry.content,
        ...(entry.isError ? { is_error: true } : {}),
      });
    }
  }
  return messages;
}

const STOP_REASONS: Readonly<Record<string, StopReason>> = {
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  end_turn: 'end_turn',
  stop_sequence: 'end_turn',
};

export class AnthropicProvider extends HttpModelProvider<{ baseUrl: string; apiKey?: string }> {
  readonly generatedIdPrefix = 'call_anthropic_';

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const stream = this.openStream({
      path: '/v1/messages',
      headers: {
        'anthropic-version': ANTHROPIC_VERSION,
        ...(this.config.apiKey ? { 'x-api-key': this.config.apiKey } : {}),
      },
      body: messagesBody(request),
      signal: request.signal,
    });

    const message = new MessageState();
    let stopped = false;
    for await (const item of stream) {
      if (item.kind === 'stray' || !item.data.trim()) continue;
      const event = parseChunk(this.id, item.data) as AnthropicEvent;
      const type = event.type ?? item.event;
      if (type === 'message_stop') {
        stopped = true;
        break;
      }
      if (type === 'error')
        throw streamError(this.id, event.error?.message ?? rawExcerpt(item.data), event.error?.type);
      const shown = message.apply(type, event);
      if (shown) yield shown;
    }
    if (!stopped) throw cutOffError(this.id, 'before message_stop');
    yield { type: 'done', message: message.final() };
  }
}

function messagesBody(request: ModelRequest): Record<string, unknown> {
  return {
    model: request.model,
    max_tokens: MAX_TOKENS,
    system: request.system,
    messages: anthropicMessages(request.history),
    tools: request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
    })),
    stream: true,
  };
}

/** One streamed message as its events build it: its content blocks by index, its stop reason and usage. */
class MessageState {
  private readonly blocks = new Map<number, Block>();
  private stopReason: string | null | undefined;
  private input: AnthropicUsage = {};
  private output: number | undefined;

  /** Takes one event in; returns the text or thinking it shows, if any. */
  apply(type: string | undefined, event: AnthropicEvent): ModelStreamEvent | undefined {
    if (type === 'message_start') {
      this.input = event.message?.usage ?? {};
      if (typeof this.input.output_tokens === 'number') this.output = this.input.output_tokens;
    } else if (type === 'content_block_start' && event.content_block) {
      return this.startBlock(event.index ?? this.blocks.size, event.content_block);
    } else if (type === 'content_block_delta' && event.delta) {
      return applyDelta(this.blocks.get(event.index ?? -1), event.delta);
    } else if (type === 'message_delta') {
      if (event.delta?.stop_reason) this.stopReason = event.delta.stop_reason;
      // message_delta usage is cumulative; it may also restate the input side.
      if (typeof event.usage?.output_tokens === 'number') this.output = event.usage.output_tokens;
      if (typeof event.usage?.input_tokens === 'number') this.input = { ...this.input, ...event.usage };
    }
    return undefined;
  }

  private startBlock(index: number, block: NonNullable<AnthropicEvent['content_block']>): ModelStreamEvent | undefined {
    if (block.type === 'text') {
      this.blocks.set(index, { kind: 'text', text: block.text ?? '' });
      if (block.text) return { type: 'text', text: block.text };
    } else if (block.type === 'thinking') {
      this.blocks.set(index, { kind: 'thinking', record: { text: block.thinking ?? '' } });
    } else if (block.type === 'redacted_thinking') {
      this.blocks.set(index, { kind: 'thinking', record: { text: '', redacted: block.data ?? '' } });
    } else if (block.type === 'tool_use') {
      this.blocks.set(index, { kind: 'tool', id: block.id ?? '', name: block.name ?? '', json: '' });
    }
    return undefined;
  }

  /** The whole message: its blocks in index order, its usage, and why it stopped. */
  final(): Extract<ModelStreamEvent, { type: 'done' }>['message'] {
    const ordered = [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
    const toolCalls: ModelToolCall[] = [];
    const thinking: ThinkingRecord[] = [];
    let text = '';
    for (const block of ordered) {
      if (block.kind === 'text') text += block.text;
      else if (block.kind === 'thinking') thinking.push(block.record);
      // An empty input_json stream means "no arguments".
      else toolCalls.push({ id: block.id || undefined, name: block.name, argumentsText: block.json || '{}' });
    }
    const { input, output } = this;
    const usage: TokenUsage | undefined =
      typeof input.input_tokens === 'number' || output !== undefined
        ? {
            inputTokens: input.input_tokens ?? 0,
            outputTokens: output ?? 0,
            ...(input.cache_read_input_tokens ? { cacheReadTokens: input.cache_read_input_tokens } : {}),
            ...(input.cache_creation_input_tokens ? { cacheCreationTokens: input.cache_creation_input_tokens } : {}),
          }
        : undefined;
    return {
      text,
      thinking,
      toolCalls,
      usage,
      stopReason: toolCalls.length > 0 ? 'tool_use' : stopReasonFrom(this.stopReason, STOP_REASONS),
    };
  }
}

/** One content_block_delta onto its block; returns the text or thinking it shows, if any. */
function applyDelta(
  block: Block | undefined,
  delta: NonNullable<AnthropicEvent['delta']>,
): ModelStreamEvent | undefined {
  if (delta.type === 'text_delta' && block?.kind === 'text' && delta.text) {
    block.text += delta.text;
    return { type: 'text', text: delta.text };
  }
  if (delta.type === 'thinking_delta' && block?.kind === 'thinking' && delta.thinking) {
    block.record.text += delta.thinking;
    return { type: 'thinking', text: delta.thinking };
  }
  if (delta.type === 'signature_delta' && block?.kind === 'thinking') {
    block.record.signature = (block.record.signature ?? '') + (delta.signature ?? '');
  } else if (delta.type === 'input_json_delta' && block?.kind === 'tool') {
    block.json += delta.partial_json ?? '';
  }
  return undefined;
}
