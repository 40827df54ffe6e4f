// Each provider's real HTTP error envelopes, so that an SDK or a shim sees exactly the error class and fields the
// real API would produce (https://platform.openai.com/docs/guides/error-codes,
// https://docs.anthropic.com/en/api/errors, https://ai.google.dev/gemini-api/docs/troubleshooting).
import type { MockProviderId } from '../scenario/scenario-types.js';
import { stableToken } from '../scenario/tool-call-ids.js';

export interface HttpErrorReply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Statuses the SDKs retry; they get `retry-after` (0 s unless the script says otherwise). */
const RETRYABLE = new Set([408, 409, 429, 500, 502, 503, 504, 529]);

const OPENAI: Record<number, { type: string; code: string | null; message: (model: string) => string }> = {
  400: {
    type: 'invalid_request_error',
    code: 'invalid_value',
    message: () => "Invalid value for 'messages': the request could not be processed.",
  },
  401: {
    type: 'invalid_request_error',
    code: 'invalid_api_key',
    message: () =>
      'Incorrect API key provided: sk-yume-***-dummy. You can find your API key at https://platform.openai.com/account/api-keys.',
  },
  403: {
    type: 'invalid_request_error',
    code: 'unsupported_country_region_territory',
    message: () => 'Country, region, or territory not supported',
  },
  404: {
    type: 'invalid_request_error',
    code: 'model_not_found',
    message: (model) => `The model \`${model}\` does not exist or you do not have access to it.`,
  },
  408: { type: 'server_error', code: null, message: () => 'Request timed out.' },
  409: { type: 'server_error', code: null, message: () => 'The request conflicted with another request.' },
  413: { type: 'invalid_request_error', code: 'request_too_large', message: () => 'Request too large.' },
  422: { type: 'invalid_request_error', code: null, message: () => 'Unprocessable request.' },
  429: {
    type: 'requests',
    code: 'rate_limit_exceeded',
    message: (model) =>
      `Rate limit reached for ${model} on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.`,
  },
  500: {
    type: 'server_error',
    code: null,
    message: () => 'The server had an error while processing your request. Sorry about that!',
  },
  502: { type: 'server_error', code: null, message: () => 'Bad gateway.' },
  503: {
    type: 'server_error',
    code: null,
    message: () => 'The engine is currently overloaded, please try again later',
  },
  504: { type: 'server_error', code: null, message: () => 'Gateway timeout.' },
  529: {
    type: 'server_error',
    code: null,
    message: () => 'The engine is currently overloaded, please try again later',
  },
};

const ANTHROPIC: Record<number, { type: string; message: (model: string) => string }> = {
  400: { type: 'invalid_request_error', message: () => 'messages: the request could not be processed' },
  401: { type: 'authentication_error', message: () => 'invalid x-api-key' },
  403: {
    type: 'permission_error',
    message: () => 'Your API key does not have permission to use the specified resource.',
  },
  404: { type: 'not_found_error', message: (model) => `model: ${model}` },
  408: { type: 'timeout_error', message: () => 'Request timed out' },
  409: { type: 'invalid_request_error', message: () => 'Conflict' },
  413: { type: 'request_too_large', message: () => 'Request exceeds the maximum allowed number of bytes.' },
  422: { type: 'invalid_request_error', message: () => 'Unprocessable request' },
  429: { type: 'rate_limit_error', message: () => 'Number of request tokens has exceeded your per-minute rate limit' },
  500: { type: 'api_error', message: () => 'Internal server error' },
  502: { type: 'api_error', message: () => 'Bad gateway' },
  503: { type: 'api_error', message: () => 'Service unavailable' },
  504: { type: 'timeout_error', message: () => 'Gateway timeout' },
  529: { type: 'overloaded_error', message: () => 'Overloaded' },
};

const GEMINI: Record<number, { status: string; message: (model: string) => string; details?: unknown[] }> = {
  400: { status: 'INVALID_ARGUMENT', message: () => 'Request contains an invalid argument.' },
  401: {
    status: 'UNAUTHENTICATED',
    message: () =>
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'ACCESS_TOKEN_TYPE_UNSUPPORTED',
        domain: 'googleapis.com',
      },
    ],
  },
  403: {
    status: 'PERMISSION_DENIED',
    message: () =>
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
  },
  404: {
    status: 'NOT_FOUND',
    message: (model) =>
      `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
  },
  408: { status: 'DEADLINE_EXCEEDED', message: () => 'Deadline expired before operation could complete.' },
  409: { status: 'ABORTED', message: () => 'The operation was aborted.' },
  413: { status: 'INVALID_ARGUMENT', message: () => 'Request payload size exceeds the limit.' },
  422: { status: 'INVALID_ARGUMENT', message: () => 'Request contains an invalid argument.' },
  429: {
    status: 'RESOURCE_EXHAUSTED',
    message: () => 'Resource has been exhausted (e.g. check quota).',
    details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0s' }],
  },
  500: {
    status: 'INTERNAL',
    message: () =>
      'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  },
  502: { status: 'UNAVAILABLE', message: () => 'Bad gateway.' },
  503: { status: 'UNAVAILABLE', message: () => 'The model is overloaded. Please try again later.' },
  504: { status: 'DEADLINE_EXCEEDED', message: () => 'Deadline expired before operation could complete.' },
  529: { status: 'UNAVAILABLE', message: () => 'The model is overloaded. Please try again later.' },
};

export interface ErrorOptions {
  model?: string;
  /** Replaces the default message. */
  message?: string;
  /** Seconds for `retry-after`; default 0 on retryable statuses, none otherwise. */
  retryAfter?: number;
  /** Gemini: google.rpc details to use instead of the default ones. */
  details?: unknown[];
  /** OpenAI: the error's `code` and `param` instead of the status's defaults. */
  code?: string | null;
  param?: string | null;
}

/** The reply a provider sends for `status`, with its headers (`retry-after`, request ids). */
export function providerErrorReply(
  provider: MockProviderId,
  status: number,
  options: ErrorOptions = {},
): HttpErrorReply {
  const model = options.model ?? 'unknown-model';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const retryAfter = options.retryAfter ?? (RETRYABLE.has(status) ? 0 : undefined);
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
  const requestId = stableToken(24, provider, String(status), options.message ?? '');
  switch (provider) {
    case 'openai-chat':
    case 'openai-responses': {
      const entry = OPENAI[status] ?? OPENAI[500]!;
      headers['x-request-id'] = `req_${requestId}`;
      return {
        status,
        headers,
        body: {
          error: {
            message: options.message ?? entry.message(model),
            type: entry.type,
            param: options.param ?? null,
            code: options.code === undefined ? entry.code : options.code,
          },
        },
      };
    }
    case 'anthropic': {
      const entry = ANTHROPIC[status] ?? ANTHROPIC[500]!;
      headers['request-id'] = `req_011${requestId}`;
      return {
        status,
        headers,
        body: {
          type: 'error',
          error: { type: entry.type, message: options.message ?? entry.message(model) },
          request_id: `req_011${requestId}`,
        },
      };
    }
    case 'gemini': {
      const entry = GEMINI[status] ?? GEMINI[500]!;
      const details = options.details ?? entry.details;
      if (status === 429 && retryAfter !== undefined && !options.details) {
        const retryDetails = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfter}s` }];
        return {
          status,
          headers,
          body: {
            error: {
              code: status,
              message: options.message ?? entry.message(model),
              status: entry.status,
              details: retryDetails,
            },
          },
        };
      }
      return {
        status,
        headers,
        body: {
          error: {
            code: status,
            message: options.message ?? entry.message(model),
            status: entry.status,
            ...(details ? { details } : {}),
          },
        },
      };
    }
  }
}

export type AuthFailure = 'missing-key' | 'invalid-key' | 'missing-version';

/** What each API answers when the credentials are missing or wrong (before looking at the body). */
export function authErrorReply(provider: MockProviderId, failure: AuthFailure): HttpErrorReply {
  switch (provider) {
    case 'openai-chat':
    case 'openai-responses':
      return failure === 'missing-key'
        ? providerErrorReply(provider, 401, {
            message:
              "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
          })
        : providerErrorReply(provider, 401);
    case 'anthropic':
      if (failure === 'missing-version')
        return providerErrorReply(provider, 400, { message: 'anthropic-version: header is required' });
      return providerErrorReply(provider, 401, {
        message: failure === 'missing-key' ? 'x-api-key header is required' : 'invalid x-api-key',
      });
    case 'gemini':
      // Gemini answers a missing key with 403 and a wrong key with 400 API_KEY_INVALID.
      return failure === 'missing-key'
        ? providerErrorReply(provider, 403)
        : providerErrorReply(provider, 400, {
            message: 'API key not valid. Please pass a valid API key.',
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                reason: 'API_KEY_INVALID',
                domain: 'googleapis.com',
                metadata: { service: 'generativelanguage.googleapis.com' },
              },
            ],
          });
  }
}

/** Gemini's answer to a Bearer token it does not accept (a wrong gcloud token). */
export function geminiInvalidTokenReply(): HttpErrorReply {
  return providerErrorReply('gemini', 401);
}

/** D1: a request that does not declare a tool the script calls gets the provider's 400, naming the tool. */
export function toolsNotDeclaredReply(provider: MockProviderId, missing: string[], declared: string[]): HttpErrorReply {
  const message = `yume-conformance mock: the request does not declare the tool(s) ${missing.map((name) => `"${name}"`).join(', ')} that the scenario calls; declared: ${declared.length ? declared.join(', ') : '(none)'}. Declare the app's tool names (decision D1).`;
  return providerErrorReply(provider, 400, { message });
}

/** A request beyond what the script answers (a loop, or more retries than scripted). */
export function unscriptedReply(provider: MockProviderId, turn: number, served: number): HttpErrorReply {
  const message = `yume-conformance mock: turn ${turn + 1} scripts ${served} response(s) and all were used; this request was not expected.`;
  return providerErrorReply(provider, 400, { message });
}

/** The prompt size a context-overflow answer quotes: over every provider's window. */
const OVERFLOW_TOKENS = 1_212_345;

/**
 * The message each API gives when a request is over the model's context window, as the real ones word it: the
 * words a shim matches to compact on its own (docs/protocol.md#r21-compaction) and quotes when it does not.
 */
export function contextOverflowMessage(provider: MockProviderId): string {
  switch (provider) {
    case 'openai-chat':
      return `This model's maximum context length is 1047576 tokens. However, your messages resulted in ${OVERFLOW_TOKENS} tokens. Please reduce the length of the messages.`;
    case 'openai-responses':
      return 'Your input exceeds the context window of this model. Please adjust your input and try again.';
    case 'anthropic':
      return `prompt is too long: ${OVERFLOW_TOKENS} tokens > 200000 maximum`;
    case 'gemini':
      return `The input token count (${OVERFLOW_TOKENS}) exceeds the maximum number of tokens allowed (1048576).`;
  }
}

/** HTTP 400 with the provider's real context-overflow body (OpenAI's carries `code: context_length_exceeded`). */
export function contextOverflowReply(provider: MockProviderId, model: string): HttpErrorReply {
  const message = contextOverflowMessage(provider);
  if (provider === 'openai-chat' || provider === 'openai-responses') {
    const param = provider === 'openai-chat' ? 'messages' : 'input';
    return providerErrorReply(provider, 400, { model, message, code: 'context_length_exceeded', param });
  }
  return providerErrorReply(provider, 400, { model, message });
}
