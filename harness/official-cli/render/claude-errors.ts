// The API errors Claude Code 2.1 reports for a failed model call, worded as in the captures: the text of its
// synthetic assistant message and result, and the error, status and type fields that go with it.
import { httpErrorMessage, type ModelFailure, providerErrorMessage } from '../script-playback.js';
import type { ClaudeApiError } from './claude-shapes.js';

/** The error claude reports for a failed model call (HTTP status, or a connection that broke). */
export function claudeApiError(failure: ModelFailure): ClaudeApiError {
  if (failure.kind !== 'http')
    return { text: 'API Error: Connection error.', error: 'unknown', status: null, type: 'connection_error' };
  const status = failure.status;
  // A request over the context window that claude could not compact its way out of (8b-overflow-twice).
  if (failure.overflow)
    return {
      text: 'Prompt is too long',
      error: 'invalid_request',
      status,
      type: 'invalid_request_error',
      terminalReason: 'prompt_too_long',
    };
  if (status === 429)
    return {
      text: `API Error: Request rejected (429) · ${httpErrorMessage(429)}`,
      error: 'rate_limit',
      status,
      type: 'rate_limit_error',
    };
  if (status === 401 || status === 403) {
    return {
      text: `API Error: ${status} ${httpErrorMessage(status)} · Please run /login`,
      error: 'authentication_failed',
      status,
      type: 'authentication_error',
    };
  }
  if (status >= 500) {
    return {
      text: `API Error: ${status} ${httpErrorMessage(status)}. This is a server-side issue, usually temporary — try again in a moment. If it persists, check your inference gateway (${gatewayHost()}).`,
      error: 'server_error',
      status,
      type: 'api_error',
    };
  }
  return {
    text: `API Error: ${status} ${providerErrorMessage(failure, 'anthropic')}`,
    error: 'invalid_request',
    status,
    type: 'invalid_request_error',
  };
}

/** The host claude names in server-error messages: the configured base URL's. */
function gatewayHost(): string {
  try {
    return new URL(process.env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com').host;
  } catch {
    return 'api.anthropic.com';
  }
}
