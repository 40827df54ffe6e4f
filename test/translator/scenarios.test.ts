// The reference shim's translator providers against every committed scenario, with each fake official CLI
// first on PATH (spec invocation, flat dialect): stdout judged by validateStream, the run judged by the
// fake-CLI checks, the scenario's expectations met within docs/type-b-checks.md (content the CLI does not
// print is not compared).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAllScenarios } from '../../harness/mock/scenario/scenario-loader.js';
import type { LoadedScenario } from '../../harness/mock/scenario/scenario-types.js';
import { compactionRole } from '../../harness/official-cli/compaction-checks.js';
import { endsInMalformedChunk } from '../../harness/official-cli/golden-adjustments.js';
import { CLI_OMISSIONS } from '../../harness/official-cli/omissions.js';
import type { OfficialCliName } from '../../harness/official-cli/script-types.js';
import { ROOT, translatorShim } from './helpers/build-shim.js';
import { type CliScenarioRun, mustFindings, runWithFakeCli } from './helpers/cli-run.js';

const CLIS: OfficialCliName[] = ['gemini', 'codex', 'claude', 'copilot'];
const PROVIDER: Record<OfficialCliName, string> = {
  gemini: 'gemini-cli',
  codex: 'codex-cli',
  claude: 'claude-cli',
  copilot: 'copilot-cli',
};
// Kill scenarios need the runner's kill (SIGKILL to the shim's pid at the scripted moment), which this driver
// does not have: test/runner/kill-and-resume.test.ts runs them through the runner, a translator provider included.
const scenarios = loadAllScenarios(path.join(ROOT, 'transcripts')).filter(
  (scenario) => !scenario.turns.some((turn) => turn.kill),
);

/** Whether the CLI prints the output of this app tool (gemini keeps read_file's content to itself). */
function cliPrintsOutput(cli: OfficialCliName, tool: string): boolean {
  return !(cli === 'gemini' && tool === 'Read');
}

function filesUnder(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (directory: string) => {
    for (const name of readdirSync(directory)) {
      const full = path.join(directory, name);
      if (statSync(full).isDirectory()) visit(full);
      else files.set(path.relative(root, full).split(path.sep).join('/'), readFileSync(full, 'utf8'));
    }
  };
  visit(root);
  return files;
}

function checkExpectations(cli: OfficialCliName, scenario: LoadedScenario, run: CliScenarioRun): void {
  scenario.turns.forEach((turn, index) => {
    const process = run.turns[index]!;
    const stderr = process.exit.stderr.toString('utf8');
    expect(process.exit.timedOut, `turn ${index + 1} timed out; stderr: ${stderr}`).toBe(false);
    const result = process.lines.find((line) => line.type === 'result');
    expect(result, `turn ${index + 1} printed no result; stderr: ${stderr}`).toBeDefined();
    // codex drops a stream event it cannot parse, so its malformed-chunk turn ends as a success; gemini and codex
    // end a turn over the context window with the API's error (R21's other way out), claude compacts and retries.
    const overflowFails =
      !CLI_OMISSIONS[cli].compactsOnOverflow &&
      turn.responses.some((response) => response.fault?.kind === 'context-overflow');
    const isError =
      (turn.expect.isError || overflowFails) &&
      !(CLI_OMISSIONS[cli].dropsMalformedEvents && endsInMalformedChunk(turn));
    expect(result!.is_error, JSON.stringify(result)).toBe(isError);
    if (!isError) expect(process.exit.exitCode).toBe(0);
    // R4: interrupted after a model answer completed (it called the tool), the turn reports usage: an estimate
    // where the CLI prints usage only in the closing event an interrupted run never reaches.
    if (turn.interrupt === 'during-tool') {
      const usage = result!.usage as { estimated?: boolean } | undefined;
      expect(usage, JSON.stringify(result)).toBeDefined();
      expect(usage!.estimated === true, JSON.stringify(result)).toBe(CLI_OMISSIONS[cli].usageOnlyAtEnd);
    }
    expect(process.exit.descendantsLeft, 'processes left behind').toEqual([]);
    if (turn.interrupt && scenario.mode !== 'persistent') {
      expect(process.exitAfterInterruptMs, 'the interrupt was delivered').toBeDefined();
      expect(process.exitAfterInterruptMs!).toBeLessThan(2000); // R6
    }
    const uses = process.lines.filter((line) => line.type === 'tool_use');
    const results = process.lines.filter((line) => line.type === 'tool_result');
    const scriptCalls = turn.responses.flatMap((response) => response.toolCalls ?? []);
    for (const expected of overflowFails ? [] : (turn.expect.toolResults ?? [])) {
      const position = scriptCalls.findIndex((call) => call.id === expected.id);
      const use = uses[position];
      expect(use, `no tool_use for ${expected.id}`).toBeDefined();
      const answer = results.find((candidate) => candidate.tool_use_id === use!.id);
      expect(answer, `no tool_result for ${expected.id}`).toBeDefined();
      expect(answer!.is_error, `${expected.id}: ${String(answer!.content)}`).toBe(expected.isError);
      if (!cliPrintsOutput(cli, scriptCalls[position]!.name)) continue;
      for (const fragment of expected.contains ?? []) expect(answer!.content).toContain(fragment);
    }
  });
  if (scenario.workspaceAfterDir && existsSync(scenario.workspaceAfterDir)) {
    expect(Object.fromEntries(filesUnder(run.workspace))).toEqual(
      Object.fromEntries(filesUnder(scenario.workspaceAfterDir)),
    );
  }
}

describe('translator providers × committed scenarios', () => {
  for (const scenario of scenarios) {
    for (const cli of CLIS) {
      if (scenario.providers && !scenario.providers.includes(PROVIDER[cli] as never)) continue;
      // The official CLIs run their tools themselves, without an approval channel the shim could answer
      // (docs/type-b-checks.md): a CLI-wrapping shim declares no `interactive` capability.
      if (scenario.needs?.includes('interactive')) continue;
      // No CLI to drive: test/runner/cli-missing.test.ts runs it the way the runner does (R5).
      if (scenario.cli === 'missing') continue;
      it(`${scenario.id} × ${PROVIDER[cli]}`, async () => {
        const run = await runWithFakeCli({ cli, scenario, shim: await translatorShim() });
        expect(mustFindings(run)).toEqual([]);
        checkExpectations(cli, scenario, run);
        const starts = run.log.filter((entry) => entry.event === 'start');
        // A /compact of a session with no history needs no CLI call.
        const running = scenario.turns.filter((_, turn) => compactionRole(scenario, turn) !== 'nothing-to-compact');
        expect(starts).toHaveLength(running.length);
      });
    }
  }
});

describe('translator providers, claude dialect and yume-app profile', () => {
  for (const cli of CLIS) {
    it(`multi-tool × ${PROVIDER[cli]} with --dialect claude under the yume-app profile`, async () => {
      const scenario = scenarios.find((candidate) => candidate.id === 'multi-tool')!;
      const run = await runWithFakeCli({
        cli,
        scenario,
        shim: await translatorShim(),
        extraArgs: ['--dialect', 'claude'],
        profile: 'yume-app',
      });
      expect(mustFindings(run)).toEqual([]);
      expect(run.turns[0]!.validation.dialect).toBe('claude-envelope');
      expect(run.turns[0]!.lines.some((line) => line.type === 'assistant')).toBe(true);
    });
  }
});
