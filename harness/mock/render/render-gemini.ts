// Script response -> Gemini streamGenerateContent (https://ai.google.dev/api/generate-content): data-only SSE
// frames (alt=sse) or the streamed JSON array (no alt=sse). Function calls carry no id; the first one carries a
// thoughtSignature.
import type { ModelResponse } from '../scenario/scenario-types.js';
import { geminiThoughtSignature, stableToken } from '../scenario/tool-call-ids.js';
import { resolveStop, resolveUsage, responseKey, type WireRenderContext } from './render-context.js';
import { dataEvent, type WireFrame } from './wire-frames.js';

/** usageMetadata: promptTokenCount includes cached tokens. */
export function geminiUsage(response: ModelResponse): Record<string, unknown> {
  const usage = resolveUsage(response);
  const prompt = usage.input_tokens + usage.cache_read_input_tokens;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: usage.output_tokens,
    totalTokenCount: prompt + usage.output_tokens,
    ...(usage.cache_read_input_tokens ? { cachedContentTokenCount: usage.cache_read_input_tokens } : {}),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
  };
}

/** The GenerateContentResponse objects of one streamed answer, in order. */
export function geminiChunks(
  response: ModelResponse,
  ctx: WireRenderContext,
): { chunk: Record<string, unknown>; firstText?: boolean }[] {
  const responseId = stableToken(22, 'gemini', ctx.scenarioId, responseKey(ctx));
  const finishReason = resolveStop(response) === 'max_tokens' ? 'MAX_TOKENS' : 'STOP';
  const wrap = (parts: unknown[], last: boolean): Record<string, unknown> => ({
    candidates: [{ content: { role: 'model', parts }, ...(last ? { finishReason } : {}), index: 0 }],
    ...(last ? { usageMetadata: geminiUsage(response) } : {}),
    modelVersion: ctx.model,
    responseId,
  });
  const partsList: { parts: unknown[]; firstText?: boolean }[] = [];
  for (const thought of response.thinking ?? []) partsList.push({ parts: [{ text: thought, thought: true }] });
  for (const [i, text] of (response.text ?? []).entries())
    partsList.push({ parts: [{ text }], firstText: i === 0 || undefined });
  const calls = response.toolCalls ?? [];
  if (calls.length) {
    // Parallel calls arrive whole, together, in one chunk; only the first part carries the signature.
    partsList.push({
      parts: calls.map((call, i) => ({
        functionCall: { name: call.name, args: call.input ?? {} },
        ...(i === 0 ? { thoughtSignature: geminiThoughtSignature(ctx.scenarioId, call.id) } : {}),
      })),
    });
  }
  if (partsList.length === 0) partsList.push({ parts: [{ text: '' }] });
  return partsList.map((entry, i) => ({
    chunk: wrap(entry.parts, i === partsList.length - 1),
    firstText: entry.firstText,
  }));
}

export function renderGeminiSse(response: ModelResponse, ctx: WireRenderContext): WireFrame[] {
  return geminiChunks(response, ctx).map(({ chunk, firstText }) => ({ bytes: dataEvent(chunk), firstText }));
}

/** Without alt=sse: one JSON array whose elements are written as they are produced. */
export function renderGeminiJsonArray(response: ModelResponse, ctx: WireRenderContext): WireFrame[] {
  const chunks = geminiChunks(response, ctx);
  return [
    ...chunks.map(({ chunk, firstText }, i) => ({
      bytes: `${i === 0 ? '[' : '\n,\r\n'}${JSON.stringify(chunk, null, 2)}`,
      firstText,
    })),
    { bytes: '\n]' },
  ];
}

/** In-stream failure: a bare google.rpc error object written as its own chunk (the JS SDK checks each chunk). */
export function geminiStreamError(): WireFrame {
  return {
    bytes: JSON.stringify({ error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' } }),
    atomic: true,
  };
}

/** :generateContent answer: the chunks merged into one response. */
export function renderGeminiJson(response: ModelResponse, ctx: WireRenderContext): unknown {
  const chunks = geminiChunks(response, ctx).map((c) => c.chunk);
  const last = chunks[chunks.length - 1] as Record<string, unknown>;
  const parts: unknown[] = [];
  const thought = (response.thinking ?? []).join('');
  if (thought) parts.push({ text: thought, thought: true });
  const text = (response.text ?? []).join('');
  if (text) parts.push({ text });
  const calls = response.toolCalls ?? [];
  for (const [i, call] of calls.entries()) {
    parts.push({
      functionCall: { name: call.name, args: call.input ?? {} },
      ...(i === 0 ? { thoughtSignature: geminiThoughtSignature(ctx.scenarioId, call.id) } : {}),
    });
  }
  const candidate = (last.candidates as Record<string, unknown>[])[0] as Record<string, unknown>;
  return {
    ...last,
    candidates: [{ ...candidate, content: { role: 'model', parts: parts.length ? parts : [{ text: '' }] } }],
  };
}
