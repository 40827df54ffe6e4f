// The msw handler of one provider's endpoint: checks the credentials and the body, takes the script's next
// response for the request, refuses what the script cannot answer (undeclared tools, no response left) with the
// provider's own error, and answers with the scripted HTTP fault, JSON body or stream.
import { HttpResponse } from 'msw';
import type { RecordedRequest, RequestOutcome } from '../mock-types.js';
import {
  contextOverflowReply,
  type HttpErrorReply,
  providerErrorReply,
  toolsNotDeclaredReply,
  unscriptedReply,
} from '../render/error-bodies.js';
import type { WireRenderContext } from '../render/render-context.js';
import { renderJson, renderStream } from '../render/render-response.js';
import { checkAuth } from '../request-auth.js';
import { type HistoryItem, requestView, squash } from '../request-views.js';
import type { RequestContent } from '../scenario/response-script.js';
import type { MockProviderId } from '../scenario/scenario-types.js';
import type { MockState } from './mock-state.js';
import { streamResponse } from './stream-response.js';

/** The header the server uses to hand a request's recorded entry to its handler. */
export const INDEX_HEADER = 'x-yume-mock-request-index';

export function providerHandler(state: MockState, provider: MockProviderId) {
  return async ({ request }: { request: Request }): Promise<Response> => {
    const entry = state.recorded[Number(request.headers.get(INDEX_HEADER))]!;
    entry.provider = provider;
    const authFailure = checkAuth(provider, entry, state.credentials);
    if (authFailure) return reject(entry, 'auth-rejected', authFailure);
    if (entry.body === undefined) {
      const message = 'We could not parse the JSON body of your request.';
      return reject(entry, 'bad-body', providerErrorReply(provider, 400, { message }));
    }
    return answer(state, entry, provider);
  };
}

function reject(entry: RecordedRequest, outcome: RequestOutcome, reply: HttpErrorReply): Response {
  entry.outcome = outcome;
  entry.status = reply.status;
  return HttpResponse.json(reply.body as Record<string, unknown>, { status: reply.status, headers: reply.headers });
}

/** Whether a request's history carries a text (whitespace aside, as shims may re-wrap a summary). */
function historyContent(history: readonly HistoryItem[]): RequestContent {
  return {
    carries: (text) => {
      const wanted = squash(text);
      return wanted !== '' && history.some((item) => item.texts.some((said) => squash(said).includes(wanted)));
    },
  };
}

/** The scripted answer to an authenticated request with a JSON body. */
function answer(state: MockState, entry: RecordedRequest, provider: MockProviderId): Response {
  const { script, options } = state;
  const { scenario } = options;
  const view = requestView(provider, entry.body, entry.path);
  const model = view.model ?? 'unknown-model';
  const next = script.peek(view.stream, historyContent(view.history));
  entry.turn = script.turn;
  if (!next) {
    const responses = scenario.turns[script.turn]?.responses.length ?? 0;
    return reject(entry, 'unscripted', unscriptedReply(provider, script.turn, responses));
  }
  // The real-CLI mode and `serve --map-tools` answer with the CLI's own tools (map-tools.ts).
  const scripted = options.mapTools ? options.mapTools(provider, next.response, view.declaredTools) : next.response;
  const called = [...new Set((scripted.toolCalls ?? []).map((call) => call.name))];
  const missing = called.filter((name) => !view.declaredTools.includes(name));
  if (missing.length > 0) {
    entry.missingTools = missing;
    return reject(entry, 'tools-not-declared', toolsNotDeclaredReply(provider, missing, view.declaredTools));
  }
  script.consume(next.replay);
  entry.responseIndex = next.index;
  entry.attempt = next.attempt;
  const fault = scripted.fault;
  if (fault?.kind === 'http') {
    const reply = providerErrorReply(provider, fault.status, {
      model,
      message: fault.message,
      retryAfter: fault.retryAfter,
    });
    return reject(entry, 'http-fault', reply);
  }
  if (fault?.kind === 'context-overflow') return reject(entry, 'http-fault', contextOverflowReply(provider, model));
  const ctx: WireRenderContext = {
    scenarioId: scenario.id,
    model,
    turn: script.turn,
    responseIndex: next.index,
    attempt: next.attempt,
    includeUsage: view.includeUsage,
  };
  entry.status = 200;
  if (!view.stream) {
    entry.outcome = 'json';
    // A non-streamed answer is one body; in-stream faults become a cut/stall of that body.
    const json = JSON.stringify(renderJson(provider, scripted, ctx));
    const frames = [{ bytes: json }];
    return streamResponse(state, entry, { frames, response: scripted, provider, contentType: 'application/json' });
  }
  entry.outcome = 'stream';
  const sse = !(provider === 'gemini' && new URLSearchParams(entry.query).get('alt') !== 'sse');
  const frames = renderStream(provider, scripted, ctx, sse);
  const contentType = sse ? 'text/event-stream' : 'application/json';
  return streamResponse(state, entry, { frames, response: scripted, provider, contentType });
}
