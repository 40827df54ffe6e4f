// The rules a fake CLI judges from its own log (tool runs, session ids, stdin, signals), judged for a real
// CLI from what can be seen of it from outside: the PATH wrapper's log (each start with its argv and pid,
// and for codex whether stdin reached EOF), the mock's recorded requests (which carry the CLI's tool results
// and its history: what it ran, how it said each tool ended, what it remembered), and the processes the
// harness had to end. A rule whose evidence is missing in a run is reported not verified, with why.

import type { RecordedRequest } from '../../mock/mock-server.js';
import { type HistoryItem, type HistoryToolResult, requestView, squash } from '../../mock/request-views.js';
import type { MockProviderId } from '../../mock/scenario/scenario-types.js';
import type { ProcessInfo } from '../../process/process-table.js';
import type { CanonicalEvent } from '../../protocol/canonical.js';
import { runFinding } from '../../rules/finding.js';
import { checkNotVerified, type NotVerified } from '../../rules/not-verified.js';
import type { Finding } from '../../rules/types.js';
import { checkPrompt, checkStarts, checkStdin } from '../checks.js';
import { checkCompactionThroughCli, followsCompactionThroughCli, rememberedBefore } from '../compaction-checks.js';
import type { OfficialCliName, ScriptScenario } from '../script-types.js';
import type { CliLogEntry, StartEntry } from '../state.js';

export interface InterruptedTurn {
  turn: number;
  /** Processes of the run the harness found still running and ended (after the shim's exit or at its clock). */
  endedByHarness: readonly ProcessInfo[];
}

export interface ObservedCliRunInput {
  cli: OfficialCliName;
  scenario: ScriptScenario;
  /** The wrapper's log: starts (argv, pid), and codex's stdin. */
  log: readonly CliLogEntry[];
  /** The mock's requests (all providers; the CLI's are picked by `provider`). */
  requests: readonly RecordedRequest[];
  /** The wire the CLI speaks to the mock: gemini, openai-responses (codex), anthropic (claude). */
  provider: MockProviderId;
  turns: readonly number[];
  eventsByTurn?: ReadonlyArray<readonly CanonicalEvent[] | undefined>;
  /** Turns the runner interrupted (the signal or frame was delivered). */
  interrupted: readonly InterruptedTurn[];
}

export interface ObservedCliRun {
  findings: Finding[];
  /**
   * Each rule this run could not judge: what a real CLI keeps inside (or out of its requests) is a limit of
   * what the harness can observe, so the cause is `harness`.
   */
  notVerified: NotVerified[];
}

const argvText = (argv: readonly string[]) => argv.map((argument) => JSON.stringify(argument)).join(' ');

function startsOf(input: ObservedCliRunInput, turn: number): StartEntry[] {
  return input.log.filter(
    (entry): entry is StartEntry => entry.event === 'start' && entry.cli === input.cli && entry.turnIndex === turn,
  );
}

function requestsOf(input: ObservedCliRunInput, turn: number): RecordedRequest[] {
  return input.requests.filter((request) => request.provider === input.provider && request.turn === turn);
}

/** Whether the scripted response that answered `request` hands the CLI tool calls. */
function handsOutTools(input: ObservedCliRunInput, request: RecordedRequest): boolean {
  if (request.responseIndex === undefined || request.status !== 200) return false;
  const response = input.scenario.turns[request.turn]?.responses[request.responseIndex];
  return (response?.toolCalls?.length ?? 0) > 0;
}

/** cli.no-rerun-after-tool: no start of the CLI in a turn after the mock handed it a tool call. */
function checkRerun(input: ObservedCliRunInput): Finding[] {
  const findings: Finding[] = [];
  for (const turn of input.turns) {
    const handed = requestsOf(input, turn).find((request) => handsOutTools(input, request));
    if (!handed) continue;
    const later = startsOf(input, turn).filter((start) => Date.parse(start.time) > handed.time);
    if (later.length > 0)
      findings.push(
        runFinding(
          'cli.no-rerun-after-tool',
          `turn ${turn + 1}: the mock handed ${input.cli} a tool call (request #${handed.index + 1}) and ${input.cli} was then started ${later.length} more time(s) for the same prompt (argv: ${argvText(later[0]!.argv)})`,
        ),
      );
  }
  return findings;
}

/**
 * cli.resume-continues-session: a resumed turn names a session, and the CLI's first request carries the last turn
 * that was not killed (R14: after a kill-and-resume the killed turn may or may not be in the history; its prompt, or
 * the summary of a compaction since). The first turn after a compaction through the CLI starts a
 * new session instead, which cli.compaction-through-cli judges.
 */
function checkResume(input: ObservedCliRunInput): ObservedCliRun {
  const out: ObservedCliRun = { findings: [], notVerified: [] };
  for (const turn of input.turns) {
    if (turn === 0 || input.scenario.turns[turn]?.resume !== true) continue;
    if (followsCompactionThroughCli(input.cli, input.scenario, turn)) continue;
    const start = startsOf(input, turn)[0];
    if (!start || start.argError !== undefined) continue;
    if (start.resume === undefined) {
      out.findings.push(
        runFinding(
          'cli.resume-continues-session',
          `turn ${turn + 1}: ${input.cli} was started without a resume id, so it forgot turn ${turn}; argv: ${argvText(start.argv)}`,
        ),
      );
      continue;
    }
    const first = requestsOf(input, turn)[0];
    const remembered = rememberedBefore(input.scenario, turn);
    if (!first || !remembered) {
      out.notVerified.push(
        checkNotVerified(
          'cli.resume-continues-session',
          'harness',
          `turn ${turn + 1}: ${input.cli} sent no request, so what it remembered is not seen`,
        ),
      );
      continue;
    }
    const history = requestView(input.provider, first.body, first.path).history;
    const carried = history.some(
      (item) => item.role === 'user' && item.texts.some((text) => squash(text).includes(squash(remembered.text))),
    );
    if (!carried)
      out.findings.push(
        runFinding(
          'cli.resume-continues-session',
          `turn ${turn + 1}: ${input.cli} was asked to resume ${JSON.stringify(start.resume)}, but its first request (#${first.index + 1}) does not carry ${remembered.what}: it did not continue that session`,
        ),
      );
  }
  return out;
}

/**
 * tool.not-run-twice: every tool call the mock handed the CLI was handed once (a second serving is a second
 * run). What a tool changed is held to the scenario's expected workspace by the workspace checks, which see
 * a second run by the shim.
 */
function checkHandedOnce(input: ObservedCliRunInput): Finding[] {
  const findings: Finding[] = [];
  for (const turn of input.turns) {
    const served = new Map<number, RecordedRequest[]>();
    for (const request of requestsOf(input, turn))
      if (request.completed && handsOutTools(input, request))
        served.set(request.responseIndex!, [...(served.get(request.responseIndex!) ?? []), request]);
    for (const [index, requests] of served) {
      const response = input.scenario.turns[turn]!.responses[index]!;
      if (requests.length <= (response.repeat ?? 1)) continue;
      const ids = (response.toolCalls ?? []).map((call) => call.id).join(', ');
      findings.push(
        runFinding(
          'tool.not-run-twice',
          `turn ${turn + 1}: the scripted call(s) ${ids} went to ${input.cli} ${requests.length} times (requests ${requests.map((request) => `#${request.index + 1}`).join(', ')}), so it ran them ${requests.length} times`,
        ),
      );
    }
  }
  return findings;
}

/**
 * How the CLI said a tool ended, as it told the model: claude's `is_error`, gemini's `error` response,
 * codex's exit code in the output of `exec_command` (undefined when the text names none), copilot's words (it
 * sets no `is_error`: a missing file, a refused permission, a command's exit code in its closing line).
 */
export function reportedFailure(
  provider: MockProviderId,
  result: HistoryToolResult,
  cli?: OfficialCliName,
): boolean | undefined {
  if (cli === 'copilot') {
    const code = /<shellId: \d+ completed with exit code (-?\d+)>\s*$/.exec(result.content)?.[1];
    if (code !== undefined) return Number(code) !== 0;
    return (
      result.isError === true ||
      /^Path .* does not exist\./.test(result.content) ||
      result.content.startsWith('Permission denied because no interactive user response was available')
    );
  }
  if (provider !== 'openai-responses') return result.isError === true;
  const code = /(?:Process exited with code|Exit code:)\s*(-?\d+)/.exec(result.content)?.[1];
  if (code !== undefined) return Number(code) !== 0;
  if (/^(?:Success\.|Done!)/m.test(result.content)) return false;
  return undefined;
}

/**
 * The tool results the CLI sent back during `turn`, in order: those after the turn's prompt in its requests'
 * history (a resumed session also carries the calls of earlier turns, a killed turn's call among them). When
 * the prompt is not found as sent, results seen in earlier turns' requests are left out instead.
 */
function resultsOfTurn(input: ObservedCliRunInput, turn: number): HistoryToolResult[] {
  const keyOf = (result: HistoryToolResult, position: number) => result.id ?? `${result.name ?? ''}#${position}`;
  const prompt = input.scenario.turns[turn]?.prompt.trim() ?? '';
  const asked = (item: HistoryItem) => item.role === 'user' && item.texts.some((text) => text.includes(prompt));
  // Only needed when a request does not show the prompt as sent.
  let earlier: Set<string> | undefined;
  const seenEarlier = (key: string) => {
    earlier ??= new Set(
      input.requests
        .filter((request) => request.provider === input.provider && request.turn < turn)
        .flatMap((request) =>
          requestView(input.provider, request.body, request.path)
            .history.flatMap((item) => item.toolResults)
            .map((result, position) => keyOf(result, position)),
        ),
    );
    return earlier.has(key);
  };
  const seen = new Map<string, HistoryToolResult>();
  for (const request of requestsOf(input, turn)) {
    const history = requestView(input.provider, request.body, request.path).history;
    const promptAt = prompt === '' ? -1 : history.findLastIndex(asked);
    const results = history.slice(promptAt + 1).flatMap((item) => item.toolResults);
    results.forEach((result, position) => {
      const key = keyOf(result, position);
      if ((promptAt >= 0 || !seenEarlier(key)) && !seen.has(key)) seen.set(key, result);
    });
  }
  return [...seen.values()];
}

/** cli.tool-outcome-matches: one tool_result per tool the CLI ran, with the outcome it reported to the model. */
function checkToolOutcomes(input: ObservedCliRunInput): ObservedCliRun {
  const out: ObservedCliRun = { findings: [], notVerified: [] };
  if (!input.eventsByTurn) return out;
  for (const turn of input.turns) {
    const events = input.eventsByTurn[turn];
    if (!events || input.scenario.turns[turn]?.kill) continue;
    const reported = resultsOfTurn(input, turn);
    if (reported.length === 0) continue;
    const printed = events.filter(
      (event): event is Extract<CanonicalEvent, { kind: 'tool_result' }> => event.kind === 'tool_result',
    );
    if (printed.length < reported.length)
      out.findings.push(
        runFinding(
          'cli.tool-outcome-matches',
          `turn ${turn + 1}: ${input.cli} ran ${reported.length} tool(s) (their results went to the model) but the shim printed ${printed.length} tool_result(s)`,
        ),
      );
    reported.forEach((result, index) => {
      const failed = reportedFailure(input.provider, result, input.cli);
      const shown = printed[index];
      if (failed === undefined) {
        out.notVerified.push(
          checkNotVerified(
            'cli.tool-outcome-matches',
            'harness',
            `turn ${turn + 1}: the outcome of ${result.name ?? result.id ?? `tool ${index + 1}`} is not legible in ${input.cli}'s request`,
          ),
        );
        return;
      }
      if (!shown || shown.isError === failed) return;
      out.findings.push(
        runFinding(
          'cli.tool-outcome-matches',
          `turn ${turn + 1}: ${input.cli} told the model that ${result.name ?? result.id ?? `tool ${index + 1}`} ${failed ? 'failed' : 'succeeded'}, but the shim's tool_result on line ${shown.line} has is_error: ${shown.isError} (a translator that reads the outcome wrongly, or a CLI whose stdout never carried it: compare with the CLI's own output)`,
        ),
      );
    });
  }
  return out;
}

/**
 * cli.interrupt-reaches-cli: after an interrupt the CLI stopped by itself. Evidence of the opposite: the
 * CLI's process (the wrapper's pid: it execs the CLI), a child of it or a member of its process group was
 * still running when the harness ended what the run left behind.
 */
function checkInterrupt(input: ObservedCliRunInput): ObservedCliRun {
  const out: ObservedCliRun = { findings: [], notVerified: [] };
  for (const { turn, endedByHarness } of input.interrupted) {
    if (!input.scenario.turns[turn]?.interrupt) continue;
    const starts = startsOf(input, turn).filter((start) => start.argError === undefined);
    if (starts.length === 0) {
      out.notVerified.push(
        checkNotVerified(
          'cli.interrupt-reaches-cli',
          'harness',
          `turn ${turn + 1}: ${input.cli} was not running when interrupted`,
        ),
      );
      continue;
    }
    const pids = new Set(starts.map((start) => start.pid));
    const leftover = endedByHarness.find(
      (process) => pids.has(process.pid) || pids.has(process.ppid) || pids.has(process.pgid),
    );
    if (leftover)
      out.findings.push(
        runFinding(
          'cli.interrupt-reaches-cli',
          `turn ${turn + 1}: after the interrupt ${input.cli} (pid ${[...pids].join(', ')}) did not stop: ${leftover.name} (pid ${leftover.pid}) was still running when the harness ended the run's processes`,
        ),
      );
  }
  return out;
}

/**
 * gemini's and claude's stdin is the CLI's own: a prompt sent there is not seen (codex's is, by the wrapper,
 * unless it could not read it).
 */
function promptsOnStdin(input: ObservedCliRunInput): ObservedCliRun {
  const unseen =
    input.cli === 'codex'
      ? []
      : input.log.filter(
          (entry): entry is StartEntry =>
            entry.event === 'start' &&
            entry.cli === input.cli &&
            entry.prompt === undefined &&
            entry.argError === undefined,
        );
  const unread = input.log.filter((entry) => entry.event === 'stdin-unread' && entry.cli === input.cli);
  return {
    findings: [],
    notVerified: [
      ...unseen.map((start) =>
        checkNotVerified(
          'cli.prompt-not-option',
          'harness',
          `turn ${start.turnIndex + 1}: ${input.cli} had no prompt in its argv (it reads it from stdin, which the wrapper leaves to the CLI)`,
        ),
      ),
      ...unread.map((entry) =>
        checkNotVerified(
          'cli.stdin-closed',
          'harness',
          `turn ${entry.turnIndex + 1}: the wrapper could not read ${input.cli}'s stdin (${(entry as { reason: string }).reason})`,
        ),
      ),
    ],
  };
}

/** Every check of a run with a real CLI, with the rules it could not judge. */
export function checkObservedCliRun(input: ObservedCliRunInput): ObservedCliRun {
  const withPrompt = input.log.filter(
    (entry) => entry.event !== 'start' || entry.prompt !== undefined || entry.argError !== undefined,
  );
  const fakeShaped = { cli: input.cli, scenario: input.scenario, log: input.log, turns: input.turns };
  const parts = [checkResume(input), checkToolOutcomes(input), checkInterrupt(input), promptsOnStdin(input)];
  // codex's prompt may come from stdin, which the wrapper reads; the others' is in argv or not seen.
  const prompts = input.log.some((entry) => entry.event === 'prompt') ? input.log : withPrompt;
  return {
    findings: [
      ...checkStarts(fakeShaped),
      ...checkPrompt({ ...fakeShaped, log: prompts }),
      ...checkStdin(fakeShaped),
      ...checkRerun(input),
      ...checkHandedOnce(input),
      ...checkCompactionThroughCli({ ...fakeShaped, log: prompts }),
      ...parts.flatMap((part) => part.findings),
    ],
    notVerified: parts.flatMap((part) => part.notVerified),
  };
}
