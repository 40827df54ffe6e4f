// How each start of the official CLI ended, against what the shim said: a CLI that refused to start says why
// on stderr (codex outside a git repository: "Not inside a trusted directory ..."), and a CLI that exited
// non-zero before its own final event did not finish the turn, so a success result after it hides the real
// failure. Both findings quote the exit code and the CLI's last stderr line, so the cause is named, not only
// its consequences (an empty answer, an unchanged workspace). A CLI the shim ended after its final event, or
// one stopped by an interrupt, does not count.
import type { CanonicalEvent, ResultEvent } from '../protocol/canonical.js';
import { runFinding } from '../rules/finding.js';
import type { Finding } from '../rules/types.js';
import type { OfficialCliName, ScriptScenario } from './script-types.js';
import type { CliLogEntry, ExitEntry, StartEntry } from './state.js';

export interface CliExitInput {
  cli: OfficialCliName;
  scenario: ScriptScenario;
  log: readonly CliLogEntry[];
  turns: readonly number[];
  eventsByTurn?: ReadonlyArray<readonly CanonicalEvent[] | undefined>;
}

interface CliRun {
  start: StartEntry;
  entries: readonly CliLogEntry[];
  /** The exit the CLI's own runtime logged (it knows whether the final event was printed). */
  exit: ExitEntry | undefined;
}

/** Each start of the CLI in `turn`, with the log entries up to the next start. */
function runsOf(input: CliExitInput, turn: number): CliRun[] {
  const starts = input.log.filter(
    (entry): entry is StartEntry => entry.event === 'start' && entry.cli === input.cli && entry.turnIndex === turn,
  );
  return starts.map((start, index) => {
    const from = input.log.indexOf(start);
    const until = starts[index + 1] ? input.log.indexOf(starts[index + 1]!) : input.log.length;
    const entries = input.log.slice(from, until).filter((entry) => entry.cli === input.cli && entry.turnIndex === turn);
    const exit = entries.find((entry): entry is ExitEntry => entry.event === 'exit' && entry.finalEvent !== undefined);
    return { start, entries, exit };
  });
}

function describeExit(cli: OfficialCliName, exit: ExitEntry): string {
  const said = exit.stderrLine ? `; its stderr ends: ${JSON.stringify(exit.stderrLine.slice(0, 200))}` : '';
  return `${cli} exited with code ${exit.code} before its final event${said}`;
}

export function checkCliExits(input: CliExitInput): Finding[] {
  const findings: Finding[] = [];
  for (const turn of input.turns) {
    const scripted = input.scenario.turns[turn];
    if (!scripted || scripted.interrupt || scripted.kill) continue;
    const runs = runsOf(input, turn);
    const failed = runs.filter(
      (run) =>
        run.exit !== undefined &&
        run.exit.code !== 0 &&
        !run.exit.finalEvent &&
        !run.entries.some((entry) => entry.event === 'signal'),
    );
    const success = input.eventsByTurn?.[turn]?.find(
      (event): event is ResultEvent => event.kind === 'result' && !event.isError,
    );
    const first = failed[0];
    if (first?.exit && success) {
      findings.push(
        runFinding(
          'cli.failure-not-success',
          `turn ${turn + 1}: ${describeExit(input.cli, first.exit)}, but the shim printed a success result (line ${success.line})`,
          { line: success.line },
        ),
      );
    }
    // Refused: nothing printed, not an argument error (cli.prompt-not-option names those).
    for (const run of failed) {
      if (run.start.argError !== undefined || (run.exit?.lines ?? 0) > 0) continue;
      findings.push(
        runFinding(
          'cli.refused-to-start',
          `turn ${turn + 1}: ${input.cli} refused to start (exit code ${run.exit!.code}, nothing on stdout)${run.exit!.stderrLine ? `: ${JSON.stringify(run.exit!.stderrLine.slice(0, 200))}` : ''}; argv: ${run.start.argv.map((argument) => JSON.stringify(argument)).join(' ')}`,
        ),
      );
    }
  }
  return findings;
}
