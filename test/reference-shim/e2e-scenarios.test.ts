// End to end: the bundled shim against the harness's mocked providers, for every committed scenario and the
// four REST providers (spec invocation, flat dialect), judged by the harness's own stream validator and
// request checks. A representative sample of the other invocations / dialects / re-chunkings follows.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkProviderRequests } from '../../harness/mock/request-checks.js';
import type { LoadedScenario, MockProviderId } from '../../harness/mock/scenario/scenario-types.js';
import { validateStream } from '../../harness/validate/validate-stream.js';
import { runPersistentScenario } from './helpers/persistent-run.js';
import { readScenarios, runScenario, type ScenarioRun, type ScenarioRunOptions } from './helpers/scenario-run.js';
import { ROOT, toolResults, toolUses } from './helpers/shim-process.js';

const PROVIDERS: MockProviderId[] = ['openai-chat', 'openai-responses', 'gemini', 'anthropic'];
// Kill scenarios need the runner's kill (SIGKILL to the shim's pid at the scripted moment), which this driver
// does not have: test/runner/kill-and-resume.test.ts runs the reference shim through them.
const scenarios = readScenarios(path.join(ROOT, 'transcripts')).filter(
  (scenario) => !scenario.turns.some((turn) => turn.kill),
);

function mustFindings(
  run: ScenarioRun,
  profile: 'spec' | 'yume-app',
  mode: 'spawn-per-turn' | 'persistent' = 'spawn-per-turn',
): string[] {
  const problems: string[] = [];
  run.runs.forEach((process, index) => {
    const result = validateStream(process.stdout, { profile, mode });
    for (const finding of result.findings.filter((f) => f.severity === 'MUST')) {
      problems.push(`process ${index + 1} line ${finding.line}: ${finding.rule}: ${finding.message}`);
    }
  });
  for (const finding of run.requestFindings.filter((f) => f.severity === 'MUST')) {
    problems.push(`request ${finding.rule}: ${finding.message}`);
  }
  return problems;
}

/** The lines of each turn: one process per turn, or one persistent process split after each result. */
function turnsOf(
  run: ScenarioRun,
  persistent: boolean,
): Array<{ lines: Array<Record<string, unknown>>; stderr: string; timedOut: boolean }> {
  if (!persistent)
    return run.runs.map((process) => ({ lines: process.lines, stderr: process.stderr, timedOut: process.timedOut }));
  const [process] = run.runs;
  const turns: Array<{ lines: Array<Record<string, unknown>>; stderr: string; timedOut: boolean }> = [];
  let current: Array<Record<string, unknown>> = [];
  for (const line of process!.lines) {
    current.push(line);
    if (line.type === 'result') {
      turns.push({ lines: current, stderr: process!.stderr, timedOut: process!.timedOut });
      current = [];
    }
  }
  return turns;
}

function checkExpectations(scenario: LoadedScenario, run: ScenarioRun): void {
  const turns = turnsOf(run, scenario.mode === 'persistent');
  scenario.turns.forEach((turn, index) => {
    const process = turns[index];
    expect(process, `turn ${index + 1} printed no result; stderr: ${run.runs[0]?.stderr}`).toBeDefined();
    expect(process!.timedOut, `turn ${index + 1} timed out; stderr: ${process!.stderr}`).toBe(false);
    const result = process!.lines.find((line) => line.type === 'result');
    expect(result, `turn ${index + 1} printed no result; stderr: ${process!.stderr}`).toBeDefined();
    expect(result!.is_error, `turn ${index + 1}: ${JSON.stringify(result)}`).toBe(turn.expect.isError);
    const uses = toolUses(process!.lines);
    const results = toolResults(process!.lines);
    for (const expected of turn.expect.toolResults ?? []) {
      // Match script ids to printed ids by order of the script's calls within the turn.
      const scriptCalls = turn.responses.flatMap((response) => response.toolCalls ?? []);
      const position = scriptCalls.findIndex((call) => call.id === expected.id);
      const use = uses[position];
      expect(use, `no tool_use for ${expected.id}`).toBeDefined();
      const answer = results.find((candidate) => candidate.tool_use_id === use!.id);
      expect(answer, `no tool_result for ${expected.id}`).toBeDefined();
      expect(answer!.is_error, `${expected.id}: ${answer!.content}`).toBe(expected.isError);
      for (const fragment of expected.contains ?? []) expect(answer!.content).toContain(fragment);
    }
  });
}

async function runAny(
  scenario: LoadedScenario,
  provider: MockProviderId,
  options: ScenarioRunOptions = {},
): Promise<ScenarioRun> {
  if (scenario.mode !== 'persistent') return runScenario(scenario, provider, options);
  const result = await runPersistentScenario(scenario, provider);
  result.cleanup();
  return {
    runs: [result.run],
    requests: result.requests,
    requestFindings: checkProviderRequests(scenario, provider, result.requests),
    workspace: result.workspace,
    home: result.home,
    sessionId: undefined,
  };
}

// Each test waits on child processes most of the time, so they run a few at a time.
describe.concurrent('every scenario, every REST provider (spec invocation, flat dialect)', () => {
  for (const scenario of scenarios) {
    for (const provider of PROVIDERS) {
      if (scenario.providers && !scenario.providers.includes(provider)) continue;
      it(`${scenario.id} × ${provider}`, async () => {
        const run = await runAny(scenario, provider);
        checkExpectations(scenario, run);
        expect(mustFindings(run, 'spec', scenario.mode === 'persistent' ? 'persistent' : 'spawn-per-turn')).toEqual([]);
      });
    }
  }
});

const SAMPLE: Array<[string, MockProviderId, ScenarioRunOptions]> = [
  ['single-tool', 'gemini', { invocation: 'yume-app' }],
  ['single-tool', 'openai-responses', { invocation: 'yume-app', dialect: 'claude' }],
  ['parallel-tools', 'gemini', { invocation: 'yume-app', dialect: 'claude', seed: 7 }],
  ['multi-tool', 'anthropic', { dialect: 'claude', seed: 3 }],
  ['tool-error', 'openai-chat', { dialect: 'claude', seed: 11 }],
  ['interrupt', 'openai-responses', { invocation: 'yume-app' }],
  ['fault-429-then-success', 'gemini', { invocation: 'yume-app', dialect: 'claude' }],
  ['invalid-tool-arguments', 'openai-chat', { seed: 5 }],
];

describe('a sample of the other invocations, dialects and re-chunkings', () => {
  for (const [id, provider, options] of SAMPLE) {
    const scenario = scenarios.find((candidate) => candidate.id === id);
    if (!scenario) continue;
    it(`${id} × ${provider} ${JSON.stringify(options)}`, async () => {
      const run = await runScenario(scenario, provider, options);
      checkExpectations(scenario, run);
      expect(mustFindings(run, options.invocation === 'yume-app' ? 'yume-app' : 'spec')).toEqual([]);
      if (options.invocation === 'yume-app') expect(mustFindings(run, 'spec')).toEqual([]);
    });
  }
});
