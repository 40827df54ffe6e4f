// Script response -> Chat Completions streaming bytes (https://platform.openai.com/docs/api-reference/chat-streaming).
import type { ModelResponse } from '../scenario/scenario-types.js';
import { providerToolCallId, stableToken } from '../scenario/tool-call-ids.js';
import { resolveStop, resolveUsage, responseKey, type WireRenderContext } from './render-context.js';
import { argumentsText, dataEvent, MOCK_CREATED_AT, splitIntoPieces, type WireFrame } from './wire-frames.js';

const FINISH_REASON = { end_turn: 'stop', tool_use: 'tool_calls', max_tokens: 'length' } as const;

function completionId(ctx: WireRenderContext): string {
  return `chatcmpl-${stableToken(29, 'openai-chat', ctx.scenarioId, responseKey(ctx))}`;
}

/** Usage in Chat Completions terms: prompt_tokens include cached tokens. */
export function chatUsage(response: ModelResponse): Record<string, unknown> {
  const usage = resolveUsage(response);
  const prompt = usage.input_tokens + usage.cache_read_input_tokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.output_tokens,
    total_tokens: prompt + usage.output_tokens,
    prompt_tokens_details: { cached_tokens: usage.cache_read_input_tokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

export function renderOpenAIChatStream(response: ModelResponse, ctx: WireRenderContext): WireFrame[] {
  const base = {
    id: completionId(ctx),
    object: 'chat.completion.chunk',
    created: MOCK_CREATED_AT,
    model: ctx.model,
    service_tier: 'default',
    system_fingerprint: 'fp_yumemock01',
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
    dataEvent({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(ctx.includeUsage ? { usage: null } : {}),
    });

  const frames: WireFrame[] = [];
  const texts = response.text ?? [];
  const calls = response.toolCalls ?? [];
  // The first chunk announces the role; content is "" for text answers and null when only tools follow.
  frames.push({ bytes: chunk({ role: 'assistant', content: texts.length ? '' : null, refusal: null }) });
  for (const [i, text] of texts.entries())
    frames.push({ bytes: chunk({ content: text }), firstText: i === 0 || undefined });
  calls.forEach((call, index) => {
    // id, type and name only on the first fragment of each call; arguments follow in pieces.
    frames.push({
      bytes: chunk({
        tool_calls: [
          {
            index,
            id: providerToolCallId('openai-chat', ctx.scenarioId, call.id),
            type: 'function',
            function: { name: call.name, arguments: '' },
          },
        ],
      }),
    });
    for (const piece of splitIntoPieces(argumentsText(call), 3)) {
      frames.push({ bytes: chunk({ tool_calls: [{ index, function: { arguments: piece } }] }) });
    }
  });
  frames.push({ bytes: chunk({}, FINISH_REASON[resolveStop(response)]) });
  if (ctx.includeUsage) frames.push({ bytes: dataEvent({ ...base, choices: [], usage: chatUsage(response) }) });
  frames.push({ bytes: dataEvent('[DONE]') });
  return frames;
}

/** The in-stream error frame: a data line whose JSON has an `error` member, then the server closes. */
export function openAIChatStreamError(): WireFrame {
  return {
    bytes: dataEvent({
      error: {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
        code: null,
      },
    }),
  };
}

/** stream: false answer (a chat.completion object). */
export function renderOpenAIChatJson(response: ModelResponse, ctx: WireRenderContext): unknown {
  const calls = response.toolCalls ?? [];
  return {
    id: completionId(ctx),
    object: 'chat.completion',
    created: MOCK_CREATED_AT,
    model: ctx.model,
    service_tier: 'default',
    system_fingerprint: 'fp_yumemock01',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: response.text?.length ? response.text.join('') : null,
          refusal: null,
          annotations: [],
          ...(calls.length
            ? {
                tool_calls: calls.map((call) => ({
                  id: providerToolCallId('openai-chat', ctx.scenarioId, call.id),
                  type: 'function',
                  function: { name: call.name, arguments: argumentsText(call) },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: FINISH_REASON[resolveStop(response)],
      },
    ],
    usage: chatUsage(response),
  };
}
