// Checks that only a fake official CLI can make: how the shim started the CLI (argv, stdin, how often),
// whether it left the CLI's tools to the CLI, and whether an interrupt reached the CLI's process group.
// Their rules are data in harness/rules/fake-cli-rules.ts. The runner calls checkFakeCliRun for the CLI provider
// ids (R7: gemini-cli, codex-cli, claude-cli, copilot-cli, and the yume-app gemini/openai ids when the shim used the
// CLI on PATH).
import path from 'node:path';
import type { CanonicalEvent } from '../protocol/canonical.js';
import type { FakeCliRuleId } from '../rules/fake-cli-rules.js';
import { runFinding } from '../rules/finding.js';
import type { Finding } from '../rules/types.js';
import {
  checkCompactionThroughCli,
  compactionRole,
  compactsThroughCli,
  followsCompactionThroughCli,
} from './compaction-checks.js';
import { checkCliExits } from './exit-checks.js';
import type { OfficialCliName, ScriptScenario } from './script-types.js';
import type { CliLogEntry, PromptEntry, StartEntry, ToolEntry, ToolStartEntry } from './state.js';
import { snapshotWorkspace } from './workspace-tools.js';

export interface FakeCliRunInput {
  /** The fake the shim was expected to use (gemini-cli → gemini, codex-cli → codex, claude-cli → claude, copilot-cli → copilot). */
  cli: OfficialCliName;
  scenario: ScriptScenario;
  /** readFakeCliLog(logFile) after the run. */
  log: readonly CliLogEntry[];
  /** 0-based turns the shim ran; default every turn of the scenario. */
  turns?: readonly number[];
  /** The shim's canonical events per turn index (spawn-per-turn: one process per turn), when parsed. */
  eventsByTurn?: ReadonlyArray<readonly CanonicalEvent[] | undefined>;
  /** The run's workspace, to see that the CLI's changes were not redone. */
  workspace?: string;
  /**
   * 'required' (default): the shim must use the CLI. 'if-used': the yume-app ids offer a REST mock too;
   * a shim that never started the CLI is judged by the REST checks instead, and these return nothing.
   */
  usage?: 'required' | 'if-used';
}

function finding(rule: FakeCliRuleId, message: string): Finding {
  return runFinding(rule, message);
}

const ofTurn = <T extends CliLogEntry>(
  entries: readonly CliLogEntry[],
  kind: T['event'],
  cli: OfficialCliName,
  turn: number,
) => entries.filter((entry): entry is T => entry.event === kind && entry.cli === cli && entry.turnIndex === turn);

const argvText = (argv: readonly string[]) => argv.map((argument) => JSON.stringify(argument)).join(' ');

/** cli.one-start-per-turn and cli.no-rerun-after-tool. */
export function checkStarts(input: FakeCliRunInput): Finding[] {
  const findings: Finding[] = [];
  for (const turn of turnsOf(input)) {
    const starts = ofTurn<StartEntry>(input.log, 'start', input.cli, turn);
    if (starts.length === 0) {
      // A /compact of a session with no history needs no CLI call (docs/protocol.md#r21-compaction).
      if (compactionRole(input.scenario, turn) !== 'nothing-to-compact')
        findings.push(finding('cli.one-start-per-turn', `turn ${turn + 1}: the shim never started ${input.cli}`));
      continue;
    }
    if (starts.length > 1) {
      findings.push(
        finding(
          'cli.one-start-per-turn',
          `turn ${turn + 1}: ${input.cli} was started ${starts.length} times (argv of the second start: ${argvText(starts[1]!.argv)})`,
        ),
      );
    }
    const firstTool = input.log.find(
      (entry) => entry.event === 'tool' && entry.cli === input.cli && entry.turnIndex === turn,
    );
    if (firstTool) {
      const later = starts.filter((start) => start.time >= firstTool.time && start.pid !== firstTool.pid);
      if (later.length > 0) {
        findings.push(
          finding(
            'cli.no-rerun-after-tool',
            `turn ${turn + 1}: ${input.cli} ran ${(firstTool as ToolEntry).name} and was then started ${later.length} more time(s) for the same prompt`,
          ),
        );
      }
    }
  }
  return findings;
}

/**
 * cli.prompt-not-option: every start received exactly the turn's prompt, and its argv was accepted. A `/compact`
 * that a CLI cannot run is a summary request instead, which cli.compaction-through-cli judges.
 */
export function checkPrompt(input: FakeCliRunInput): Finding[] {
  const findings: Finding[] = [];
  for (const turn of turnsOf(input)) {
    const expected = input.scenario.turns[turn]?.prompt;
    if (expected === undefined) continue;
    const summaryRequest = compactsThroughCli(input.cli) && compactionRole(input.scenario, turn) !== 'none';
    for (const start of ofTurn<StartEntry>(input.log, 'start', input.cli, turn)) {
      if (start.argError !== undefined) {
        const hint = expected.startsWith('-') ? ' (the prompt starts with "-" and was read as options)' : '';
        findings.push(
          finding(
            'cli.prompt-not-option',
            `turn ${turn + 1}: ${input.cli} refused its arguments${hint}: ${start.argError.split('\n').filter(Boolean).at(-1)}; argv: ${argvText(start.argv)}`,
          ),
        );
        continue;
      }
      const prompts = input.log.filter(
        (entry): entry is PromptEntry =>
          entry.event === 'prompt' && entry.cli === input.cli && entry.turnIndex === turn,
      );
      // The worker process of gemini logs the prompt; match it to the start by time order.
      const received = prompts.find((entry) => entry.time >= start.time)?.prompt ?? start.prompt;
      if (received === undefined) {
        findings.push(
          finding(
            'cli.prompt-not-option',
            `turn ${turn + 1}: ${input.cli} never received a prompt; argv: ${argvText(start.argv)}`,
          ),
        );
        continue;
      }
      // The shim may add context (earlier turns) around the prompt; the prompt itself must arrive whole.
      if (!summaryRequest && !received.includes(expected.trim())) {
        findings.push(
          finding(
            'cli.prompt-not-option',
            `turn ${turn + 1}: ${input.cli} received the prompt ${JSON.stringify(received)} instead of ${JSON.stringify(expected)}; argv: ${argvText(start.argv)}`,
          ),
        );
      }
    }
  }
  return findings;
}

/** cli.stdin-closed. */
export function checkStdin(input: FakeCliRunInput): Finding[] {
  return input.log
    .filter(
      (entry) => entry.event === 'stdin-open' && entry.cli === input.cli && turnsOf(input).includes(entry.turnIndex),
    )
    .map((entry) =>
      finding(
        'cli.stdin-closed',
        `turn ${entry.turnIndex + 1}: ${input.cli} waited ${(entry as { waitedMs: number }).waitedMs} ms for stdin EOF; the shim left its stdin open`,
      ),
    );
}

/**
 * cli.resume-continues-session: a turn with `resume` passes the CLI session id of the previous turn; the first
 * turn after a compaction through the CLI starts a new one instead (cli.compaction-through-cli judges it).
 */
export function checkResume(input: FakeCliRunInput): Finding[] {
  const findings: Finding[] = [];
  for (const turn of turnsOf(input)) {
    if (turn === 0 || input.scenario.turns[turn]?.resume !== true) continue;
    if (followsCompactionThroughCli(input.cli, input.scenario, turn)) continue;
    const previous = ofTurn<StartEntry>(input.log, 'start', input.cli, turn - 1).at(-1);
    const current = ofTurn<StartEntry>(input.log, 'start', input.cli, turn)[0];
    if (!previous || !current) continue;
    if (current.resume === undefined) {
      findings.push(
        finding(
          'cli.resume-continues-session',
          `turn ${turn + 1}: ${input.cli} was started without a resume id, so it forgot turn ${turn}; argv: ${argvText(current.argv)}`,
        ),
      );
    } else if (current.sessionId !== previous.sessionId) {
      findings.push(
        finding(
          'cli.resume-continues-session',
          `turn ${turn + 1}: ${input.cli} was asked to resume ${JSON.stringify(current.resume)}, but turn ${turn} ran in CLI session ${previous.sessionId}`,
        ),
      );
    }
  }
  return findings;
}

/** tool.not-run-twice: each scripted call ran once per turn, and what it changed was not changed again. */
export function checkToolsRunOnce(input: FakeCliRunInput): Finding[] {
  const findings: Finding[] = [];
  for (const turn of turnsOf(input)) {
    const counts = new Map<string, number>();
    for (const entry of ofTurn<ToolEntry>(input.log, 'tool', input.cli, turn))
      counts.set(entry.callId, (counts.get(entry.callId) ?? 0) + 1);
    for (const [callId, count] of counts) {
      if (count > 1)
        findings.push(
          finding('tool.not-run-twice', `turn ${turn + 1}: the scripted call ${callId} was executed ${count} times`),
        );
    }
  }
  if (input.workspace) {
    const last = new Map<string, string | null>();
    for (const entry of input.log)
      if (entry.event === 'tool' && entry.cli === input.cli)
        for (const [file, hash] of Object.entries(entry.effects)) last.set(file, hash);
    if (last.size > 0) {
      const now = snapshotWorkspace(input.workspace);
      for (const [file, hash] of last) {
        const current = now.get(file) ?? null;
        if (current !== hash) {
          findings.push(
            finding(
              'tool.not-run-twice',
              `${path.join(input.workspace, file)} changed after ${input.cli} left it (${describe(hash)} → ${describe(current)}): the shim ran the tool again or wrote the file itself`,
            ),
          );
        }
      }
    }
  }
  return findings;
}

const describe = (hash: string | null) =>
  hash === null ? 'absent' : hash === 'dir' ? 'a directory' : `content ${hash.slice(0, 8)}`;

/** cli.tool-outcome-matches: one tool_result per CLI tool, in order, with the CLI's reported is_error. */
export function checkToolOutcomes(input: FakeCliRunInput): Finding[] {
  const findings: Finding[] = [];
  if (!input.eventsByTurn) return findings;
  for (const turn of turnsOf(input)) {
    const events = input.eventsByTurn[turn];
    if (!events) continue;
    // A killed turn cannot answer its running tool: nothing is required after the kill.
    if (input.scenario.turns[turn]?.kill) continue;
    const starts = ofTurn<StartEntry>(input.log, 'start', input.cli, turn);
    if (starts.length === 0) continue;
    // Judged on the first start, even when there were several (cli.one-start-per-turn reports those): a
    // translator that restarts the CLI must still report the first run's tools as that run reported them.
    const from = input.log.indexOf(starts[0]!);
    const until = starts[1] ? input.log.indexOf(starts[1]) : input.log.length;
    const firstRun = input.log.slice(from, until);
    const started = ofTurn<ToolStartEntry>(firstRun, 'tool-start', input.cli, turn);
    const done = ofTurn<ToolEntry>(firstRun, 'tool', input.cli, turn);
    const expected = started.map((entry) => {
      const finished = done.find((candidate) => candidate.cliToolId === entry.cliToolId && candidate.pid === entry.pid);
      return {
        name: entry.name,
        cliToolId: entry.cliToolId,
        isError: finished ? finished.reportedIsError : true,
        interrupted: !finished,
      };
    });
    const results = events.filter(
      (event): event is Extract<CanonicalEvent, { kind: 'tool_result' }> => event.kind === 'tool_result',
    );
    if (results.length < expected.length) {
      findings.push(
        finding(
          'cli.tool-outcome-matches',
          `turn ${turn + 1}: ${input.cli} ran ${expected.length} tool(s) but the shim printed ${results.length} tool_result(s)`,
        ),
      );
    }
    expected.forEach((tool, index) => {
      const result = results[index];
      if (!result || result.isError === tool.isError) return;
      const cliSaid = tool.interrupted ? 'was interrupted' : tool.isError ? 'reported a failure' : 'reported success';
      findings.push(
        finding(
          'cli.tool-outcome-matches',
          `turn ${turn + 1}: ${tool.name} (${tool.cliToolId}) ${cliSaid}, but the shim's tool_result on line ${result.line} has is_error: ${result.isError}`,
        ),
      );
    });
  }
  return findings;
}

/** cli.interrupt-reaches-cli: in an interrupted turn the signal reached the process doing the work. */
export function checkInterrupt(input: FakeCliRunInput): Finding[] {
  const findings: Finding[] = [];
  for (const turn of turnsOf(input)) {
    if (!input.scenario.turns[turn]?.interrupt) continue;
    const signals = input.log.filter(
      (entry) => entry.event === 'signal' && entry.cli === input.cli && entry.turnIndex === turn,
    ) as Array<Extract<CliLogEntry, { event: 'signal' }>>;
    const launcher = signals.find((entry) => entry.handled === 'ignored' || entry.handled === 'died');
    // A worker that got the signal while it was already ending ('exiting') was reached all the same.
    const reachedWorker = signals.some((entry) => entry.handled === 'stopped' || entry.handled === 'exiting');
    if (launcher && !reachedWorker) {
      const what =
        launcher.handled === 'ignored'
          ? `launcher (pid ${launcher.pid}) got ${launcher.signal} and ignored it; its worker was never signalled`
          : `loader (pid ${launcher.pid}) got ${launcher.signal} and died of it; its native binary was never signalled and runs on, orphaned`;
      findings.push(finding('cli.interrupt-reaches-cli', `turn ${turn + 1}: ${input.cli}'s ${what}`));
    }
  }
  return findings;
}

function turnsOf(input: FakeCliRunInput): number[] {
  return [...(input.turns ?? input.scenario.turns.map((_, index) => index))];
}

/** Whether the log comes from the real-CLI wrapper (real/observed-checks.ts judges those runs). */
export function loggedByWrapper(log: readonly CliLogEntry[]): boolean {
  return log.some((entry) => entry.event === 'start' && entry.observedBy === 'wrapper');
}

/** Every fake-CLI check of one run. */
export function checkFakeCliRun(input: FakeCliRunInput): Finding[] {
  if (input.usage === 'if-used' && !input.log.some((entry) => entry.event === 'start' && entry.cli === input.cli))
    return [];
  return [
    ...checkCliExits({
      cli: input.cli,
      scenario: input.scenario,
      log: input.log,
      turns: turnsOf(input),
      ...(input.eventsByTurn ? { eventsByTurn: input.eventsByTurn } : {}),
    }),
    ...checkStarts(input),
    ...checkPrompt(input),
    ...checkStdin(input),
    ...checkResume(input),
    ...checkCompactionThroughCli({ ...input, turns: turnsOf(input) }),
    ...checkToolsRunOnce(input),
    ...checkToolOutcomes(input),
    ...checkInterrupt(input),
  ];
}
