// Gemini `streamGenerateContent?alt=sse` — https://ai.google.dev/api/generate-content
// Function calls usually come without ids: the loop gives them `call_gemini_<n>`; any id Gemini did send is
// kept as the wire id for the functionResponse. Each part's `thoughtSignature` is replayed unchanged.
import type { HistoryEntry, TokenUsage } from '../session/history.js';
import type { ToolSpec } from '../tools/types.js';
import type { GeminiCredentials } from './gemini-auth.js';
import { errorMessageOf } from './http.js';
import { cutOffError, HttpModelProvider, stopReasonFrom, streamError, usageFromPromptTotal } from './model-stream.js';
import {
  type ModelRequest,
  type ModelStreamEvent,
  type ModelToolCall,
  ProviderError,
  type StopReason,
} from './provider.js';
import { parseChunk } from './sse.js';

interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name?: string; args?: Record<string, unknown>; id?: string };
}

interface GeminiChunk {
  error?: { code?: number; message?: string; status?: string };
  candidates?: Array<{ content?: { parts?: GeminiPart[] }; finishReason?: string }>;
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    thoughtsTokenCount?: number;
    cachedContentTokenCount?: number;
  };
}

export function geminiContents(history: readonly HistoryEntry[]): unknown[] {
  const contents: Array<{ role: string; parts: unknown[] }> = [];
  for (const entry of history) {
    if (entry.role === 'user') contents.push({ role: 'user', parts: [{ text: entry.content }] });
    else if (entry.role === 'assistant') {
      const parts: unknown[] = [];
      const ownExtras = entry.provider === undefined || entry.provider.startsWith('gemini');
      if (entry.content) {
        parts.push({
          text: entry.content,
          ...(ownExtras && entry.textSignature ? { thoughtSignature: entry.textSignature } : {}),
        });
      }
      for (const call of entry.toolCalls ?? []) {
        parts.push({
          functionCall: { name: call.name, args: call.input, ...(call.wireId ? { id: call.wireId } : {}) },
          ...(ownExtras && call.signature ? { thoughtSignature: call.signature } : {}),
        });
      }
      if (parts.length > 0) contents.push({ role: 'model', parts });
    } else {
      const part = {
        functionResponse: {
          name: entry.name,
          ...(entry.wireId ? { id: entry.wireId } : {}),
          response: entry.isError ? { error: entry.content } : { output: entry.content },
        },
      };
      // Results of one model turn travel together in a single user turn.
      const last = contents[contents.length - 1];
      const lastIsResponses =
        last?.role === 'user' && last.parts.every((p) => (p as { functionResponse?: unknown }).functionResponse);
      if (lastIsResponses) last.parts.push(part);
      else contents.push({ role: 'user', parts: [part] });
    }
  }
  return contents;
}

const STOP_REASONS: Readonly<Record<string, StopReason>> = { MAX_TOKENS: 'max_tokens', STOP: 'end_turn' };

/** Gemini's Schema is an OpenAPI subset whose `type` values are upper case. */
function geminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(geminiSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' || key === '$schema') continue;
    if (key === 'type' && typeof value === 'string') out[key] = value.toUpperCase();
    else if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, geminiSchema(sub)]));
    } else if (key === 'items') out[key] = geminiSchema(value);
    else out[key] = value;
  }
  return out;
}

export function geminiTools(tools: readonly ToolSpec[]): unknown[] {
  if (tools.length === 0) return [];
  return [
    {
      functionDeclarations: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: geminiSchema(tool.parameters),
      })),
    },
  ];
}

export class GeminiProvider extends HttpModelProvider<{ baseUrl: string; credentials: GeminiCredentials }> {
  readonly generatedIdPrefix = 'call_gemini_';

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const auth = await this.config.credentials.headers(request.signal);
    const stream = this.openStream({
      path: `/v1beta/models/${encodeURIComponent(request.model)}:streamGenerateContent?alt=sse`,
      headers: auth,
      body: {
        contents: geminiContents(request.history),
        systemInstruction: { parts: [{ text: request.system }] },
        tools: geminiTools(request.tools),
      },
      signal: request.signal,
    });

    const message = new CandidateState();
    for await (const item of stream) {
      if (item.kind === 'stray') {
        const value = Array.isArray(item.value) ? item.value[0] : item.value;
        if (!(value as { error?: unknown } | null)?.error) continue;
        throw streamError(this.id, errorMessageOf(JSON.stringify(value)));
      }
      if (!item.data.trim()) continue;
      const chunk = parseChunk(this.id, item.data) as GeminiChunk;
      if (chunk.error) throw streamError(this.id, chunk.error.message ?? item.data);
      if (chunk.promptFeedback?.blockReason) {
        throw new ProviderError(
          'request',
          `${this.id} blocked the prompt (${chunk.promptFeedback.blockReason})${chunk.promptFeedback.blockReasonMessage ? `: ${chunk.promptFeedback.blockReasonMessage}` : ''}`,
        );
      }
      yield* message.apply(chunk);
    }
    const { text, textSignature, thinking, finishReason, usage, calls } = message;
    // Gemini has no end-of-stream sentinel: the finishReason on the last chunk is what proves it whole.
    if (!finishReason) throw cutOffError(this.id, 'without a finishReason');
    if (finishReason === 'MALFORMED_FUNCTION_CALL') {
      throw new ProviderError('stream', `${this.id}: the model produced a malformed function call`);
    }
    const stop: StopReason = calls.length > 0 ? 'tool_use' : stopReasonFrom(finishReason, STOP_REASONS);
    yield {
      type: 'done',
      message: {
        text,
        textSignature,
        thinking: thinking ? [{ text: thinking }] : [],
        toolCalls: calls,
        usage,
        stopReason: stop,
      },
    };
  }
}

/** The first candidate as its chunks build it: text, thoughts, function calls, usage, finish reason. */
class CandidateState {
  text = '';
  textSignature: string | undefined;
  thinking = '';
  finishReason: string | undefined;
  usage: TokenUsage | undefined;
  readonly calls: ModelToolCall[] = [];

  /** Takes one chunk in; returns the text and thinking it shows. */
  apply(chunk: GeminiChunk): ModelStreamEvent[] {
    const shown: ModelStreamEvent[] = [];
    if (chunk.usageMetadata) {
      // Intermediate chunks may carry partial usage; the last one wins (usageMetadata, https://ai.google.dev/api/generate-content).
      const meta = chunk.usageMetadata;
      const output = (meta.candidatesTokenCount ?? 0) + (meta.thoughtsTokenCount ?? 0);
      this.usage = usageFromPromptTotal(meta.promptTokenCount, output, meta.cachedContentTokenCount);
    }
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.functionCall) {
        this.calls.push({
          wireId: part.functionCall.id || undefined,
          name: part.functionCall.name ?? '',
          input: part.functionCall.args ?? {},
          signature: part.thoughtSignature,
        });
      } else if (typeof part.text === 'string') {
        if (part.thought) {
          this.thinking += part.text;
          if (part.text) shown.push({ type: 'thinking', text: part.text });
        } else {
          this.text += part.text;
          if (part.thoughtSignature) this.textSignature = part.thoughtSignature;
          if (part.text) shown.push({ type: 'text', text: part.text });
        }
      } else if (part.thoughtSignature && !this.textSignature) {
        this.textSignature = part.thoughtSignature;
      }
    }
    if (candidate?.finishReason) this.finishReason = candidate.finishReason;
    return shown;
  }
}
