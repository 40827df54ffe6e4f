// One streaming POST to a provider, with its failures classified as R5 needs them (providers/provider.ts).

import { messageOf } from '../../common/errors.js';
import { withoutTrailingSlashes } from '../text/plain-match.js';
import type { InterruptSignal } from '../tools/interrupt.js';
import { ProviderError } from './provider.js';
import { postJson, type StreamingResponse, TransportError } from './transport.js';

/** Statuses worth another attempt (R5 names 429/500/503; the others are their usual companions). */
const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504, 529]);
const MAX_ERROR_BODY_CHARS = 4000;

export interface PostOptions {
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: InterruptSignal;
}

export async function postForStream(options: PostOptions): Promise<StreamingResponse> {
  let response: StreamingResponse;
  try {
    response = await postJson(
      options.url,
      { 'content-type': 'application/json', accept: 'text/event-stream', ...options.headers },
      options.body,
      options.signal,
    );
  } catch (error) {
    if (options.signal.aborted || (error instanceof TransportError && error.aborted)) {
      throw new ProviderError('aborted', 'request aborted');
    }
    // Refused or reset connections are transient as far as the caller can tell: retry them (bounded).
    throw new ProviderError(
      'retryable',
      `${options.provider}: cannot reach ${options.url} (${messageOf(error)})`,
      {},
      { cause: error },
    );
  }
  if (response.status >= 200 && response.status < 300) return response;

  const bodyText = await readErrorBody(response, options.signal);
  const message = `${options.provider} API error ${response.status}: ${errorMessageOf(bodyText)}`;
  if (response.status === 401 || response.status === 403) {
    throw new ProviderError('auth', `${message} (check the API key or login for --provider ${options.provider})`, {
      status: response.status,
    });
  }
  if (RETRYABLE_STATUSES.has(response.status)) {
    throw new ProviderError('retryable', message, {
      status: response.status,
      retryAfterMs: retryAfterMs((name) => response.header(name), bodyText),
    });
  }
  const code = errorCodeOf(bodyText);
  throw new ProviderError('request', message, {
    status: response.status,
    ...(code ? { code } : {}),
    ...(isContextOverflow(response.status, code, message) ? { contextOverflow: true } : {}),
  });
}

/**
 * Whether a refusal says the request is over the model's context window, as each API words it: OpenAI's
 * `context_length_exceeded` code, Anthropic's "prompt is too long", Gemini's "exceeds the maximum number of
 * tokens" (docs/protocol.md#r21-compaction).
 */
export function isContextOverflow(status: number, code: string | undefined, message: string): boolean {
  if (status !== 400 && status !== 413) return false;
  if (code === 'context_length_exceeded') return true;
  return /prompt is too long|exceeds the maximum number of tokens|maximum context length|exceeds the context window/i.test(
    message,
  );
}

/** The provider's own error code (OpenAI's `error.code`), if the body has one. */
function errorCodeOf(bodyText: string): string | undefined {
  try {
    const error = (JSON.parse(bodyText) as { error?: { code?: unknown } })?.error;
    return typeof error?.code === 'string' ? error.code : undefined;
  } catch {
    return undefined;
  }
}

async function readErrorBody(response: StreamingResponse, signal: InterruptSignal): Promise<string> {
  try {
    return (await response.text(MAX_ERROR_BODY_CHARS * 4)).slice(0, MAX_ERROR_BODY_CHARS);
  } catch {
    if (signal.aborted) throw new ProviderError('aborted', 'request aborted');
    return '';
  }
}

/** The human-readable part of the providers' error envelopes (OpenAI, Anthropic and Google all use error.message). */
export function errorMessageOf(bodyText: string): string {
  try {
    const parsed = JSON.parse(bodyText) as unknown;
    const candidate = Array.isArray(parsed) ? parsed[0] : parsed;
    const error = (candidate as { error?: unknown })?.error;
    if (typeof error === 'string') return error;
    const message = (error as { message?: unknown })?.message;
    if (typeof message === 'string' && message) return message;
    const topMessage = (candidate as { message?: unknown })?.message;
    if (typeof topMessage === 'string' && topMessage) return topMessage;
  } catch {
    // not JSON: fall through to the raw text
  }
  const trimmed = bodyText.trim();
  return trimmed ? trimmed.slice(0, 500) : '(empty response body)';
}

/**
 * How long the server asked us to wait: `retry-after-ms`, then `retry-after` (seconds or an HTTP date),
 * then Google's RetryInfo `retryDelay` ("30s") in the body. undefined when the server said nothing.
 */
export function retryAfterMs(header: (name: string) => string | undefined | null, bodyText = ''): number | undefined {
  const ms = header('retry-after-ms');
  if (ms !== undefined && ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)))
    return Math.max(0, Number(ms));
  const after = header('retry-after');
  if (after !== undefined && after !== null && after.trim() !== '') {
    if (Number.isFinite(Number(after))) return Math.max(0, Number(after) * 1000);
    const date = Date.parse(after);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  const delay = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(bodyText);
  if (delay) return Number(delay[1]) * 1000;
  return undefined;
}

/** Joins a base URL and a path without doubling the version segment the base may already carry. */
export function joinUrl(base: string, path: string): string {
  const trimmed = withoutTrailingSlashes(base);
  const versionPrefix = path.startsWith('/v1beta/') ? 'v1beta' : path.startsWith('/v1/') ? 'v1' : undefined;
  if (versionPrefix && trimmed.endsWith(`/${versionPrefix}`)) return trimmed + path.slice(versionPrefix.length + 1);
  return trimmed + path;
}
