// The fake copilot beyond its captures (captures.test.ts): every event it prints is one copilot's own schema accepts;
// its two processes do what copilot's loader and binary do with signals; its session ids, usage file and refusals
// of a bad environment or session are copilot's (test/fixtures/streams/captures/HOW-CAPTURED.md).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptScenario } from '../../harness/official-cli/script-types.js';
import { captureScenario } from './helpers/capture-scenarios.js';
import { copilotEventProblems } from './helpers/copilot-event-schema.js';
import { type FakeRun, HEADLESS_ARGS, newBase, runFake, sleep } from './helpers/run-fake.js';

const BYOK = {
  COPILOT_OFFLINE: 'true',
  COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:40000',
  COPILOT_PROVIDER_TYPE: 'anthropic',
  COPILOT_PROVIDER_API_KEY: 'sk-ant-mock-key',
};
const SESSION = '0cb916db-26aa-40f2-86b5-1ba81b225fd2';
/** One copilot start with the BYOK settings in the sessions of `base`, playing turn `turnIndex` of `scenario`. */
const copilotTurn = (base: string, scenario: ScriptScenario, turnIndex: number, args: string[]) =>
  runFake({ cli: 'copilot', base, turnIndex, scenario, env: BYOK, args });

const parse = (run: FakeRun) =>
  run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const schemaProblems = (run: FakeRun) =>
  parse(run).flatMap((event, index) => copilotEventProblems(event).map((problem) => `line ${index + 1}: ${problem}`));

function single(responses: ScriptScenario['turns'][number]['responses']): ScriptScenario {
  return { id: 'fake-copilot', turns: [{ prompt: 'Do it.', responses, expect: { isError: false } }] };
}

const childOf = (pid: number) => Number(execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim());

describe('the fake copilot', () => {
  it("prints only events copilot's schema accepts: answers, tools, a refused write, failures, an interrupt", async () => {
    const scenarios: ScriptScenario[] = [
      captureScenario('3-two-tools', 'copilot'),
      captureScenario('4-tool-error', 'copilot'),
      single([{ fault: { kind: 'http', status: 401 }, repeat: 3 }]),
      single([{ fault: { kind: 'cut' } }]),
      single([{ toolCalls: [{ id: 'w', name: 'Write', input: { file_path: 'new.txt', content: 'x\n' } }] }]),
    ];
    for (const scenario of scenarios) {
      const args = HEADLESS_ARGS.copilot('Do it.').filter((argument) => argument !== '--allow-all-tools');
      const run = await runFake({ cli: 'copilot', args, scenario, env: BYOK });
      expect(schemaProblems(run), scenario.id).toEqual([]);
    }
    const interrupted = await runFake({
      cli: 'copilot',
      args: HEADLESS_ARGS.copilot('Write a long story.'),
      scenario: captureScenario('6b-interrupt-group', 'copilot'),
      env: BYOK,
      onEvent: { event: 'stall', act: (pid) => void process.kill(-pid, 'SIGINT') },
    });
    expect(schemaProblems(interrupted)).toEqual([]);
    expect(parse(interrupted).map((event) => event.type)).toContain('abort');
  });

  it('reads its prompt from stdin without -p, and with nothing there says so on stdout and exits 1', async () => {
    const args = HEADLESS_ARGS.copilot('unused').filter(
      (argument, index, all) => argument !== '-p' && all[index - 1] !== '-p',
    );
    const scenario = captureScenario('1-plain', 'copilot');
    const piped = await runFake({ cli: 'copilot', args, scenario, env: BYOK, stdin: { text: 'Say hello.\n' } });
    expect(piped.code).toBe(0);
    expect(piped.log.find((entry) => entry.event === 'prompt')).toMatchObject({
      prompt: 'Say hello.',
      source: 'stdin',
    });
    const empty = await runFake({ cli: 'copilot', args, scenario, env: BYOK });
    expect([empty.code, empty.stdout]).toEqual([
      1,
      'No prompt provided. Run in an interactive terminal or provide a prompt with -p or via standard in.\n',
    ]);
  });

  it('denies a write without --allow-all-tools, reports it and goes on; the file is not made', async () => {
    const scenario = single([
      { toolCalls: [{ id: 'w', name: 'Write', input: { file_path: 'new.txt', content: 'x\n' } }] },
      { text: ['Could not write.'] },
    ]);
    const args = HEADLESS_ARGS.copilot('Do it.').filter((argument) => argument !== '--allow-all-tools');
    const run = await runFake({ cli: 'copilot', args, scenario, env: BYOK });
    const complete = parse(run).find((event) => event.type === 'tool.execution_complete')?.data;
    expect(complete).toMatchObject({ success: false, error: { code: 'denied' } });
    expect(run.code).toBe(0);
    expect(
      run.log.some((entry) => entry.event === 'tool' && entry.effects && Object.keys(entry.effects).length > 0),
    ).toBe(false);
  });

  it("is two processes: SIGINT to the loader's pid alone leaves the binary running; a killed binary reads as a missing install", async () => {
    let binaryAlive = false;
    const orphaned = await runFake({
      cli: 'copilot',
      args: HEADLESS_ARGS.copilot('Write a long story.'),
      scenario: captureScenario('6-interrupt', 'copilot'),
      env: BYOK,
      onEvent: {
        event: 'stall',
        act: async (pid) => {
          const binary = childOf(pid);
          process.kill(pid, 'SIGINT');
          await sleep(500);
          binaryAlive = (() => {
            try {
              process.kill(binary, 0);
              return true;
            } catch {
              return false;
            }
          })();
          process.kill(-pid, 'SIGKILL');
        },
      },
    });
    expect(orphaned.signal).toBe('SIGINT');
    expect(binaryAlive).toBe(true);
    const killed = await runFake({
      cli: 'copilot',
      args: HEADLESS_ARGS.copilot('Write a long story.'),
      scenario: captureScenario('6-interrupt', 'copilot'),
      env: BYOK,
      onEvent: { event: 'stall', act: (pid) => void process.kill(childOf(pid), 'SIGKILL') },
    });
    expect(killed.code).toBe(1);
    expect(killed.stderr).toContain('GitHub Copilot CLI: no platform package found.');
  });

  it('keeps a session by --session-id, reports its running total in the usage file, and refuses names it does not know', async () => {
    const base = newBase();
    const scenario: ScriptScenario = {
      id: 'sessions',
      turns: [
        { prompt: 'One.', responses: [{ text: ['A.'], usage: { input_tokens: 100, output_tokens: 5 } }] },
        { prompt: 'Two.', responses: [{ text: ['B.'], usage: { input_tokens: 140, output_tokens: 6 } }] },
      ],
    };
    const usageFile = path.join(base, 'usage.json');
    const turn = (turnIndex: number, extra: string[]) =>
      copilotTurn(base, scenario, turnIndex, [
        ...HEADLESS_ARGS.copilot('Go.'),
        `--usage-output-file=${usageFile}`,
        ...extra,
      ]);
    const totals = () =>
      (JSON.parse(readFileSync(usageFile, 'utf8')) as { modelMetrics: Record<string, { usage: unknown }> })
        .modelMetrics['claude-sonnet-4-5']?.usage;
    const first = await turn(0, [`--session-id=${SESSION}`]);
    expect(parse(first).at(-1)).toMatchObject({ type: 'result', sessionId: SESSION, exitCode: 0 });
    expect(totals()).toMatchObject({ inputTokens: 100, outputTokens: 5 });
    await turn(1, [`--session-id=${SESSION}`]);
    expect(totals()).toMatchObject({ inputTokens: 240, outputTokens: 11 });
    const unknown = await turn(1, ['--resume=no-such-session']);
    expect([unknown.code, unknown.stderr.split('\n')[0]]).toEqual([
      1,
      "Error: No session, task, or name matched 'no-such-session'.",
    ]);
    const notUuid = await turn(1, ['--session-id=not-a-uuid']);
    expect(notUuid.stderr.split('\n')[0]).toBe("Error: No session or task matched 'not-a-uuid'.");
  });

  it('refuses /compact on a session without conversation, and compacts one with it (stdout: skills and result)', async () => {
    const base = newBase();
    const scenario: ScriptScenario = {
      id: 'compact',
      turns: [
        { prompt: '/compact', responses: [] },
        { prompt: 'One.', responses: [{ text: ['A.'], usage: { input_tokens: 100, output_tokens: 5 } }] },
        { prompt: '/compact keep it', responses: [{ summary: true, text: ['Summary.'] }] },
      ],
    };
    const turn = (turnIndex: number, prompt: string) =>
      copilotTurn(base, scenario, turnIndex, [...HEADLESS_ARGS.copilot(prompt), `--session-id=${SESSION}`]);
    const empty = await turn(0, '/compact');
    expect([empty.code, empty.stderr.split('\n')[0]]).toEqual([
      1,
      'Error executing prompt: Error: Nothing to compact.',
    ]);
    await turn(1, 'One.');
    const compacted = await turn(2, '/compact keep it');
    expect(compacted.code).toBe(0);
    expect(parse(compacted).map((line) => line.type)).toEqual(['session.skills_loaded', 'result']);
  });

  it('refuses to start offline without a provider, and a provider without a model', async () => {
    const scenario = captureScenario('1-plain', 'copilot');
    const offline = await runFake({ cli: 'copilot', args: ['-p', 'hi'], scenario, env: { COPILOT_OFFLINE: 'true' } });
    expect([offline.code, offline.stderr]).toEqual([
      1,
      'Offline mode requires a local model provider. Set COPILOT_PROVIDER_BASE_URL to configure one.\n',
    ]);
    const noModel = await runFake({ cli: 'copilot', args: ['-p', 'hi'], scenario, env: BYOK });
    expect(noModel.stderr).toContain('BYOK providers require an explicit model.');
  });
});
