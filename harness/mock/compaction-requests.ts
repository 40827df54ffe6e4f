// What a shim sends around a compaction (docs/protocol.md#r21-compaction), judged on the mock's recorded requests:
// what the turns after a compaction must carry (and no longer carry), what a summary request is, and that a
// context overflow is never answered by sending the same oversized request again.
import { compactHints, isCompactPrompt } from '../../common/compact-command.js';
import type { RecordedRequest } from './mock-types.js';
import { type HistoryItem, requestView, squash } from './request-views.js';
import { summaryText } from './scenario/response-script.js';
import type { MockProviderId, Scenario, Turn } from './scenario/scenario-types.js';

type Report = (rule: string, message: string, dedupeKey?: string) => void;
/** The recorded fields these checks read (request-checks.ts's CheckedRequest has them all). */
type SeenRequest = Pick<RecordedRequest, 'index' | 'body' | 'path' | 'responseIndex' | 'outcome'>;

/** The summary a turn's script answers with, when the turn compacted (by `/compact`, or on its own). */
function scriptedSummary(turn: Turn): string | undefined {
  const response = turn.responses.find((candidate) => candidate.summary);
  return response ? summaryText(response) : undefined;
}

/** A turn that replaced the history by a summary: a `/compact` turn or an overflow turn that ended well. */
function compactedTheSession(turn: Turn): boolean {
  return scriptedSummary(turn) !== undefined && !turn.expect.isError && !turn.interrupt && !turn.kill;
}

/** What the history of a request in turn `t` must hold, given the compactions before it. */
export interface HistoryExpectation {
  /** The last compaction before turn t, with the summary the request must carry. */
  compaction?: { turn: number; summary: string };
  /** Earlier turns whose prompt, answer and calls the request must carry (killed turns and commands aside). */
  kept: number[];
  /** Earlier turns the compaction replaced: their prompts must be gone. */
  compacted: number[];
}

/**
 * Whether turn t's `/compact` meets a session with nothing in it (no earlier turn but commands): claude then makes
 * no request and ends the turn with 0/0 and no boundary; a shim may do the same or end with an error result.
 */
export function nothingToCompact(scenario: { turns: readonly { prompt: string }[] }, t: number): boolean {
  return scenario.turns.slice(0, t).every((turn) => isCompactPrompt(turn.prompt));
}

/** What a scenario turn is to the compaction rules, by its prompt and the turns before it (R21). */
export function compactTurnOf(
  scenario: { turns: readonly { prompt: string }[] },
  t: number,
): 'none' | 'compact' | 'nothing-to-compact' {
  if (!isCompactPrompt(scenario.turns[t]?.prompt ?? '')) return 'none';
  return nothingToCompact(scenario, t) ? 'nothing-to-compact' : 'compact';
}

/** Whether a turn's script answers one of its requests with a context overflow. */
export function metOverflow(turn: Pick<Turn, 'responses'>): boolean {
  return turn.responses.some((response) => response.fault?.kind === 'context-overflow');
}

export function historyExpectation(scenario: Pick<Scenario, 'turns'>, t: number): HistoryExpectation {
  let last: number | undefined;
  for (let earlier = 0; earlier < t; earlier += 1) if (compactedTheSession(scenario.turns[earlier]!)) last = earlier;
  const kept: number[] = [];
  const compacted: number[] = [];
  for (let earlier = 0; earlier < t; earlier += 1) {
    const turn = scenario.turns[earlier]!;
    // A command is not conversation, and a killed turn may or may not have reached the session.
    if (isCompactPrompt(turn.prompt) || turn.kill) continue;
    // An automatic compaction happens inside its turn, before that turn's prompt: the prompt stays.
    if (last !== undefined && earlier < last) compacted.push(earlier);
    else kept.push(earlier);
  }
  const summary = last === undefined ? undefined : scriptedSummary(scenario.turns[last]!);
  return { ...(last !== undefined && summary ? { compaction: { turn: last, summary } } : {}), kept, compacted };
}

/** The texts of a history's messages of one role (system texts count as the user's: a shim may put a summary there). */
function textsOf(history: readonly HistoryItem[], roles: readonly HistoryItem['role'][]): string[] {
  return history.filter((item) => roles.includes(item.role)).flatMap((item) => item.texts);
}

/** After a compaction: the summary is carried, and the compacted turns' prompts are not (R21). */
export function checkCompactedHistory(
  scenario: Pick<Scenario, 'turns'>,
  expectation: HistoryExpectation,
  history: readonly HistoryItem[],
  report: (message: string, key: string) => void,
): void {
  const { compaction } = expectation;
  if (!compaction) return;
  const said = textsOf(history, ['user', 'system', 'assistant']).map(squash).join('\n');
  if (!said.includes(squash(compaction.summary))) {
    report(
      `the summary of turn ${compaction.turn + 1} (${JSON.stringify(compaction.summary.slice(0, 60))}) is not in the history`,
      'summary',
    );
  }
  const userText = textsOf(history, ['user']).join('\n');
  for (const turn of expectation.compacted) {
    const prompt = scenario.turns[turn]!.prompt;
    if (userText.includes(prompt)) {
      report(
        `the prompt of turn ${turn + 1} (${JSON.stringify(prompt.slice(0, 60))}) is still in the history although turn ${compaction.turn + 1} compacted it`,
        `compacted${turn}`,
      );
    }
  }
}

/**
 * The requests of a `/compact` turn (or an overflow turn's summary request): each carries the history and the
 * hints, never `/compact` as the user's message; a session with no history gets no summary request at all.
 */
export function checkSummaryRequests(
  ctx: { scenario: Scenario; provider: MockProviderId; report: Report },
  t: number,
  inTurn: readonly SeenRequest[],
): void {
  const { scenario, provider, report } = ctx;
  const turn = scenario.turns[t]!;
  const command = isCompactPrompt(turn.prompt);
  const summaryIndex = turn.responses.findIndex((response) => response.summary);
  const summaryRequests = inTurn.filter((request) =>
    command
      ? request.responseIndex !== undefined || request.outcome === 'unscripted'
      : request.responseIndex === summaryIndex,
  );
  if (summaryRequests.length === 0) return;
  const expectation = historyExpectation(scenario, t);
  if (expectation.kept.length === 0 && !expectation.compaction) {
    if (command) {
      report(
        'requests.compaction-summary',
        `turn ${t + 1}: request #${summaryRequests[0]!.index + 1} asks for a summary of a session that has no history`,
      );
    }
    return;
  }
  const hints = compactHints(turn.prompt);
  for (const request of summaryRequests) {
    const history = requestView(provider, request.body, request.path).history;
    const where = `turn ${t + 1}, request #${request.index + 1}`;
    const userTexts = textsOf(history, ['user']);
    const asked = userTexts.find((text) => isCompactPrompt(text));
    if (asked !== undefined)
      report(
        'requests.compaction-summary',
        `${where}: sends ${JSON.stringify(asked.slice(0, 60))} to the model as the user's message; /compact is a command, not a question`,
        `command${request.index}`,
      );
    if (command && hints && !userTexts.some((text) => squash(text).includes(squash(hints)))) {
      report(
        'requests.compaction-summary',
        `${where}: the summary request does not carry the hints ${JSON.stringify(hints.slice(0, 60))}`,
        `hints${request.index}`,
      );
    }
    const missing = expectation.kept.filter(
      (earlier) => !userTexts.some((text) => text.includes(scenario.turns[earlier]!.prompt)),
    );
    if (missing.length > 0) {
      report(
        'requests.compaction-summary',
        `${where}: the summary request does not carry the history it summarizes (the prompt of turn ${missing[0]! + 1} is missing)`,
        `history${request.index}`,
      );
    }
  }
}

/**
 * After a context overflow: the same oversized request is never sent again. A summary request (the history plus
 * an instruction) or the retry with the summary differ from it; a plain resend does not.
 */
export function checkOverflowResend(
  ctx: { scenario: Scenario; provider: MockProviderId; report: Report },
  t: number,
  inTurn: readonly SeenRequest[],
): void {
  const { scenario, provider, report } = ctx;
  const responses = scenario.turns[t]!.responses;
  inTurn.forEach((request, position) => {
    if (request.responseIndex === undefined || responses[request.responseIndex]?.fault?.kind !== 'context-overflow')
      return;
    const oversized = JSON.stringify(requestView(provider, request.body, request.path).history);
    for (const later of inTurn.slice(position + 1)) {
      if (JSON.stringify(requestView(provider, later.body, later.path).history) !== oversized) continue;
      report(
        'requests.no-retry-after-fatal',
        `turn ${t + 1}: request #${later.index + 1} sends the oversized request #${request.index + 1} again after the context overflow`,
        `overflow${later.index}`,
      );
    }
  });
}
