// Plays a turn's scripted model responses the way an official CLI meets them: one response per provider
// request, in order (`repeat` answers that many consecutive requests), with the CLI's own retry budget
// for HTTP 429/5xx. Stream faults (cut, malformed chunk, mid-stream error) are not retried, so a
// scenario that scripts one fails as R5 expects without needing a second scripted response.
import { contextOverflowMessage } from '../mock/render/error-bodies.js';
import { resolveUsage } from '../mock/render/render-context.js';
import type { MockProviderId, ModelResponse } from '../mock/scenario/scenario-types.js';
import type { ScriptFault, ScriptResponse, ScriptUsage } from './script-types.js';

/**
 * An HTTP error answer. `overflow`: the request was over the model's context window (HTTP 400,
 * docs/protocol.md#r21-compaction); `message`: what the scenario has the provider say instead of its default.
 */
export interface HttpFailure {
  kind: 'http';
  status: number;
  retryAfter?: number;
  overflow?: true;
  message?: string;
  /** The mock's 400 for a request its script has no answer for (copilot meets it after a retry). */
  unscripted?: boolean;
}

/** What a provider request ended with, when it did not deliver a usable response. */
export type ModelFailure = HttpFailure | { kind: 'cut' | 'malformed' | 'mid-stream-error'; response: ScriptResponse };

export type ModelCall =
  | { kind: 'ok'; response: ScriptResponse; retried: ModelFailure[] }
  | { kind: 'failed'; failure: ModelFailure; retried: ModelFailure[] };

/** When the script has no answer left, the mock answers "Done." (as the capture mock did). */
export const SCRIPT_EXHAUSTED_RESPONSE: ScriptResponse = { text: ['Done.'], stop: 'end_turn' };

export class ScriptCursor {
  private readonly queue: ScriptResponse[];
  private position = 0;
  /** Provider requests made so far (1-based number of the last one). */
  requests = 0;

  constructor(responses: readonly ScriptResponse[]) {
    this.queue = responses.flatMap((response) =>
      Array.from({ length: Math.max(1, response.repeat ?? 1) }, () => response),
    );
  }

  private next(): ScriptResponse {
    this.requests += 1;
    const response = this.queue[this.position];
    this.position += 1;
    return response ?? SCRIPT_EXHAUSTED_RESPONSE;
  }

  /** One model call: up to `maxAttempts` requests while the failures are retryable. */
  call(maxAttempts: number): ModelCall {
    const retried: ModelFailure[] = [];
    for (let attempt = 1; ; attempt += 1) {
      const response = this.next();
      const failure = scriptedFailure(response);
      if (!failure) return { kind: 'ok', response, retried };
      if (!isRetryable(failure) || attempt >= maxAttempts) return { kind: 'failed', failure, retried };
      retried.push(failure);
    }
  }
}

/** The failure a scripted response plays, if any (a drip is no failure). */
export function scriptedFailure(response: ScriptResponse): ModelFailure | undefined {
  const fault: ScriptFault | undefined = response.fault;
  if (!fault || fault.kind === 'drip') return undefined;
  if (fault.kind === 'http')
    return {
      kind: 'http',
      status: fault.status,
      retryAfter: fault.retryAfter,
      ...(fault.message === undefined ? {} : { message: fault.message }),
    };
  if (fault.kind === 'context-overflow') return { kind: 'http', status: 400, overflow: true };
  return { kind: fault.kind, response };
}

export function isRetryable(failure: ModelFailure): boolean {
  return failure.kind === 'http' && (failure.status === 429 || failure.status === 408 || failure.status >= 500);
}

/** The gap between text chunks a `drip` fault asks for. */
export function dripGapMs(response: ScriptResponse): number {
  return response.fault?.kind === 'drip' ? Math.max(0, response.fault.gapMs) : 0;
}

/**
 * The usage the provider reported for a response: the mock's own rule (scripted, else its deterministic
 * estimate), so a CLI provider reports the same totals as the REST providers of the same scenario.
 */
export function usageOf(response: ScriptResponse): ScriptUsage {
  return resolveUsage(response as ModelResponse);
}

export interface UsageTotals {
  input: number;
  output: number;
  cached: number;
}

export function addUsage(totals: UsageTotals, usage: ScriptUsage | undefined): void {
  if (!usage) return;
  totals.input += usage.input_tokens;
  totals.output += usage.output_tokens;
  totals.cached += usage.cache_read_input_tokens ?? 0;
}

/** Provider wording of an HTTP error body, as the CLIs quote it. */
export function httpErrorMessage(status: number): string {
  return `Mock ${status} error`;
}

/**
 * The message of an HTTP error body as `provider`'s mock words it: the scenario's own, the API's context-overflow
 * wording, else the mock's default.
 */
export function providerErrorMessage(failure: HttpFailure, provider: MockProviderId): string {
  if (failure.message !== undefined) return failure.message;
  if (failure.overflow) return contextOverflowMessage(provider);
  return httpErrorMessage(failure.status);
}

export function httpReason(status: number): string {
  const reasons: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    408: 'Request Timeout',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
    504: 'Gateway Timeout',
  };
  return reasons[status] ?? 'Error';
}
