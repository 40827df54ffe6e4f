// The golden comparison (R10) per process and turn, and the check that text arrives as deltas.

import { isClaudeDialect, withoutErrorMessage } from '../../golden/compare/claude-forms.js';
import { compactionComparison, comparedPart } from '../../golden/compare/compaction-forms.js';
import { compareWithGolden } from '../../golden/compare/golden-compare.js';
import { goldenFileName, readGolden } from '../../golden/compare/golden-files.js';
import { buildTurnModels, type TurnModel } from '../../golden/golden-model.js';
import type { NormaliseContext } from '../../golden/normalise.js';
import type { OfficialCliBehaviour } from '../../official-cli/behaviour.js';
import { toCanonicalEvents } from '../../protocol/canonical.js';
import type { StreamDialect } from '../../protocol/dialect.js';
import { runFinding } from '../../rules/finding.js';
import { checkNotVerified } from '../../rules/not-verified.js';
import type { Finding } from '../../rules/types.js';
import type { ExecutedProcess } from '../execution/execute-run.js';
import { isAssistantText, isStreamEventText } from '../execution/live-stdout.js';
import type { CheckInput, CheckResult } from './check-types.js';
import { compareKilledWithGolden } from './kill-checks.js';
import { missedAMoment } from './moment-checks.js';
import { about, eventsOf, prefixed } from './run-events.js';

/** Which process of the run is compared, the paths its stdout normalises, the official CLI it went through. */
export interface GoldenPlace {
  index: number;
  context: NormaliseContext;
  official: OfficialCliBehaviour | undefined;
}

/** The comparison's findings and what it could not judge, and the golden's text (for the HTML report). */
export interface GoldenResult extends CheckResult {
  golden: string | undefined;
}

/** The turns the golden describes and the turns the stdout shows, both as a correct shim would print them. */
interface ComparedTurns {
  expected: TurnModel[];
  observed: TurnModel[];
}

export function goldenChecks(input: CheckInput, process: ExecutedProcess, place: GoldenPlace): GoldenResult {
  const goldenIndex = input.persistent ? 0 : place.index;
  const golden = readGolden(input.scenario.dir, goldenIndex);
  const fileLabel = `transcripts/${input.scenario.id}/${goldenFileName(goldenIndex)}`;
  if (!golden) {
    // No rule: the whole golden comparison (golden.text, golden.tool-calls, ...) is left out.
    const missing = checkNotVerified(
      undefined,
      'harness',
      `golden comparison: ${fileLabel} does not exist (generate it with \`yume-conformance goldens --update\`)`,
    );
    return { findings: [], notVerified: [missing], golden: undefined };
  }
  const judged = { golden: golden.toString('utf8') };
  const turns = comparedTurns(input, process, golden, place);
  const missed = missedAMoment(process);
  if (missed) {
    // The interrupt or kill came before its moment: the turn's stdout is not the one the golden describes.
    const note = about(
      process.label,
      `${fileLabel} not compared: the turn was interrupted or killed by the fallback, before the scripted moment (${missed.moment})`,
    );
    const notVerified = checkNotVerified('golden.text', missed.undecided ? 'machine' : 'harness', note);
    return { ...judged, findings: [], notVerified: [notVerified] };
  }
  if (process.killed) {
    const killed = compareKilledWithGolden(turns.expected, turns.observed, fileLabel, `stdout of ${process.label}`);
    return { ...judged, findings: prefixed(killed, process.label), notVerified: [] };
  }
  const { expected, observed, partial } = errorTextsSetApart(
    input,
    process,
    compactionSetApart(input, process, turns),
    place.official,
  );
  const compared = compareWithGolden({ label: fileLabel, turns: expected }, observed, `stdout of ${process.label}`);
  return { ...judged, findings: [...prefixed(compared, process.label), ...partial], notVerified: [] };
}

function comparedTurns(input: CheckInput, process: ExecutedProcess, golden: Buffer, place: GoldenPlace): ComparedTurns {
  const { context, official } = place;
  const expected: TurnModel[] = buildTurnModels(toCanonicalEvents(golden), {});
  const observed = buildTurnModels(eventsOf(process), context);
  if (!official) return { expected, observed };
  // Type-B: compare with what a correct translator of this CLI can print (R10, harness/official-cli/omissions.ts).
  const turns = process.turns.map((turn) => input.scenario.turns[turn]!);
  return {
    expected: official.adjustGoldens(expected, turns, {
      ...context,
      workspace: input.workspace,
      requests: input.requests,
      log: input.cli?.log ?? [],
      turnIndexes: process.turns,
    }),
    observed: official.adjustObserved(observed, turns),
  };
}

/** Compaction turns compared by what R21 leaves to the golden (golden/compare/compaction-forms.ts). */
function compactionSetApart(input: CheckInput, process: ExecutedProcess, turns: ComparedTurns): ComparedTurns {
  const expected = [...turns.expected];
  const observed = [...turns.observed];
  process.turns.forEach((turnIndex, position) => {
    const at = input.persistent ? turnIndex : position;
    if (!expected[at] || !observed[at]) return;
    const how = compactionComparison(input.scenario, turnIndex, observed[at]);
    expected[at] = comparedPart(expected[at]!, how);
    observed[at] = comparedPart(observed[at]!, how);
  });
  return { expected, observed };
}

/**
 * The last text stretch of a provider-error turn is the error message (Claude envelopes) or the partial text
 * before the fault (flat): not compared in either dialect; the partial text is only a SHOULD.
 */
function errorTextsSetApart(
  input: CheckInput,
  process: ExecutedProcess,
  turns: ComparedTurns,
  official: OfficialCliBehaviour | undefined,
): ComparedTurns & { partial: Finding[] } {
  const expected = [...turns.expected];
  const observed = [...turns.observed];
  const partial: Finding[] = [];
  process.turns.forEach((turnIndex, position) => {
    const turn = input.scenario.turns[turnIndex]!;
    const at = input.persistent ? turnIndex : position;
    if (!turn.expect.isError || turn.interrupt || !expected[at] || !observed[at]) return;
    // A CLI that drops a malformed event ends the turn as a success: no fault, no partial text.
    if (official?.ownsOutcome(turn)) return;
    const want = withoutErrorMessage(expected[at]!);
    const got = withoutErrorMessage(observed[at]!);
    expected[at] = want.turn;
    observed[at] = got.turn;
    if (want.dropped && !(got.dropped?.text ?? '').startsWith(want.dropped.text)) {
      partial.push(
        runFinding(
          'golden.partial-text',
          about(
            process.label,
            `turn ${turnIndex + 1}: the text streamed before the fault, ${JSON.stringify(want.dropped.text)}, is not shown`,
          ),
          got.dropped ? { line: got.dropped.lines[0]! } : {},
        ),
      );
    }
  });
  return { expected, observed, partial };
}

/** `stream_event` text deltas count as streamed text only in Claude envelopes: a flat stream owes `text` lines. */
export function deltaOnlyTextCheck(process: ExecutedProcess, dialect: StreamDialect): Finding[] {
  if (isClaudeDialect(dialect)) return [];
  const first = process.live.events.find((timed) => isAssistantText(timed.event));
  if (!first || !isStreamEventText(first.event)) return [];
  return [
    runFinding(
      'streaming.incremental',
      about(
        process.label,
        `the first streamed text came as a \`stream_event\` delta (line ${first.event.line}), which counts only in Claude envelopes; print \`text\` lines as chunks arrive`,
      ),
      { line: first.event.line },
    ),
  ];
}
