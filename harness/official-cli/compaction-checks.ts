// `/compact` and the official CLIs (docs/protocol.md#r21-compaction, "Official CLIs"), judged from the starts a CLI's
// log shows (the fake's own, or the real-CLI wrapper's). claude runs the command itself, so a translator passes it
// on and resumes claude's session as on any turn. gemini 0.61 and codex 0.169 send it to the model as text, and
// copilot 1.0.102 compacts on it but prints neither the summary nor a boundary, which live only in its own session
// files (test/fixtures/streams/captures/HOW-CAPTURED.md), so a translator compacts through them: it asks the CLI, in its
// session, for a summary carrying the hints, and starts the next turn in a new CLI session whose prompt carries
// the summary (`cli.compaction-through-cli`). A session with no history needs no CLI call at all.
import { compactHints, isCompactPrompt } from '../../common/compact-command.js';
import { nothingToCompact } from '../mock/compaction-requests.js';
import { squash } from '../mock/request-views.js';
import { summaryText } from '../mock/scenario/response-script.js';
import { runFinding } from '../rules/finding.js';
import type { Finding } from '../rules/types.js';
import { CLI_OMISSIONS } from './omissions.js';
import type { OfficialCliName, ScriptScenario, ScriptTurn } from './script-types.js';
import type { CliLogEntry, PromptEntry, StartEntry } from './state.js';

/**
 * What a turn is to a compaction: none; a `/compact` of a session with nothing in it; one that compacts; one that
 * is stopped (interrupted, killed) or scripted to fail, which leaves the session as it was.
 */
export type CompactionRole = 'none' | 'nothing-to-compact' | 'compacts' | 'stopped';

export function compactionRole(scenario: Pick<ScriptScenario, 'turns'>, t: number): CompactionRole {
  const turn = scenario.turns[t];
  if (!turn || !isCompactPrompt(turn.prompt)) return 'none';
  if (nothingToCompact(scenario, t)) return 'nothing-to-compact';
  if (turn.interrupt || turn.kill || turn.expect?.isError === true) return 'stopped';
  return 'compacts';
}

/** The summary a turn's script answers with (its summary response's text). */
export function scriptedSummary(turn: ScriptTurn | undefined): string | undefined {
  const response = turn?.responses.find((candidate) => candidate.summary === true);
  return response ? summaryText(response) : undefined;
}

/** Whether `cli` sends `/compact` to the model as text, so a translator compacts through it. */
export function compactsThroughCli(cli: OfficialCliName): boolean {
  return !CLI_OMISSIONS[cli].compactsOnCommand;
}

/** Whether turn t is the first after a compaction through the CLI: it starts a new CLI session, not a resumed one. */
export function followsCompactionThroughCli(cli: OfficialCliName, scenario: Pick<ScriptScenario, 'turns'>, t: number) {
  return t > 0 && compactsThroughCli(cli) && compactionRole(scenario, t - 1) === 'compacts';
}

/**
 * What a resumed turn's first request proves the CLI remembered: the prompt of the last turn that was conversation
 * and was not killed, or the summary of a compaction since (a stopped or empty `/compact` left the session as it
 * was). `what` names it.
 */
export function rememberedBefore(
  scenario: Pick<ScriptScenario, 'turns'>,
  t: number,
): { text: string; what: string } | undefined {
  for (let earlier = t - 1; earlier >= 0; earlier -= 1) {
    // A killed turn may or may not have reached the session (R14): the turn before it is what must be there.
    if (scenario.turns[earlier]!.kill) continue;
    const role = compactionRole(scenario, earlier);
    const summary = role === 'compacts' ? scriptedSummary(scenario.turns[earlier]) : undefined;
    if (summary) return { text: summary, what: `turn ${earlier + 1}'s summary` };
    if (role === 'none') return { text: scenario.turns[earlier]!.prompt.trim(), what: `turn ${earlier + 1}'s prompt` };
  }
  return undefined;
}

export interface CompactionCheckInput {
  cli: OfficialCliName;
  scenario: ScriptScenario;
  log: readonly CliLogEntry[];
  turns: readonly number[];
}

function startsOf(input: CompactionCheckInput, turn: number): StartEntry[] {
  return input.log.filter(
    (entry): entry is StartEntry =>
      entry.event === 'start' && entry.cli === input.cli && entry.turnIndex === turn && entry.argError === undefined,
  );
}

/** The prompt a start worked on: the prompt the CLI logged after it (gemini's worker), else the one in its argv. */
function promptOf(input: CompactionCheckInput, start: StartEntry): string | undefined {
  const logged = input.log.find(
    (entry): entry is PromptEntry =>
      entry.event === 'prompt' &&
      entry.cli === input.cli &&
      entry.turnIndex === start.turnIndex &&
      entry.time >= start.time,
  );
  return logged?.prompt ?? start.prompt;
}

/** What a CLI that does not compact on the command for a shim does with `/compact` (HOW-CAPTURED.md, captures 7). */
const COMMAND_EFFECT: Record<OfficialCliName, string> = {
  gemini: 'sends it to the model as text and compacts nothing',
  codex: 'sends it to the model as text and compacts nothing',
  copilot: 'compacts its own session but prints neither the summary nor a boundary, so the shim cannot show either',
  claude: 'compacts on it',
};

/** The summary request of a `/compact` turn: never the command itself, always the hints. */
function summaryRequestFindings(input: CompactionCheckInput, turn: number, start: StartEntry): string[] {
  const received = promptOf(input, start);
  if (received === undefined) return [];
  const command = input.scenario.turns[turn]!.prompt;
  if (isCompactPrompt(received) || received.includes(command.trim()))
    return [
      `turn ${turn + 1}: the shim passed ${JSON.stringify(command)} to ${input.cli}, which ${COMMAND_EFFECT[input.cli]}`,
    ];
  const hints = compactHints(command);
  if (hints && !squash(received).includes(squash(hints)))
    return [
      `turn ${turn + 1}: the summary request ${input.cli} received does not carry the hints ${JSON.stringify(hints)}`,
    ];
  return [];
}

/**
 * Whether a start continued a CLI session an earlier start used. `resume` alone does not say: copilot's
 * `--session-id` names the session it creates as well as the one it continues.
 */
function continuesEarlierSession(input: CompactionCheckInput, start: StartEntry): boolean {
  if (start.resume === undefined) return false;
  if (start.sessionId === '' || start.sessionId === undefined) return true;
  return input.log.some(
    (entry) =>
      entry.event === 'start' &&
      entry.cli === input.cli &&
      entry !== start &&
      entry.time <= start.time &&
      entry.turnIndex < start.turnIndex &&
      entry.sessionId === start.sessionId,
  );
}

/** The turn after a compaction through the CLI: a new CLI session whose prompt carries the summary. */
function freshSessionFindings(input: CompactionCheckInput, turn: number, start: StartEntry): string[] {
  if (continuesEarlierSession(input, start))
    return [
      `turn ${turn + 1}: ${input.cli} resumed ${JSON.stringify(start.resume)}, the CLI session turn ${turn} compacted: the CLI still sends the whole history`,
    ];
  const summary = scriptedSummary(input.scenario.turns[turn - 1]);
  const received = promptOf(input, start);
  if (summary && received !== undefined && !squash(received).includes(squash(summary)))
    return [
      `turn ${turn + 1}: ${input.cli} started a new session whose prompt does not carry turn ${turn}'s summary (${JSON.stringify(summary.slice(0, 60))}): the conversation before the compaction is lost`,
    ];
  return [];
}

/** cli.compaction-through-cli, for a CLI that does not run `/compact` itself. */
export function checkCompactionThroughCli(input: CompactionCheckInput): Finding[] {
  if (!compactsThroughCli(input.cli)) return [];
  const messages: string[] = [];
  for (const turn of input.turns) {
    const role = compactionRole(input.scenario, turn);
    const start = startsOf(input, turn)[0];
    if (!start) continue;
    if (role === 'nothing-to-compact')
      messages.push(
        `turn ${turn + 1}: a /compact of a session with no history started ${input.cli}; there is nothing to summarize`,
      );
    else if (role !== 'none') messages.push(...summaryRequestFindings(input, turn, start));
    if (followsCompactionThroughCli(input.cli, input.scenario, turn))
      messages.push(...freshSessionFindings(input, turn, start));
  }
  return messages.map((message) => runFinding('cli.compaction-through-cli', message));
}
