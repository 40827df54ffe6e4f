// Small broken translators (test/fixtures/translators/) reproducing the mistakes CLI-wrapping shims make: each one
// fails with the rule that names its bug, on a scenario where the reference translator passes that rule.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../harness/mock/scenario/scenario-loader.js';
import type { OfficialCliName } from '../../harness/official-cli/script-types.js';
import type { Profile } from '../../harness/rules/types.js';
import { ROOT, translatorShim } from './helpers/build-shim.js';
import { type CliScenarioRun, type RunnableScenario, runWithFakeCli } from './helpers/cli-run.js';
import { DASH_PROMPT, SILENT_SIDE_EFFECT } from './helpers/extra-scenarios.js';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'translators');
const committed = (id: string): RunnableScenario => loadScenario(path.join(ROOT, 'transcripts', id));

function rulesOf(run: CliScenarioRun): string[] {
  const stream = run.turns.flatMap((turn) =>
    turn.validation.findings.filter((finding) => finding.severity === 'MUST').map((finding) => finding.rule),
  );
  return [...new Set([...stream, ...run.cliFindings.map((finding) => finding.rule)])];
}

interface BrokenCase {
  fixture: string;
  bug: string;
  cli: OfficialCliName;
  scenario: () => RunnableScenario;
  rules: string[];
  profile?: Profile;
  /** How long the fake's stalled streams wait, for a translator that leaves the CLI stalled. */
  stallTimeoutMs?: number;
}

const CASES: BrokenCase[] = [
  {
    fixture: 'rerun-after-tool.mjs',
    bug: 're-runs the CLI after a tool call',
    cli: 'gemini',
    scenario: () => committed('single-tool'),
    rules: ['cli.no-rerun-after-tool', 'cli.one-start-per-turn', 'tool.not-run-twice'],
  },
  {
    fixture: 'run-tool-twice.mjs',
    bug: 'runs a silent command again itself',
    cli: 'codex',
    scenario: () => SILENT_SIDE_EFFECT,
    rules: ['tool.not-run-twice'],
  },
  {
    fixture: 'success-after-error.mjs',
    bug: 'ends an errored turn with a success result',
    cli: 'gemini',
    scenario: () => committed('fault-500-exhausted'),
    rules: ['error.no-success-after-error'],
  },
  {
    fixture: 'duplicate-tool-ids.mjs',
    bug: 'passes non-unique tool ids',
    cli: 'gemini',
    scenario: () => committed('parallel-tools'),
    rules: ['tool.unique-id'],
  },
  {
    fixture: 'zero-usage.mjs',
    bug: 'reports 0/0 usage',
    cli: 'codex',
    scenario: () => committed('plain-text'),
    rules: ['app.zero-usage-result'],
    profile: 'yume-app',
  },
  {
    fixture: 'passes-compact-to-cli.mjs',
    bug: 'passes /compact to a CLI that sends it to the model as text',
    cli: 'gemini',
    scenario: () => committed('compact'),
    rules: ['cli.compaction-through-cli'],
  },
  {
    fixture: 'positional-prompt.mjs',
    bug: 'passes the prompt where it is parsed as options',
    cli: 'codex',
    scenario: () => DASH_PROMPT,
    rules: ['cli.prompt-not-option'],
  },
  {
    fixture: 'signals-copilot-loader-only.mjs',
    bug: "signals copilot's loader alone on an interrupt",
    cli: 'copilot',
    scenario: () => committed('interrupt'),
    rules: ['cli.interrupt-reaches-cli'],
    stallTimeoutMs: 2_000,
  },
];

describe('broken translators fail with the rule of their bug', () => {
  for (const brokenCase of CASES) {
    it(`${brokenCase.fixture} (${brokenCase.bug}) → ${brokenCase.rules.join(', ')}`, async () => {
      const scenario = brokenCase.scenario();
      const broken = await runWithFakeCli({
        cli: brokenCase.cli,
        scenario,
        shim: path.join(FIXTURES, brokenCase.fixture),
        profile: brokenCase.profile,
        stallTimeoutMs: brokenCase.stallTimeoutMs,
      });
      const brokenRules = rulesOf(broken);
      for (const rule of brokenCase.rules) expect(brokenRules, JSON.stringify(broken.cliFindings)).toContain(rule);

      const reference = await runWithFakeCli({
        cli: brokenCase.cli,
        scenario,
        shim: await translatorShim(),
        profile: brokenCase.profile,
      });
      const referenceRules = rulesOf(reference);
      for (const rule of brokenCase.rules) expect(referenceRules).not.toContain(rule);
    });
  }
});
