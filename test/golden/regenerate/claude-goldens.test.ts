// The committed Claude Code goldens (transcripts/<id>/claude-code*.jsonl, recorded by
// `yume-conformance goldens --update --from claude-code`) against the reference shim's goldens, on what a golden
// compares: text per stretch, tool calls with their pairing and is_error, tool results by substance, the result's
// is_error and usage. They may differ only in the points where Claude Code's own form also conforms, each listed
// below with its reason; any other difference fails.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withoutErrorMessage } from '../../../harness/golden/compare/claude-forms.js';
import { compactionComparison, comparedPart } from '../../../harness/golden/compare/compaction-forms.js';
import { compareWithGolden } from '../../../harness/golden/compare/golden-compare.js';
import { goldenFileName, readGolden } from '../../../harness/golden/compare/golden-files.js';
import { checkToolOutputs } from '../../../harness/golden/compare/tool-output-check.js';
import { buildTurnModels, type TurnModel } from '../../../harness/golden/golden-model.js';
import { claudeGoldenFileName, readClaudeGolden } from '../../../harness/golden/regenerate/claude-goldens.js';
import { loadScenario } from '../../../harness/mock/scenario/scenario-loader.js';
import type { LoadedScenario } from '../../../harness/mock/scenario/scenario-types.js';
import type { CanonicalEvent } from '../../../harness/protocol/canonical.js';
import { toCanonicalEvents } from '../../../harness/protocol/canonical.js';
import { compareKilledWithGolden } from '../../../harness/runner/checks/kill-checks.js';
import { loadPreset } from '../../../harness/suite/preset.js';
import { validateStream } from '../../../harness/validate/validate-stream.js';
import { transcripts } from '../../runner/helpers/run-fixture.js';

/**
 * Where the two may differ, and why. Only the first changes what is compared: the others are fields the
 * comparison never looks at, listed so that the table is the whole list of allowed differences.
 */
const ALLOWED_DIFFERENCES = [
  {
    point: 'provider error shown',
    reason:
      'claude shows a provider error as assistant text before its error result; the last text stretch of an error turn is the error message (or, in the flat dialect, the partial text before the fault, which is only a SHOULD) and is not compared',
  },
  {
    point: 'interrupt acknowledged',
    reason: 'a user message "[Request interrupted by user]" instead of an `interrupt` line (neither is compared)',
  },
  { point: 'retries reported', reason: '`system` `api_retry` lines instead of `result.errors` (neither is compared)' },
  { point: 'text streamed', reason: 'whole blocks instead of chunks (the text of a stretch is compared joined)' },
  {
    point: 'compaction shown',
    reason:
      'a /compact turn is compared on its result alone: claude puts the summary in a synthetic user message and leaves the result text empty, the reference shim puts it in the result text (R21 allows both)',
  },
  {
    point: 'nothing to compact',
    reason:
      'a /compact of an empty session: claude ends with a 0/0 success and no boundary, the reference shim with an error result saying so; R21 allows both, and neither is compared',
  },
  {
    point: 'killed process',
    reason:
      'a process killed mid-answer (kill-and-resume) is compared only on what it printed before the kill: claude prints whole blocks, so it may have printed only its init line',
  },
] as const;

const preset = loadPreset('claude-code');
const listed = [...new Set(preset.runs.flatMap((run) => run.scenarios))];

/**
 * The turn models of a golden with the allowed differences applied: error-message stretches left out, compaction
 * turns narrowed as the runner narrows them.
 */
function comparable(events: CanonicalEvent[], scenario: LoadedScenario, turnOffset: number): TurnModel[] {
  return buildTurnModels(events, {}).map((turn, index) => {
    const scripted = scenario.turns[turnOffset + index];
    const shown = comparedPart(turn, compactionComparison(scenario, turnOffset + index, turn));
    return scripted?.expect.isError && !scripted.interrupt && !scripted.kill ? withoutErrorMessage(shown).turn : shown;
  });
}

/** Every difference between the reference shim's golden and Claude Code's for process `index` of a scenario. */
function differences(scenario: LoadedScenario, index: number, claude: CanonicalEvent[]): string[] {
  const reference = readGolden(scenario.dir, index);
  if (!reference) return [`${goldenFileName(index)} is missing`];
  const expected = comparable(toCanonicalEvents(reference), scenario, index);
  const observed = comparable(claude, scenario, index);
  const label = `transcripts/${scenario.id}/${goldenFileName(index)}`;
  // A killed process is compared only on what it printed before the kill (each program gets as far as it gets).
  const found = scenario.turns[index]?.kill
    ? compareKilledWithGolden(expected, observed, label, claudeGoldenFileName(index))
    : compareWithGolden({ label, turns: expected }, observed, claudeGoldenFileName(index));
  observed.forEach((turn, position) => {
    const scripted = scenario.turns[index + position];
    if (scripted) found.push(...checkToolOutputs(scripted, turn, { context: {} }));
  });
  return found.map((finding) => `${finding.rule}: ${finding.message}`);
}

describe('Claude Code goldens', () => {
  it('exist for every scenario of the claude-code preset that the package holds, and pass validate --profile spec', () => {
    expect(listed.length).toBeGreaterThanOrEqual(10);
    for (const id of listed) {
      const scenario = loadScenario(path.join(transcripts, id));
      const processes = scenario.turns.filter((turn, index) => index === 0 || turn.resume).length;
      for (let index = 0; index < processes; index += 1) {
        const file = path.join(scenario.dir, claudeGoldenFileName(index));
        const result = validateStream(readFileSync(file), { profile: 'spec', mode: 'spawn-per-turn' });
        // A process killed mid-answer owes no ending (it may have printed its init line alone).
        const killed = scenario.turns[index]?.kill !== undefined;
        expect(
          result.findings
            .filter((finding) => finding.severity === 'MUST' && !(killed && finding.rule === 'turn.result-last'))
            .map((finding) => finding.rule),
          file,
        ).toEqual([]);
        if (!killed) expect(result.dialect, file).toBe('claude-envelope');
      }
    }
  });

  it.each(listed)('%s: the same as the reference shim except in the listed points', (id) => {
    const scenario = loadScenario(path.join(transcripts, id));
    for (let index = 0; ; index += 1) {
      const claude = readClaudeGolden(scenario.dir, index);
      if (!claude) {
        expect(index, `${id} has no ${claudeGoldenFileName(index)}`).toBeGreaterThan(0);
        break;
      }
      expect(differences(scenario, index, claude)).toEqual([]);
    }
  });

  it('lists each allowed difference with its reason', () => {
    for (const difference of ALLOWED_DIFFERENCES) expect(difference.reason.length).toBeGreaterThan(30);
  });

  it('fails on any other difference: other text, another tool input, another outcome, other usage', () => {
    const scenario = loadScenario(path.join(transcripts, 'single-tool'));
    const claude = readClaudeGolden(scenario.dir, 0)!;
    const mutate = (change: (event: CanonicalEvent) => CanonicalEvent) => differences(scenario, 0, claude.map(change));
    expect(
      mutate((event) => (event.kind === 'text' ? { ...event, text: `${event.text}!` } : event)).join('\n'),
    ).toMatch(/golden\.text/);
    expect(
      mutate((event) => (event.kind === 'tool_use' ? { ...event, input: { file_path: 'other.txt' } } : event)).join(
        '\n',
      ),
    ).toMatch(/golden\.tool-calls/);
    expect(
      mutate((event) => (event.kind === 'tool_result' ? { ...event, isError: !event.isError } : event)).join('\n'),
    ).toMatch(/golden\.tool-calls/);
    expect(
      mutate((event) =>
        event.kind === 'result' ? { ...event, usage: { inputTokens: 1, outputTokens: 1 } } : event,
      ).join('\n'),
    ).toMatch(/usage\.totals/);
    expect(
      mutate((event) => (event.kind === 'tool_result' ? { ...event, content: 'nothing' } : event)).join('\n'),
    ).toMatch(/golden\.tool-results/);
  });

  it('leaves out the error message only in error turns: a changed text in a successful turn still differs', () => {
    const scenario = loadScenario(path.join(transcripts, 'fault-401'));
    const claude = readClaudeGolden(scenario.dir, 0)!;
    expect(differences(scenario, 0, claude)).toEqual([]);
    const plain = loadScenario(path.join(transcripts, 'plain-text'));
    const appended = [...readClaudeGolden(plain.dir, 0)!];
    const result = appended.findIndex((event) => event.kind === 'result');
    appended.splice(result, 0, { kind: 'text', line: 0, text: 'API Error: 500' });
    expect(differences(plain, 0, appended).join('\n')).toMatch(/golden\.text/);
  });
});
