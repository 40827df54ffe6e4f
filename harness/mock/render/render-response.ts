// A scripted response in a provider's wire format: streamed frames, or one JSON body.

import type { MockProviderId, ModelResponse } from '../scenario/scenario-types.js';
import { renderAnthropicJson, renderAnthropicStream } from './render-anthropic.js';
import type { WireRenderContext } from './render-context.js';
import { renderGeminiJson, renderGeminiJsonArray, renderGeminiSse } from './render-gemini.js';
import { renderOpenAIChatJson, renderOpenAIChatStream } from './render-openai-chat.js';
import { renderOpenAIResponsesJson, renderOpenAIResponsesStream } from './render-openai-responses.js';
import type { WireFrame } from './wire-frames.js';

export function renderStream(
  provider: MockProviderId,
  response: ModelResponse,
  ctx: WireRenderContext,
  sse: boolean,
): WireFrame[] {
  switch (provider) {
    case 'openai-chat':
      return renderOpenAIChatStream(response, ctx);
    case 'openai-responses':
      return renderOpenAIResponsesStream(response, ctx);
    case 'gemini':
      return sse ? renderGeminiSse(response, ctx) : renderGeminiJsonArray(response, ctx);
    case 'anthropic':
      return renderAnthropicStream(response, ctx);
  }
}

export function renderJson(provider: MockProviderId, response: ModelResponse, ctx: WireRenderContext): unknown {
  switch (provider) {
    case 'openai-chat':
      return renderOpenAIChatJson(response, ctx);
    case 'openai-responses':
      return renderOpenAIResponsesJson(response, ctx);
    case 'gemini':
      return renderGeminiJson(response, ctx);
    case 'anthropic':
      return renderAnthropicJson(response, ctx);
  }
}
