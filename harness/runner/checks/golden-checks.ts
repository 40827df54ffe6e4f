// The golden comparison (R10) per process and turn, and the check that text arrives as deltas.

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
import { isClaudeDialect, withoutErrorMessage } from '../golden/claude-forms.js';
import { compareWithGolden } from '../golden/golden-compare.js';
import { goldenFileName, readGolden } from '../golden/golden-files.js';
import { undecidedByMachine } from '../results/machine-undecided.js';
import type { CheckInput, CheckOutput } from './check-types.js';
import { compareKilledWithGolden } from './kill-checks.js';
import { missedAMoment } from './moment-checks.js';
import { about, eventsOf, prefixed } from './run-events.js';

export function goldenChecks(
  input: CheckInput,
  process: ExecutedProcess,
  index: number,
  context: NormaliseContext,
  out: CheckOutput,
  official: OfficialCliBehaviour | undefined,
): Finding[] {
  const goldenIndex = input.persistent ? 0 : index;
  const golden = readGolden(input.scenario.dir, goldenIndex);
  const fileLabel = `transcripts/${input.scenario.id}/${goldenFileName(goldenIndex)}`;
  out.goldens[index] = golden?.toString('utf8');
  if (!golden) {
    // No rule: the whole golden comparison (golden.text, golden.tool-calls, ...) is left out.
    out.notVerified.push(
      checkNotVerified(
        undefined,
        'harness',
        `golden comparison: ${fileLabel} does not exist (generate it with \`yume-conformance goldens --update\`)`,
      ),
    );
    return [];
  }
  let expected: TurnModel[] = buildTurnModels(toCanonicalEvents(golden), {});
  let observed = buildTurnModels(eventsOf(process), context);
  if (official) {
    // Type-B: compare with what a correct translator of this CLI can print (R10, harness/official-cli/omissions.ts).
    const turns = process.turns.map((turn) => input.scenario.turns[turn]!);
    expected = official.adjustGoldens(expected, turns, {
      ...context,
      workspace: input.workspace,
      requests: input.requests,
    });
    observed = official.adjustObserved(observed, turns);
  }
  const missed = missedAMoment(process);
  if (missed) {
    // The interrupt or kill came before its moment: the turn's stdout is not the one the golden describes.
    const note = about(
      process.label,
      `${fileLabel} not compared: the turn was interrupted or killed by the fallback, before the scripted moment (${missed.moment})`,
    );
    if (missed.undecided) undecidedByMachine(out, 'golden.text', note);
    else out.notVerified.push(checkNotVerified('golden.text', 'harness', note));
    return [];
  }
  if (process.killed)
    return prefixed(
      compareKilledWithGolden(expected, observed, fileLabel, `stdout of ${process.label}`),
      process.label,
    );
  const partial: Finding[] = [];
  // The last text stretch of a provider-error turn is the error message (Claude envelopes) or the partial text
  // before the fault (flat): not compared in either dialect; the partial text is only a SHOULD.
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
  return [
    ...prefixed(
      compareWithGolden({ label: fileLabel, turns: expected }, observed, `stdout of ${process.label}`),
      process.label,
    ),
    ...partial,
  ];
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
