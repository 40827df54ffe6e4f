// Script response -> Responses API streaming events
// (https://platform.openai.com/docs/api-reference/responses-streaming): every event has `event:` equal to its
// JSON `type` and a sequence_number; output_item.done always carries the complete item (Codex reads it).

import { isCustomToolCall } from '../scenario/custom-tool-calls.js';
import type { ModelResponse, ScriptToolCall } from '../scenario/scenario-types.js';
import { providerToolCallId, responsesItemId, stableHex } from '../scenario/tool-call-ids.js';
import { resolveStop, resolveUsage, responseKey, type WireRenderContext } from './render-context.js';
import { argumentsText, MOCK_CREATED_AT, namedEvent, splitIntoPieces, type WireFrame } from './wire-frames.js';

function ids(ctx: WireRenderContext): { response: string; message: string; reasoning: string } {
  const key = responseKey(ctx);
  return {
    response: `resp_${stableHex(48, 'resp', ctx.scenarioId, key)}`,
    message: `msg_${stableHex(48, 'msg', ctx.scenarioId, key)}`,
    reasoning: `rs_${stableHex(48, 'rs', ctx.scenarioId, key)}`,
  };
}

/** Usage in Responses terms: input_tokens include cached tokens. */
export function responsesUsage(response: ModelResponse): Record<string, unknown> {
  const usage = resolveUsage(response);
  const input = usage.input_tokens + usage.cache_read_input_tokens;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cache_read_input_tokens },
    output_tokens: usage.output_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + usage.output_tokens,
  };
}

function responseObject(
  ctx: WireRenderContext,
  status: string,
  output: unknown[],
  extra: Record<string, unknown>,
): Record<string, unknown> {
  return {
    id: ids(ctx).response,
    object: 'response',
    created_at: MOCK_CREATED_AT,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: ctx.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: null,
    metadata: {},
    ...extra,
  };
}

/** The final output items, as response.completed and a non-streaming answer list them. */
function finalItems(response: ModelResponse, ctx: WireRenderContext): Record<string, unknown>[] {
  const id = ids(ctx);
  const items: Record<string, unknown>[] = [];
  if (response.thinking?.length) {
    items.push({
      id: id.reasoning,
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: response.thinking.join('') }],
    });
  }
  if (response.text?.length) {
    items.push({
      id: id.message,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: response.text.join(''), annotations: [], logprobs: [] }],
    });
  }
  for (const call of response.toolCalls ?? []) {
    if (isCustomToolCall(call)) {
      // A free-form tool (codex's apply_patch): the input is the raw text, not JSON arguments.
      items.push({
        id: responsesItemId(ctx.scenarioId, call.id),
        type: 'custom_tool_call',
        status: 'completed',
        name: call.name,
        call_id: providerToolCallId('openai-responses', ctx.scenarioId, call.id),
        input: argumentsText(call),
      });
      continue;
    }
    items.push({
      id: responsesItemId(ctx.scenarioId, call.id),
      type: 'function_call',
      status: 'completed',
      name: call.name,
      call_id: providerToolCallId('openai-responses', ctx.scenarioId, call.id),
      arguments: argumentsText(call),
    });
  }
  return items;
}

type Emit = (type: string, payload: Record<string, unknown>, firstText?: boolean) => void;

export function renderOpenAIResponsesStream(response: ModelResponse, ctx: WireRenderContext): WireFrame[] {
  const frames: WireFrame[] = [];
  let sequence = 0;
  const emit: Emit = (type, payload, firstText) => {
    frames.push({ bytes: namedEvent(type, { type, sequence_number: sequence++, ...payload }), firstText });
  };
  const id = ids(ctx);
  const items = finalItems(response, ctx);
  emit('response.created', { response: responseObject(ctx, 'in_progress', [], {}) });
  emit('response.in_progress', { response: responseObject(ctx, 'in_progress', [], {}) });

  let outputIndex = 0;
  if (response.thinking?.length) {
    emitReasoning(emit, { item_id: id.reasoning, output_index: outputIndex }, response.thinking);
    emit('response.output_item.done', { output_index: outputIndex, item: items[outputIndex] });
    outputIndex += 1;
  }
  if (response.text?.length) {
    emitMessage(emit, { item_id: id.message, output_index: outputIndex }, response.text);
    emit('response.output_item.done', { output_index: outputIndex, item: items[outputIndex] });
    outputIndex += 1;
  }
  for (const call of response.toolCalls ?? []) {
    emitToolCall(emit, call, { output_index: outputIndex, item: items[outputIndex] as Record<string, unknown> });
    outputIndex += 1;
  }
  if (resolveStop(response) === 'max_tokens') {
    emit('response.incomplete', {
      response: responseObject(ctx, 'incomplete', items, {
        incomplete_details: { reason: 'max_output_tokens' },
        usage: responsesUsage(response),
      }),
    });
  } else {
    emit('response.completed', {
      response: responseObject(ctx, 'completed', items, { usage: responsesUsage(response) }),
    });
  }
  return frames;
}

/** Where an output item's events point: its id and its place in the response's output. */
interface ItemPlace {
  item_id: string;
  output_index: number;
}

/** A reasoning item's summary, streamed (its output_item.done follows). */
function emitReasoning(emit: Emit, place: ItemPlace, thinking: string[]): void {
  const { item_id, output_index } = place;
  const full = thinking.join('');
  emit('response.output_item.added', { output_index, item: { id: item_id, type: 'reasoning', summary: [] } });
  emit('response.reasoning_summary_part.added', {
    item_id,
    output_index,
    summary_index: 0,
    part: { type: 'summary_text', text: '' },
  });
  for (const delta of thinking) {
    emit('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta });
  }
  emit('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text: full });
  emit('response.reasoning_summary_part.done', {
    item_id,
    output_index,
    summary_index: 0,
    part: { type: 'summary_text', text: full },
  });
}

/** An assistant message's text, streamed delta by delta; the first delta is the stream's first text. */
function emitMessage(emit: Emit, place: ItemPlace, text: string[]): void {
  const { item_id, output_index } = place;
  const full = text.join('');
  emit('response.output_item.added', {
    output_index,
    item: { id: item_id, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
  });
  emit('response.content_part.added', {
    item_id,
    output_index,
    content_index: 0,
    part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
  });
  text.forEach((delta, i) => {
    emit(
      'response.output_text.delta',
      { item_id, output_index, content_index: 0, delta, logprobs: [] },
      i === 0 || undefined,
    );
  });
  emit('response.output_text.done', { item_id, output_index, content_index: 0, text: full, logprobs: [] });
  emit('response.content_part.done', {
    item_id,
    output_index,
    content_index: 0,
    part: { type: 'output_text', text: full, annotations: [], logprobs: [] },
  });
}

/** A function call (or a custom tool call) with its arguments in pieces, then its output_item.done. */
function emitToolCall(
  emit: Emit,
  call: ScriptToolCall,
  place: { output_index: number; item: Record<string, unknown> },
): void {
  const { output_index, item } = place;
  const item_id = item.id;
  const args = argumentsText(call);
  if (isCustomToolCall(call)) {
    emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', input: '' } });
    for (const delta of splitIntoPieces(args, 3)) {
      emit('response.custom_tool_call_input.delta', { item_id, output_index, delta });
    }
    emit('response.custom_tool_call_input.done', { item_id, output_index, input: args });
    emit('response.output_item.done', { output_index, item });
    return;
  }
  emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
  for (const delta of splitIntoPieces(args, 3)) {
    emit('response.function_call_arguments.delta', { item_id, output_index, delta });
  }
  emit('response.function_call_arguments.done', { item_id, output_index, name: call.name, arguments: args });
  emit('response.output_item.done', { output_index, item });
}

/** In-stream failure: an `error` event (the Node SDK throws APIError; Codex fails for lack of response.completed). */
export function openAIResponsesStreamError(sequenceNumber: number): WireFrame {
  return {
    bytes: namedEvent('error', {
      type: 'error',
      sequence_number: sequenceNumber,
      code: 'server_error',
      message: 'The server had an error processing your request. Sorry about that!',
      param: null,
    }),
  };
}

/** stream: false answer (a Response object). */
export function renderOpenAIResponsesJson(response: ModelResponse, ctx: WireRenderContext): unknown {
  const incomplete = resolveStop(response) === 'max_tokens';
  return responseObject(ctx, incomplete ? 'incomplete' : 'completed', finalItems(response, ctx), {
    usage: responsesUsage(response),
    ...(incomplete ? { incomplete_details: { reason: 'max_output_tokens' } } : {}),
  });
}
