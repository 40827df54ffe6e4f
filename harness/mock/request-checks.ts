// Checks on what a shim sent to a mocked provider during a run (rules `requests.*`, harness/rules/request-rules.ts).
import { isCompactPrompt } from '../../common/compact-command.js';
import { runFinding } from '../rules/finding.js';
import type { Finding } from '../rules/types.js';
import {
  checkCompactedHistory,
  checkOverflowResend,
  checkSummaryRequests,
  historyExpectation,
} from './compaction-requests.js';
import type { RecordedRequest } from './mock-server.js';
import { type HistoryItem, type HistoryToolResult, requestView, squash } from './request-views.js';
import type { MockProviderId, ModelResponse, Scenario, ScriptToolCall } from './scenario/scenario-types.js';
import { toolCallIdMap } from './scenario/tool-call-ids.js';

export type { Finding };

/** The recorded fields the checks read (a RecordedRequest satisfies it). */
export type CheckedRequest = Pick<
  RecordedRequest,
  | 'index'
  | 'provider'
  | 'path'
  | 'query'
  | 'body'
  | 'turn'
  | 'responseIndex'
  | 'outcome'
  | 'elapsedMs'
  | 'closedByClient'
> &
  Partial<Pick<RecordedRequest, 'missingTools' | 'status' | 'method' | 'rawBody'>>;

const FATAL_STATUSES = new Set([400, 401, 403, 404]);

/** What every request check of one run reads, and where it reports (each finding once). */
interface RequestCheckContext {
  scenario: Scenario;
  provider: MockProviderId;
  ids: ReturnType<typeof toolCallIdMap>;
  report: Report;
}

export function checkProviderRequests(
  scenario: Scenario,
  provider: MockProviderId,
  requests: readonly CheckedRequest[],
): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const report = (rule: string, message: string, dedupeKey = message): void => {
    const key = `${rule}\u0000${dedupeKey}`;
    if (seen.has(key)) return;
    seen.add(key);
    findings.push(runFinding(rule, message));
  };
  const ctx: RequestCheckContext = { scenario, provider, ids: toolCallIdMap(scenario, provider), report };
  const ordered = [...requests].sort((a, b) => a.index - b.index);
  routeChecks(ctx, ordered);
  const mine = ordered.filter((request) => request.provider === provider);
  scenario.turns.forEach((_, t) => {
    turnChecks(
      ctx,
      t,
      mine.filter((request) => request.turn === t),
    );
  });
  return findings;
}

/** What each request's own outcome says: no endpoint, too large, rejected credentials, no JSON, tools undeclared. */
function routeChecks(ctx: RequestCheckContext, ordered: readonly CheckedRequest[]): void {
  const { report } = ctx;
  for (const request of ordered) {
    // A connectivity probe (`HEAD /`, as Claude Code sends one) asks nothing of the provider.
    if (request.method === 'HEAD' && request.path === '/') continue;
    const where = `request #${request.index + 1} (${request.method ?? 'POST'} ${request.path})`;
    if (request.outcome === 'no-route') report('requests.endpoint', `${where} is not an endpoint of any mocked API`);
    if (request.outcome === 'body-too-large')
      report('requests.body-size', `${where} sent a body over the mock's limit ${request.rawBody ?? ''}; answered 413`);
    if (request.provider !== ctx.provider) continue;
    if (request.outcome === 'auth-rejected')
      report('requests.auth', `${where} was rejected for its credentials (HTTP ${request.status ?? '4xx'})`);
    if (request.outcome === 'bad-body') report('requests.body-json', `${where} has a body that is not JSON`);
    if (request.outcome === 'tools-not-declared') {
      report(
        'requests.tools-declared',
        `${where} does not declare ${(request.missingTools ?? []).join(', ')}, which turn ${request.turn + 1} calls`,
      );
    }
  }
}

/** The checks of one turn's requests to the provider under test. */
function turnChecks(ctx: RequestCheckContext, t: number, inTurn: readonly CheckedRequest[]): void {
  const { scenario, provider, report } = ctx;
  const turn = scenario.turns[t]!;
  const served = inTurn.filter((request) => request.responseIndex !== undefined);
  retryChecks(ctx, t, inTurn);
  requestShapeChecks(ctx, t, served);
  checkSummaryRequests(ctx, t, inTurn);
  checkOverflowResend(ctx, t, inTurn);

  // Tool results: every request after a response with tool calls carries their results.
  for (const request of served) {
    const earlier = turn.responses
      .slice(0, request.responseIndex)
      .filter((response) => !response.fault || response.fault.kind === 'drip');
    const calls = earlier.flatMap((response) => response.toolCalls ?? []);
    if (calls.length === 0) continue;
    const history = thisTurnsHistory(requestView(provider, request.body, request.path).history, turn.prompt);
    checkToolResults(ctx, request, { t, calls, responses: earlier, history });
  }

  // History on resume (spawn-per-turn --resume, or a later turn of a persistent process). A /compact turn's
  // requests are summary requests, judged by checkSummaryRequests: claude leaves the last answer out of them
  // (it keeps it verbatim after the summary instead).
  const command = isCompactPrompt(turn.prompt);
  if (t > 0 && !command && (turn.resume || scenario.mode === 'persistent') && served[0])
    checkHistory(ctx, t, served[0]);

  // Interrupt: the stalled stream must have been closed by the client.
  if (turn.interrupt === 'after-first-text') {
    for (const request of served) {
      if (turn.responses[request.responseIndex!]?.stall && !request.closedByClient) {
        report(
          'requests.connection-closed-on-interrupt',
          `turn ${t + 1}: the stalled stream of request #${request.index + 1} was still open when the run ended`,
        );
      }
    }
  }
}

/** Retries: no retry after a fatal status; retry-after honoured; nothing beyond the script. */
function retryChecks(ctx: RequestCheckContext, t: number, inTurn: readonly CheckedRequest[]): void {
  const { report } = ctx;
  const turn = ctx.scenario.turns[t]!;
  let afterFatal = false; // requests after a fatal status are reported once, as a forbidden retry
  inTurn.forEach((request, position) => {
    const response = request.responseIndex !== undefined ? turn.responses[request.responseIndex] : undefined;
    const next = inTurn[position + 1];
    const fault = response?.fault?.kind === 'http' ? response.fault : undefined;
    if (fault && FATAL_STATUSES.has(fault.status) && next) {
      afterFatal = true;
      report(
        'requests.no-retry-after-fatal',
        `turn ${t + 1}: the shim sent another request (#${next.index + 1}) after HTTP ${fault.status}`,
      );
    } else if (request.outcome === 'unscripted' && !afterFatal) {
      report(
        'requests.unscripted',
        `turn ${t + 1}: request #${request.index + 1} came after all ${turn.responses.length} scripted response(s) were used`,
      );
    }
    if (fault?.retryAfter && fault.retryAfter > 0 && next) {
      const gap = next.elapsedMs - request.elapsedMs;
      // 10% slack for timer granularity; a shim that ignores the header retries within a few ms.
      if (gap < fault.retryAfter * 1000 * 0.9) {
        report(
          'requests.retry-after-honoured',
          `turn ${t + 1}: retried after ${gap} ms, but retry-after was ${fault.retryAfter} s`,
        );
      }
    }
  });
}

/** Each answered request streams, and on Chat Completions asks for usage. */
function requestShapeChecks(ctx: RequestCheckContext, t: number, served: readonly CheckedRequest[]): void {
  const { provider, report } = ctx;
  if (provider === 'openai-chat') {
    for (const request of served) {
      if (!requestView(provider, request.body, request.path).includeUsage) {
        report(
          'requests.usage-requested',
          `turn ${t + 1}: request #${request.index + 1} streams without stream_options.include_usage`,
          'usage',
        );
      }
    }
  }
  for (const request of served) {
    if (!requestView(provider, request.body, request.path).stream) {
      report(
        'requests.streaming',
        `turn ${t + 1}: request #${request.index + 1} asks for a non-streamed answer`,
        'streaming',
      );
    }
  }
}

type Report = (rule: string, message: string, dedupeKey?: string) => void;

/**
 * The part of a request's history that belongs to the current turn: from the last user message carrying the
 * turn's prompt on. Gemini answers calls by name and order, and a resumed or persistent history also holds
 * earlier turns' calls of the same names.
 */
function thisTurnsHistory(history: HistoryItem[], prompt: string): HistoryItem[] {
  const start = history.findLastIndex(
    (item) => item.role === 'user' && item.texts.some((text) => text.includes(prompt)),
  );
  return start < 0 ? history : history.slice(start);
}

/** The earlier calls of a turn whose results a request must carry, with the history it sent. */
interface ToolResultsSent {
  t: number;
  calls: ScriptToolCall[];
  responses: ModelResponse[];
  history: HistoryItem[];
}

function checkToolResults(ctx: RequestCheckContext, request: CheckedRequest, sent: ToolResultsSent): void {
  const { provider, ids, report } = ctx;
  const { t, calls, history } = sent;
  const expected = ctx.scenario.turns[t]!.expect.toolResults ?? [];
  const results = history.flatMap((item) => item.toolResults);
  const where = `turn ${t + 1}, request #${request.index + 1}`;
  const geminiUsed = new Set<HistoryToolResult>();
  for (const call of calls) {
    const issued = ids.get(call.id);
    let result: HistoryToolResult | undefined;
    if (provider === 'gemini') {
      // Gemini issues no ids: the n-th call of a name is answered by the n-th functionResponse of that name.
      result = results.find((candidate) => candidate.name === call.name && !geminiUsed.has(candidate));
      if (result) geminiUsed.add(result);
      if (!result) {
        report(
          'requests.tool-result-id',
          `${where}: no functionResponse named "${call.name}" answers the mock's call "${call.id}"`,
          `${call.id}`,
        );
        continue;
      }
    } else {
      result = results.find((candidate) => candidate.id === issued?.providerId);
      if (!result) {
        const sent = results.map((candidate) => candidate.id ?? '(none)').join(', ') || 'none';
        report(
          'requests.tool-result-id',
          `${where}: no tool result with id ${issued?.providerId} for the ${call.name} call "${call.id}" (ids sent: ${sent})`,
          `${call.id}`,
        );
        continue;
      }
    }
    const expectation = expected.find((candidate) => candidate.id === call.id);
    for (const needle of expectation?.contains ?? []) {
      if (!result.content.includes(needle)) {
        report(
          'requests.tool-result-content',
          `${where}: the result of ${call.name} "${call.id}" does not contain ${JSON.stringify(needle)} (got ${JSON.stringify(result.content.slice(0, 160))})`,
          `${call.id}:${needle}`,
        );
      }
    }
    if (provider === 'anthropic' && expectation?.isError && result.isError !== true) {
      report(
        'requests.tool-result-error-flag',
        `${where}: the failing ${call.name} call "${call.id}" was sent back without is_error: true`,
        call.id,
      );
    }
  }
  if (provider === 'gemini') checkThoughtSignatures(ctx, sent, where);
}

/**
 * Gemini: the first function call of each model response carries a signature that must come back on that part.
 * Signatures are unique per response, so look the part up by name and signature: a resumed or persistent
 * history also holds earlier turns' parts of the same name, and a response may call one name twice.
 */
function checkThoughtSignatures(ctx: RequestCheckContext, sent: ToolResultsSent, where: string): void {
  const { ids, report } = ctx;
  const { history, responses } = sent;
  const replayed = history.filter((item) => item.role === 'assistant').flatMap((item) => item.toolCalls);
  for (const response of responses) {
    const first = response.toolCalls?.[0];
    if (!first) continue;
    const expectedSignature = ids.get(first.id)?.thoughtSignature;
    const sameName = replayed.filter((candidate) => candidate.name === first.name);
    if (sameName.length === 0) {
      report(
        'requests.thought-signature-echoed',
        `${where}: the model's ${first.name} functionCall part is missing from the history`,
        first.id,
      );
    } else if (!sameName.some((candidate) => candidate.thoughtSignature === expectedSignature)) {
      const signatures = sameName.map((candidate) => JSON.stringify(candidate.thoughtSignature ?? null)).join(', ');
      report(
        'requests.thought-signature-echoed',
        `${where}: no ${first.name} functionCall part came back with the thoughtSignature the mock sent (sent: ${signatures})`,
        first.id,
      );
    }
  }
}

function checkHistory(ctx: RequestCheckContext, t: number, request: CheckedRequest): void {
  const { scenario, provider, ids, report } = ctx;
  const history = requestView(provider, request.body, request.path).history;
  const userText = history
    .filter((item) => item.role === 'user')
    .flatMap((item) => item.texts)
    .join('\n');
  // Squashed once, not once per earlier turn: the history grows with the session, and so does the loop below.
  const assistantText = squash(
    history
      .filter((item) => item.role === 'assistant')
      .flatMap((item) => item.texts)
      .join(''),
  );
  const sentCallIds = new Set(history.flatMap((item) => item.toolCalls.map((call) => call.id)));
  const where = `turn ${t + 1}, request #${request.index + 1}`;
  // Killed turns and commands are optional; turns a compaction replaced must be gone (compaction-requests.ts).
  const expectation = historyExpectation(scenario, t);
  checkCompactedHistory(scenario, expectation, history, (message, key) =>
    report('requests.history-on-resume', `${where}: ${message}`, key),
  );
  for (const earlier of expectation.kept) {
    const previous = scenario.turns[earlier]!;
    if (!userText.includes(previous.prompt)) {
      report(
        'requests.history-on-resume',
        `${where}: the prompt of turn ${earlier + 1} (${JSON.stringify(previous.prompt.slice(0, 60))}) is not in the history`,
        `prompt${earlier}`,
      );
    }
    if (previous.interrupt || previous.expect.isError) continue; // a partial or failed turn has no settled answer
    const answer = [...previous.responses].reverse().find((response) => response.text?.length && !response.fault);
    const text = answer?.text?.join('') ?? '';
    // Shims may trim whitespace; compare the trimmed text without its spacing.
    if (text && !assistantText.includes(squash(text))) {
      report(
        'requests.history-on-resume',
        `${where}: the answer of turn ${earlier + 1} (${JSON.stringify(text.slice(0, 60))}) is not in the history`,
        `answer${earlier}`,
      );
    }
    if (provider !== 'gemini') {
      for (const call of previous.responses.flatMap((response) => response.toolCalls ?? [])) {
        const id = ids.get(call.id)?.providerId;
        if (id && !sentCallIds.has(id)) {
          report(
            'requests.history-on-resume',
            `${where}: the ${call.name} call of turn ${earlier + 1} (id ${id}) is not in the history`,
            `call${call.id}`,
          );
        }
      }
    }
  }
}
