// What the four HTTP model providers (openai-chat, openai-responses, anthropic, gemini) do alike around their own
// wire formats: open the streamed request, read it as SSE, and word the failures and usage figures the same way,
// so the turn runner sees one shape of error and usage whichever provider produced them.
import type { TokenUsage } from '../session/history.js';
import type { InterruptSignal } from '../tools/interrupt.js';
import { joinUrl, postForStream } from './http.js';
import {
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
  ProviderError,
  type StopReason,
} from './provider.js';
import { readSse, type SseItem } from './sse.js';

export interface ModelStreamRequest {
  /** Endpoint path below the configured base URL (joinUrl drops a version segment the base already has). */
  path: string;
  headers: Record<string, string>;
  body: unknown;
  signal: InterruptSignal;
}

/** A ModelProvider speaking to an HTTP API: the --provider id, its settings, and how it opens a streamed request. */
export abstract class HttpModelProvider<Config extends { baseUrl: string }> implements ModelProvider {
  readonly kind = 'model' as const;
  abstract readonly generatedIdPrefix: string;

  constructor(
    readonly id: string,
    protected readonly config: Config,
  ) {}

  abstract stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;

  /** POSTs the request and yields its SSE items; HTTP and connection failures surface as postForStream classifies them. */
  protected async *openStream(request: ModelStreamRequest): AsyncGenerator<SseItem> {
    const { path, ...post } = request;
    const response = await postForStream({ provider: this.id, url: joinUrl(this.config.baseUrl, path), ...post });
    yield* readSse(response, this.id, request.signal);
  }
}

/** `authorization: Bearer <key>` when there is a key; keyless (local) servers get no header at all. */
export function bearerAuth(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

/** The start of an event's raw data, for error messages when the provider's error carries no message. */
export function rawExcerpt(data: string): string {
  return data.slice(0, 200);
}

/** An error the provider reported inside an open stream (R5: printed as `error` plus an error result). */
export function streamError(provider: string, detail: string, code?: string): ProviderError {
  return new ProviderError('stream', `${provider} stream error: ${detail}`, code === undefined ? {} : { code });
}

/** The stream closed without the marker that proves the answer whole, e.g. `before [DONE]`. */
export function cutOffError(provider: string, missingEnd: string): ProviderError {
  return new ProviderError('stream', `${provider}: the stream ended ${missingEnd} (cut off)`);
}

/**
 * Usage from an API whose prompt count includes cache reads (OpenAI, Gemini): the shim reports Claude-style
 * figures, where input tokens exclude them.
 */
export function usageFromPromptTotal(
  promptTokens: number | undefined,
  outputTokens: number,
  cachedTokens: number | undefined,
): TokenUsage {
  const cached = cachedTokens ?? 0;
  return {
    inputTokens: Math.max(0, (promptTokens ?? 0) - cached),
    outputTokens,
    ...(cached ? { cacheReadTokens: cached } : {}),
  };
}

/** Maps a provider's finish / stop reason through its table; anything unlisted (or absent) is 'other'. */
export function stopReasonFrom(
  reason: string | null | undefined,
  table: Readonly<Record<string, StopReason>>,
): StopReason {
  return reason && Object.hasOwn(table, reason) ? table[reason]! : 'other';
}
