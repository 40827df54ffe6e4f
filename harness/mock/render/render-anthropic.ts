// Script response -> Anthropic Messages streaming (https://docs.anthropic.com/en/docs/build-with-claude/streaming): every frame has an `event:` line.
import type { ModelResponse } from '../scenario/scenario-types.js';
import { providerToolCallId, stableToken } from '../scenario/tool-call-ids.js';
import { resolveStop, resolveUsage, responseKey, type WireRenderContext } from './render-context.js';
import { argumentsText, namedEvent, splitIntoPieces, type WireFrame } from './wire-frames.js';

function messageId(ctx: WireRenderContext): string {
  return `msg_01${stableToken(22, 'anthropic', ctx.scenarioId, responseKey(ctx))}`;
}

function thinkingSignature(ctx: WireRenderContext): string {
  return Buffer.from(`yume-conformance-thinking:${ctx.scenarioId}:${responseKey(ctx)}`).toString('base64');
}

export function renderAnthropicStream(response: ModelResponse, ctx: WireRenderContext): WireFrame[] {
  const usage = resolveUsage(response);
  const frames: WireFrame[] = [];
  const emit = (type: string, payload: Record<string, unknown>, firstText?: boolean): void => {
    frames.push({ bytes: namedEvent(type, { type, ...payload }), firstText });
  };
  emit('message_start', {
    message: {
      id: messageId(ctx),
      type: 'message',
      role: 'assistant',
      model: ctx.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: 1,
        service_tier: 'standard',
      },
    },
  });
  let index = 0;
  let pinged = false;
  // Like the API, one ping right after the first block opens.
  const ping = (): void => {
    if (!pinged) emit('ping', {});
    pinged = true;
  };
  if (response.thinking?.length) {
    emit('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    ping();
    for (const thinking of response.thinking)
      emit('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } });
    emit('content_block_delta', { index, delta: { type: 'signature_delta', signature: thinkingSignature(ctx) } });
    emit('content_block_stop', { index });
    index += 1;
  }
  if (response.text?.length) {
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
    ping();
    for (const [i, text] of response.text.entries()) {
      emit('content_block_delta', { index, delta: { type: 'text_delta', text } }, i === 0 || undefined);
    }
    emit('content_block_stop', { index });
    index += 1;
  }
  for (const call of response.toolCalls ?? []) {
    emit('content_block_start', {
      index,
      content_block: {
        type: 'tool_use',
        id: providerToolCallId('anthropic', ctx.scenarioId, call.id),
        name: call.name,
        input: {},
      },
    });
    ping();
    for (const partial_json of ['', ...splitIntoPieces(argumentsText(call), 2)]) {
      emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    }
    emit('content_block_stop', { index });
    index += 1;
  }
  emit('message_delta', {
    delta: { stop_reason: resolveStop(response), stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  emit('message_stop', {});
  return frames;
}

/** In-stream failure: `event: error` (the SDK throws APIError carrying error.type), then the server closes. */
export function anthropicStreamError(): WireFrame {
  return {
    bytes: namedEvent('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
  };
}

/** stream: false answer (a Message object). */
export function renderAnthropicJson(response: ModelResponse, ctx: WireRenderContext): unknown {
  const usage = resolveUsage(response);
  const content: unknown[] = [];
  if (response.thinking?.length)
    content.push({ type: 'thinking', thinking: response.thinking.join(''), signature: thinkingSignature(ctx) });
  if (response.text?.length) content.push({ type: 'text', text: response.text.join('') });
  for (const call of response.toolCalls ?? []) {
    let input: unknown = {};
    try {
      input = call.rawArguments !== undefined ? JSON.parse(call.rawArguments) : (call.input ?? {});
    } catch {
      input = {}; // a non-streamed Message cannot carry invalid JSON; the empty input is the closest outcome
    }
    content.push({
      type: 'tool_use',
      id: providerToolCallId('anthropic', ctx.scenarioId, call.id),
      name: call.name,
      input,
    });
  }
  return {
    id: messageId(ctx),
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content,
    stop_reason: resolveStop(response),
    stop_sequence: null,
    usage: {
      input_tokens: usage.input_tokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: usage.cache_read_input_tokens,
      output_tokens: usage.output_tokens,
      service_tier: 'standard',
    },
  };
}
