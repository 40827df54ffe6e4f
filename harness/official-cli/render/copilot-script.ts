// The script as copilot meets it against the suite's mock (what the real-CLI mode and the captures show): one
// scripted response per request; a broken stream (cut, malformed, an in-stream error) is answered once more, as
// the mock replays it to a retry; past the script, the mock's 400. And how often copilot sends a failed call again:
// 5 times after 429, 5xx and a broken stream, twice after 401, never after 400, 403 or 404; and what it
// says of a call that failed for good (`model.call_final_result`, `session.error`).
import { contextOverflowReply, providerErrorReply, unscriptedReply } from '../../mock/render/error-bodies.js';
import { renderAnthropicStream } from '../../mock/render/render-anthropic.js';
import { buildStreamPlan } from '../../mock/render/stream-plan.js';
import { type ModelFailure, scriptedFailure } from '../script-playback.js';
import type { ScriptResponse } from '../script-types.js';

/** How many times copilot sends a failed call again, by what failed. */
export function retriesAfter(failure: ModelFailure): number {
  if (failure.kind !== 'http' || failure.status === 429 || failure.status >= 500) return 5;
  return failure.status === 401 ? 2 : 0;
}

/** The script as copilot meets it against the suite's mock: a broken stream replayed once, then the mock's 400. */
export class CopilotCursor {
  private readonly queue: ScriptResponse[];
  private position = 0;
  private replayed = false;

  constructor(responses: readonly ScriptResponse[]) {
    this.queue = responses.flatMap((response) =>
      Array.from({ length: Math.max(1, response.repeat ?? 1) }, () => response),
    );
  }

  next(): ScriptResponse | 'unscripted' {
    const response = this.queue[this.position];
    if (response) {
      this.position += 1;
      return response;
    }
    const last = this.queue.at(-1);
    const broken =
      last?.fault?.kind === 'cut' || last?.fault?.kind === 'malformed' || last?.fault?.kind === 'mid-stream-error';
    if (broken && !this.replayed) {
      this.replayed = true;
      return last!;
    }
    return 'unscripted';
  }
}

export function failureOf(response: ScriptResponse | 'unscripted'): ModelFailure | undefined {
  if (response === 'unscripted') return { kind: 'http', status: 400, unscripted: true };
  return scriptedFailure(response);
}

/** The `reason` of copilot's retry notice. */
export function retryReason(failure: ModelFailure): string {
  if (failure.kind !== 'http') return 'streaming_error';
  if (failure.status === 429) return 'rate_limit';
  return failure.status === 401 ? 'transient_auth_error' : 'api_error';
}

/** A call that met an HTTP error, as copilot's mock provider would have answered it. */
export interface CallError {
  status?: number;
  body?: { type?: string; error?: { type: string; message: string }; request_id?: string };
  text: string;
}

/** How copilot's failed call met the mock: its status and body, and the words of `model.call_failure`. */
export function callErrorOf(
  failure: ModelFailure,
  context: { model: string; turnIndex: number; scripted: number },
): CallError {
  if (failure.kind === 'malformed')
    return { text: JSON.stringify(malformedStreamMessage(failure.response, context.model)) };
  if (failure.kind !== 'http')
    return {
      text: '"Failed native model HTTP request: error decoding response body: error reading a body from connection: unexpected EOF during chunk size line"',
    };
  const reply =
    failure.status === 400 && failure.unscripted
      ? unscriptedReply('anthropic', context.turnIndex, context.scripted)
      : failure.overflow
        ? contextOverflowReply('anthropic', context.model)
        : providerErrorReply('anthropic', failure.status, {
            model: context.model,
            retryAfter: failure.retryAfter,
            ...(failure.message === undefined ? {} : { message: failure.message }),
          });
  const body = reply.body as CallError['body'];
  return { status: failure.status, body, text: JSON.stringify(body?.error ?? body) };
}

/**
 * copilot's words for the mock's malformed chunk (the JSON of the event after the first text cut in half): its
 * Rust JSON parser's "EOF while parsing ..." at the column where the cut JSON ends.
 */
function malformedStreamMessage(response: ScriptResponse, model: string): string {
  const context = { scenarioId: 'copilot', model, turn: 0, responseIndex: 0, attempt: 0 };
  const plan = buildStreamPlan('anthropic', renderAnthropicStream(response, context), response);
  const broken =
    plan.steps
      .flatMap((step) => (step.kind === 'bytes' ? [...step.bytes.matchAll(/^data: (.*)$/gm)].map((m) => m[1]!) : []))
      .find((json) => {
        try {
          JSON.parse(json);
          return false;
        } catch {
          return true;
        }
      }) ?? '';
  return `Failed to accumulate Anthropic message stream event: Failed to parse Anthropic message stream event: EOF while parsing ${eofContext(broken)} at line 1 column ${broken.length}`;
}

/** What serde_json was parsing when the text ran out: a string, a value after `:` or `,`, or an object or list. */
function eofContext(json: string): string {
  const open: string[] = [];
  let inString = false;
  let last = '';
  for (let index = 0; index < json.length; index += 1) {
    const char = json[index]!;
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
      last = '"';
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') open.push(char);
    else if (char === '}' || char === ']') open.pop();
    if (char.trim() !== '') last = char;
  }
  if (inString) return 'a string';
  if (last === ':' || last === ',' || last === '[') return 'a value';
  return open.at(-1) === '[' ? 'a list' : 'an object';
}

/** What a request that met a 4xx looked like, as copilot describes it (a prompt-only first request). */
const FAILED_REQUEST = {
  messageCount: 3,
  toolResultMessageCount: 0,
  toolCallCount: 0,
  namelessToolCallCount: 0,
  customToolCallCount: 0,
  unmatchedToolResultCount: 0,
  orphanToolCallCount: 0,
  imagePartCount: 0,
  imagePartsMissingMediaType: 0,
  imageBytes: 0,
  reasoningItemCount: 0,
  encryptedContentBytes: 0,
  lastMessageRole: 'user',
};

/** The fields copilot adds to `model.call_failure` for a 4xx: the request that met it, and for a 400 its kind. */
export function clientErrorFields(status: number | undefined): Record<string, unknown> {
  if (status === undefined || status < 400 || status >= 500) return {};
  return { ...(status === 400 ? { badRequestKind: 'structured_error' } : {}), requestFingerprint: FAILED_REQUEST };
}

/** What `model.call_final_result` says of a call that failed. */
export function finalResultOf(error: CallError): string {
  const status = error.status;
  if (status === undefined) return 'transport_error';
  if (status === 400 || status === 429) return `http_${status}`;
  return status >= 500 ? 'http_5xx' : 'http_4xx';
}

/** The words of copilot's `session.error` for a call that failed, after `retries` retries. */
export function sessionErrorOf(
  error: CallError,
  context: { base: string; model: string; retries: number; waitedSeconds: number },
): { errorType: string; message: string } {
  const status = error.status;
  if (status === 401 || status === 403)
    return {
      errorType: 'authentication',
      message: `Authentication failed with provider at ${context.base} (HTTP ${status}).\n  Check your COPILOT_PROVIDER_API_KEY, COPILOT_PROVIDER_API_KEY_COMMAND, or COPILOT_PROVIDER_BEARER_TOKEN.`,
    };
  const errorType = status === 429 ? 'rate_limit' : 'query';
  if (status === 404)
    return {
      errorType,
      message: `Model '${context.model}' not found on provider at ${context.base} (HTTP 404).\n  Check that the model is available on your provider.`,
    };
  const last = `${status ?? ''} ${error.body?.error?.message ?? error.text}`.trim();
  // A call that failed for good without being retryable (the mock's 400 after retried broken streams) is itself.
  const retryable = status === undefined || status === 429 || status >= 500;
  if (context.retries === 0 || !retryable) return { errorType, message: last };
  const id = error.body?.request_id ? ` (Request-ID ${error.body.request_id})` : '';
  return {
    errorType,
    message: `Failed to get response from the AI model; retried ${context.retries} times (total retry wait time: ${context.waitedSeconds.toFixed(2)} seconds)${id} Last error: ${last}`,
  };
}
