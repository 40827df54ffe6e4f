// What is judged of a turn the runner killed with SIGKILL (the app's stop, kill-and-resume scenarios). A
// killed process cannot finish: no result, no answer to a running tool call, maybe half a line. So its stream
// is judged without the rules that need an ending, its golden only on what it printed before the kill, and
// the tools it leaves behind are a SHOULD (it could not clean up), which the harness ends. What matters is
// the next turn: it resumes, carries the completed turns' history, and the session file still holds them.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describeItem } from '../../golden/compare/golden-compare.js';
import type { ModelItem, TurnModel } from '../../golden/golden-model.js';
import type { LoadedScenario } from '../../mock/scenario/scenario-types.js';
import { runFinding } from '../../rules/finding.js';
import type { Finding } from '../../rules/types.js';
import type { ExecutedProcess } from '../execution/execute-run.js';

/** Stream rules that need a turn to end; a killed turn cannot. */
const NEEDS_AN_ENDING = new Set(['turn.result-last', 'tool.use-answered', 'framing.final-newline']);

/** The stream findings of a killed process, without those the kill itself causes (an unfinished last line too). */
export function killedStreamFindings(findings: Finding[], process: ExecutedProcess): Finding[] {
  const stdout = process.exit.stdout;
  const cutLine =
    stdout.length > 0 && stdout[stdout.length - 1] !== 0x0a ? stdout.toString('latin1').split('\n').length : undefined;
  return findings.filter(
    (finding) => !NEEDS_AN_ENDING.has(finding.rule) && (cutLine === undefined || finding.line !== cutLine),
  );
}

/** The leftovers of a killed process, as process.orphaned-tools (SHOULD): the harness ended them. */
export function orphanedToolFindings(process: ExecutedProcess, label: string): Finding[] {
  const { exit } = process;
  const orphans = [...exit.descendantsLeft, ...(exit.stdioHeldOpen ? exit.descendantsKilled : [])];
  const unique = [...new Map(orphans.map((info) => [info.pid, info])).values()];
  if (unique.length === 0) return [];
  const names = unique.map((info) => `${info.name} (pid ${info.pid})`).join(', ');
  return [
    runFinding(
      'process.orphaned-tools',
      `${label}: ${unique.length} process(es) outlived the shim killed with SIGKILL: ${names}; the harness ended them`,
    ),
  ];
}

function itemsMatchSoFar(want: ModelItem, got: ModelItem, last: boolean): boolean {
  if (want.kind !== got.kind) return false;
  if (want.kind === 'text' && got.kind === 'text')
    return last ? want.text.startsWith(got.text) : want.text === got.text;
  if (want.kind === 'tools' && got.kind === 'tools') {
    const keys = new Set(want.calls.map((call) => call.key));
    return got.calls.every((call) => keys.has(call.key)) && (last || got.calls.length === want.calls.length);
  }
  return true;
}

/**
 * A killed process against its golden: only what it printed before the kill is compared (which may be the
 * init line alone). Each printed item must be the golden's, the last one possibly cut short; nothing is
 * required after it, a result least of all.
 */
export function compareKilledWithGolden(
  expected: TurnModel[],
  observed: TurnModel[],
  goldenLabel: string,
  observedLabel: string,
): Finding[] {
  const want = expected.flatMap((turn) => turn.items).filter((item) => item.kind !== 'result');
  const got = observed.flatMap((turn) => turn.items).filter((item) => item.kind !== 'result');
  for (const [index, item] of got.entries()) {
    const golden = want[index];
    if (golden && itemsMatchSoFar(golden, item, index === got.length - 1)) continue;
    const rule = item.kind === 'tools' || golden?.kind === 'tools' ? 'golden.tool-calls' : 'golden.text';
    return [
      runFinding(
        rule,
        `before the kill ${observedLabel} printed ${describeItem(item)} where ${goldenLabel} has ${golden ? describeItem(golden) : 'nothing more'}`,
        item.lines[0] === undefined ? {} : { line: item.lines[0] },
      ),
    ];
  }
  return [];
}

/**
 * The session file after a kill scenario: it parses, and its history holds every completed turn's prompt
 * (the killed turn's is optional). `file` is the one the last turn reported; the caller checked it exists.
 */
export function killedSessionFindings(scenario: LoadedScenario, file: string, shown: string): Finding[] {
  if (!scenario.turns.some((turn) => turn.kill) || !existsSync(file)) return [];
  let history: unknown;
  try {
    history = (JSON.parse(readFileSync(file, 'utf8')) as { history?: unknown }).history;
  } catch {
    return []; // session.file reports a file that does not parse
  }
  const text = JSON.stringify(history ?? []);
  const missing = scenario.turns.filter(
    (turn) => !turn.kill && !text.includes(JSON.stringify(turn.prompt).slice(1, -1)),
  );
  return missing.map((turn) =>
    runFinding(
      'session.file',
      `${shown} does not hold the completed turn "${turn.prompt.slice(0, 60)}" after a later turn was killed (${path.basename(file)})`,
    ),
  );
}
