// What only the whole run shows of a compaction (docs/protocol.md#r21-compaction): how a turn that met a context
// overflow ended, whether a boundary's pre_tokens is the last call's size, and whether the session file holds
// the compacted history. The stream's side is harness/rules/checks/compaction.ts, the requests' side
// harness/mock/compaction-requests.ts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isCompactPrompt } from '../../../common/compact-command.js';
import { historyExpectation, metOverflow, nothingToCompact } from '../../mock/compaction-requests.js';
import { resolveUsage } from '../../mock/render/render-context.js';
import { squash } from '../../mock/request-views.js';
import type { ModelResponse, Scenario, Turn } from '../../mock/scenario/scenario-types.js';
import type { CanonicalEvent, ResultEvent } from '../../protocol/canonical.js';
import { runFinding } from '../../rules/finding.js';
import type { Finding } from '../../rules/types.js';
import type { ExecutedProcess } from '../execution/execute-run.js';
import type { CheckInput } from './check-types.js';
import { about, turnEvents } from './run-events.js';
import { CLAUDE_PROVIDER_FLAGS } from './session-checks.js';

/** How a shim says a session has nothing to compact (claude: "No messages to compact"). */
const NOTHING_WORDS = /nothing to compact|no messages to compact|not enough messages|no history|empty session/i;

/** How each API words an overflow, as a shim (or the CLI it wraps) quotes it. */
const OVERFLOW_WORDS =
  /prompt is too long|context window|context length|context_length_exceeded|maximum number of tokens/i;

interface ObservedTurn {
  turn: number;
  process: ExecutedProcess;
  events: CanonicalEvent[];
}

/** Every scenario turn a process served, with its events. */
function observedTurns(input: CheckInput): ObservedTurn[] {
  return input.processes.flatMap((process) =>
    process.turns.map((turn) => ({ turn, process, events: turnEvents(process, turn) })),
  );
}

/** A finding on one turn, named once: by the process's label when that is the turn, else label and turn. */
function turnFinding(rule: string, observed: ObservedTurn, message: string, line: number): Finding {
  const turn = `turn ${observed.turn + 1}`;
  const label = observed.process.label;
  return runFinding(rule, label === turn ? about(label, message) : about(label, `${turn}: ${message}`), { line });
}

export function compactionChecks(input: CheckInput): Finding[] {
  const observed = observedTurns(input);
  return [
    ...observed.flatMap((one) => overflowOutcome(input.scenario.turns[one.turn]!, one)),
    ...observed.flatMap((one) => nothingToCompactOutcome(input.scenario, one)),
    ...observed.flatMap((one) => preTokensCheck(input.scenario, one)),
    ...compactedSessionCheck(input),
  ];
}

type SystemEvent = Extract<CanonicalEvent, { kind: 'system' }>;
const resultOf = (events: readonly CanonicalEvent[]) =>
  events.find((event): event is ResultEvent => event.kind === 'result');
const boundaryOf = (events: readonly CanonicalEvent[]) =>
  events.find((event): event is SystemEvent => event.kind === 'system' && event.subtype === 'compact_boundary');

/** R21's two ways out of a context overflow, and nothing else. */
function overflowOutcome(turn: Turn, observed: ObservedTurn): Finding[] {
  if (!metOverflow(turn) || observed.process.killed) return [];
  const { events } = observed;
  const result = resultOf(events);
  if (!result) return []; // turn.result-last reports it
  const finding = (message: string) => turnFinding('compaction.overflow-outcome', observed, message, result.line);
  if (result.isError) {
    const said = [result.text ?? '', ...events.map(saidBy)].join('\n');
    return OVERFLOW_WORDS.test(said)
      ? []
      : [finding(`ended in an error after the context overflow without quoting the provider's message`)];
  }
  const boundary = boundaryOf(events);
  if (boundary?.trigger !== 'auto')
    return [
      finding(
        `succeeded after a context overflow without an automatic compaction (a compact_boundary with trigger "auto")`,
      ),
    ];
  const answered = events.some(
    (event) => event.kind === 'text' && event.line > boundary.line && event.text.trim() !== '',
  );
  return answered ? [] : [finding(`succeeded after the automatic compaction without any assistant text`)];
}

/** What an event says in words: an error's message, a system line's, or (claude's error form) assistant text. */
function saidBy(event: CanonicalEvent): string {
  if (event.kind === 'error') return event.message;
  if (event.kind === 'system') return event.message ?? '';
  return event.kind === 'text' ? event.text : '';
}

/** A `/compact` of a session with nothing in it: an error result says so (a 0/0 success is judged by the stream). */
function nothingToCompactOutcome(scenario: Scenario, observed: ObservedTurn): Finding[] {
  const turn = scenario.turns[observed.turn]!;
  if (!isCompactPrompt(turn.prompt) || !nothingToCompact(scenario, observed.turn)) return [];
  const result = resultOf(observed.events);
  if (!result?.isError) return [];
  const said = [result.text ?? '', ...observed.events.map(saidBy)].join('\n');
  if (NOTHING_WORDS.test(said)) return [];
  const message = 'the error result of a /compact on an empty session does not say there is nothing to compact';
  return [turnFinding('compaction.nothing-to-compact', observed, message, result.line)];
}

/** The size of a scripted call: input + cache + output tokens, as the mock reports it. */
const callSize = (response: ModelResponse): number => {
  const usage = resolveUsage(response);
  return usage.input_tokens + usage.cache_read_input_tokens + usage.output_tokens;
};

/**
 * The last completed call before turn t's compaction, by the script: the response before the overflow in the same
 * turn, else the last response of the nearest earlier turn that ran to its end. undefined: not known.
 */
function lastCallBefore(scenario: Scenario, t: number): number | undefined {
  const turn = scenario.turns[t]!;
  const overflowAt = turn.responses.findIndex((response) => response.fault?.kind === 'context-overflow');
  if (overflowAt > 0) return callSize(turn.responses[overflowAt - 1]!);
  for (let earlier = t - 1; earlier >= 0; earlier -= 1) {
    const previous = scenario.turns[earlier]!;
    if (isCompactPrompt(previous.prompt)) continue;
    if (previous.interrupt || previous.kill || previous.expect.isError) return undefined;
    const last = previous.responses.at(-1);
    return last && !last.fault ? callSize(last) : undefined;
  }
  return undefined;
}

function preTokensCheck(scenario: Scenario, observed: ObservedTurn): Finding[] {
  const boundary = boundaryOf(observed.events);
  if (!boundary?.preTokens) return []; // 0 (or none): not known, allowed
  const expected = lastCallBefore(scenario, observed.turn);
  if (expected === undefined || boundary.preTokens === expected) return [];
  // An automatic compaction measures the request the provider refused, which no call counted: claude estimates
  // it (the last call plus the new prompt), so any size from the last call's up is its size.
  if (boundary.trigger === 'auto' && boundary.preTokens > expected) return [];
  const larger = boundary.trigger === 'auto' ? ', and the refused request was larger' : '';
  const message = `compact_metadata.pre_tokens is ${boundary.preTokens}, but the last call before the compaction counted ${expected} (input + cache + output)${larger}`;
  return [turnFinding('compaction.pre-tokens', observed, message, boundary.line)];
}

/** The session file after the run holds the last compaction's summary and none of the prompts it replaced. */
function compactedSessionCheck(input: CheckInput): Finding[] {
  const { scenario } = input;
  if (!input.providerFlag || CLAUDE_PROVIDER_FLAGS.includes(input.providerFlag)) return [];
  const expectation = historyExpectation(scenario, scenario.turns.length);
  const id = input.processes.at(-1)?.reportedSessionId;
  if (!expectation.compaction || !id || !/^[A-Za-z0-9_-]+$/.test(id)) return [];
  // An overflow turn that ended in an error result took R21's other way out: it compacted nothing.
  const compacting = expectation.compaction.turn;
  const ended = observedTurns(input).find((one) => one.turn === compacting);
  const result = ended?.events.find((event) => event.kind === 'result');
  if (metOverflow(scenario.turns[compacting]!) && result?.kind === 'result' && result.isError) return [];
  const file = path.join(input.home, '.yume', 'sessions', input.providerFlag, `${id}.json`);
  if (!existsSync(file)) return []; // session.file reports it
  let history: string;
  try {
    history = JSON.stringify((JSON.parse(readFileSync(file, 'utf8')) as { history?: unknown }).history ?? []);
  } catch {
    return []; // session.file reports it
  }
  const shown = `~/.yume/sessions/${input.providerFlag}/${id}.json`;
  const findings: Finding[] = [];
  if (!squash(history).includes(squash(JSON.stringify(expectation.compaction.summary).slice(1, -1))))
    findings.push(
      runFinding(
        'session.compacted-history',
        `${shown} does not hold the summary of turn ${expectation.compaction.turn + 1}`,
      ),
    );
  for (const turn of expectation.compacted) {
    const prompt = scenario.turns[turn]!.prompt;
    if (history.includes(JSON.stringify(prompt).slice(1, -1)))
      findings.push(
        runFinding(
          'session.compacted-history',
          `${shown} still holds turn ${turn + 1}'s prompt ${JSON.stringify(prompt.slice(0, 60))}, which turn ${expectation.compaction.turn + 1} compacted`,
        ),
      );
  }
  return findings;
}
