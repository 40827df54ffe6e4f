// How Gemini CLI 0.61 reports a failed model call, worded as in the captures: the API error body, the
// `[API Error: ...]` text of its error result, the stack trace its stderr shows, and its exit code.
import { type HttpFailure, httpErrorMessage, type ModelFailure, providerErrorMessage } from '../script-playback.js';

const FAKE_BUNDLE = 'file:///usr/lib/node_modules/@google/gemini-cli/bundle/chunk-FAKE.js';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** The API's error body for an HTTP error answer, as gemini quotes it (8-overflow: the overflow's own message). */
export function geminiErrorBody(failure: HttpFailure): string {
  const { status } = failure;
  return JSON.stringify({
    error: {
      code: status,
      message: providerErrorMessage(failure, 'gemini'),
      status: STATUS_NAMES[status] ?? 'UNKNOWN',
    },
  });
}

/** The stack trace gemini prints under an API error (the frames of its bundle, made up). */
export function geminiStackTrace(): string {
  return [
    `    at throwErrorIfNotOK (${FAKE_BUNDLE}:267833:24)`,
    '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
    `    at async retryWithBackoff (${FAKE_BUNDLE}:308039:23)`,
    `    at async Turn.run (${FAKE_BUNDLE}:333001:24)`,
  ].join('\n');
}

/** The `[API Error: ...]` text gemini puts in its error result. */
export function geminiFailureMessage(failure: ModelFailure): string {
  if (failure.kind === 'http') {
    if (failure.status === 429) {
      return `[API Error: ${httpErrorMessage(429)}]\nPlease wait and try again later. To increase your limits, request a quota increase through AI Studio, or switch to another /auth method`;
    }
    return `[API Error: ${geminiErrorBody(failure)}]`;
  }
  if (failure.kind === 'malformed') return '[API Error: Incomplete JSON segment at the end]';
  return '[API Error: terminated]';
}

/** The exit code of a run whose model call failed. */
export function geminiExitCode(failure: ModelFailure): number {
  if (failure.kind !== 'http') return 1;
  if (failure.status === 401 || failure.status === 403) return 41; // FatalAuthenticationError
  return failure.status & 0xff; // headless stream-json calls process.exit(<http status>)
}

/** The stderr report gemini writes when a model call finally failed (`message`: the error it names). */
export function geminiErrorReport(message: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return `Error when talking to Gemini API Full report available at: /var/tmp/gemini-client-error-Turn.run-sendMessageStream-${stamp}.json ${message}\n${geminiStackTrace()}\n`;
}
