// The fakes against the real captures (test/fixtures/streams/captures): for every capture scenario of every CLI, the
// fake started with the README's headless argv prints the same event types with the same fields (a deep
// key-and-type comparison), the same values once ids, times and paths are normalised, exits with the same
// code, and prints the same stderr noise. The compaction captures run turn by turn in one CLI session, each
// turn compared with its own capture.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OfficialCliName } from '../../harness/official-cli/script-types.js';
import { collapse, type Json, noise, parse, shapeOf, values } from './helpers/capture-compare.js';
import { CAPTURE_IDS, type CaptureId, captureScenario } from './helpers/capture-scenarios.js';
import { COMPACTION_CAPTURE_IDS, compactionCapture } from './helpers/compaction-captures.js';
import { withoutProgress } from './helpers/copilot-capture-values.js';
import { COPILOT_ENV, type FakeRun, HEADLESS_ARGS, newBase, resumeArgs, runFake, sleep } from './helpers/run-fake.js';

const CAPTURES = path.resolve(
  process.env.YUME_CAPTURES_DIR ?? path.join(import.meta.dirname, '..', 'fixtures', 'streams', 'captures'),
);
const CLIS: OfficialCliName[] = ['gemini', 'codex', 'claude', 'copilot'];
interface CaptureFiles {
  stdout: string;
  stderr: string;
  code: number;
}

function readCapture(cli: OfficialCliName, id: string): CaptureFiles | undefined {
  const base = path.join(CAPTURES, cli, id);
  if (!existsSync(`${base}.stdout.jsonl`)) return undefined;
  const exit = /rc=(\d+)/.exec(readFileSync(`${base}.exit.txt`, 'utf8'));
  const stdout = readFileSync(`${base}.stdout.jsonl`, 'utf8');
  return {
    stdout,
    stderr: existsSync(`${base}.stderr.txt`) ? readFileSync(`${base}.stderr.txt`, 'utf8') : '',
    code: Number(exit?.[1]),
  };
}

/** Runs the fake as the capture ran the real CLI, including how the interrupt captures sent signals. */
async function runLikeCapture(cli: OfficialCliName, id: CaptureId): Promise<FakeRun> {
  const scenario = captureScenario(id, cli);
  const args = HEADLESS_ARGS[cli](scenario.turns[0]!.prompt);
  const env = { IS_SANDBOX: '1', ANTHROPIC_BASE_URL: 'http://127.0.0.1:40000', ANTHROPIC_API_KEY: 'sk-ant-mock-key' };
  if (id === '6b-interrupt-group') {
    return runFake({
      cli,
      args,
      scenario,
      env: { ...env, ...COPILOT_ENV },
      onEvent: { event: 'stall', act: (pid) => void process.kill(-pid, 'SIGINT') },
    });
  }
  if (id !== '6-interrupt') return runFake({ cli, args, scenario, env: { ...env, ...COPILOT_ENV } });
  if (cli === 'copilot')
    // The capture signalled the loader's pid only: the loader died, the binary streamed on until the recorder
    // killed it. Here it is ended soon after, which the capture cannot tell apart.
    return runFake({
      cli,
      args,
      scenario,
      env: { ...env, ...COPILOT_ENV },
      onEvent: {
        event: 'stall',
        act: async (pid) => {
          process.kill(pid, 'SIGINT');
          await sleep(300);
          process.kill(-pid, 'SIGKILL');
        },
      },
    });
  if (cli !== 'gemini')
    return runFake({
      cli,
      args,
      scenario,
      env,
      onEvent: { event: 'stall', act: (pid) => void process.kill(pid, 'SIGINT') },
    });
  // gemini ignored SIGINT to its pid; the capture then killed the launcher, and the orphaned worker printed
  // its error result once its stream ended.
  return runFake({
    cli,
    args,
    scenario,
    env,
    stallTimeoutMs: 1500,
    onEvent: {
      event: 'stall',
      act: async (pid) => {
        process.kill(pid, 'SIGINT');
        await sleep(300);
        process.kill(pid, 'SIGKILL');
      },
    },
  });
}

const cases = CLIS.flatMap((cli) =>
  [...CAPTURE_IDS, ...(cli === 'gemini' || cli === 'copilot' ? (['6b-interrupt-group'] as const) : [])].map((id) => ({
    cli,
    id,
  })),
);
/** copilot's progress events vary in number and order between runs: left out of both sides. */
const comparable = (cli: OfficialCliName, lines: Json[]) => (cli === 'copilot' ? withoutProgress(lines) : lines);
const SIGNAL_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGKILL: 137 };

describe('fake CLIs match the real captures', () => {
  it('tells a copilot stream from one that differs in a single event field (a value, or a field more)', () => {
    const capture = readCapture('copilot', '2-tool')!;
    const lines = comparable('copilot', parse(capture.stdout));
    const compared = (stream: Json[]) => ({
      shapes: collapse(stream.map((line) => shapeOf(line))),
      values: values(stream, '/home/dev/work/copilot', [], 'copilot'),
    });
    const at = lines.findIndex((line) => (line as { type?: string }).type === 'tool.execution_start');
    const withField = (change: (data: { [key: string]: Json }) => void) =>
      lines.map((line, index) => {
        if (index !== at) return line;
        const copy = structuredClone(line) as { [key: string]: Json };
        change(copy.data as { [key: string]: Json });
        return copy;
      });
    expect(compared(withField(() => undefined))).toEqual(compared(lines));
    expect(compared(withField((data) => void (data.toolTitle = 'Reading file')))).not.toEqual(compared(lines));
    expect(compared(withField((data) => void (data.extra = 'x')))).not.toEqual(compared(lines));
  });

  it('finds the captures', () => {
    expect(readCapture('gemini', '1-plain'), `no captures under ${CAPTURES} (set YUME_CAPTURES_DIR)`).toBeDefined();
  });

  for (const { cli, id } of cases) {
    it(`${cli} ${id}`, async () => {
      const capture = readCapture(cli, id);
      expect(capture, `missing capture ${cli}/${id}`).toBeDefined();
      const fake = await runLikeCapture(cli, id);
      expectLikeCapture(cli, fake, capture!, { ignore: ignoredKeys(cli, id, 1), slowStart: true });
    });
  }
});

const compactionCases = CLIS.flatMap((cli) => COMPACTION_CAPTURE_IDS[cli].map((id) => ({ cli, id })));

describe('fake CLIs match the compaction captures, turn by turn in one session', () => {
  for (const { cli, id } of compactionCases) {
    it(`${cli} ${id}`, async () => {
      const { turns, scenario } = compactionCapture(cli, id);
      const base = newBase();
      let session = '';
      for (const [index, turn] of turns.entries()) {
        const name = turns.length === 1 ? id : `${id}.turn${index + 1}`;
        const capture = readCapture(cli, name);
        expect(capture, `missing capture ${cli}/${name}`).toBeDefined();
        const env = {
          IS_SANDBOX: '1',
          ANTHROPIC_BASE_URL: 'http://127.0.0.1:40000',
          ANTHROPIC_API_KEY: 'sk-ant-mock-key',
          ...COPILOT_ENV,
        };
        const usageFile = path.join(base, 'usage.json');
        const args = turn.resume ? resumeArgs(cli, turn.prompt, session) : HEADLESS_ARGS[cli](turn.prompt);
        const fake = await runFake({
          cli,
          args: cli === 'copilot' ? [...args, `--usage-output-file=${usageFile}`] : args,
          scenario,
          turnIndex: index,
          base,
          env,
          ...(turn.interrupt ? { onEvent: { event: 'stall', act: (pid) => void process.kill(pid, 'SIGINT') } } : {}),
        });
        if (index === 0) session = sessionOf(fake.stdout);
        expectLikeCapture(cli, fake, capture!, {
          ignore: ignoredKeys(cli, id, index + 1),
          slowStart: turn.interrupt === true,
          relativePaths: cli === 'claude',
        });
        // copilot's token counts are only in its usage file: the session's running total, as captured per turn.
        if (cli === 'copilot')
          expect(copilotTotals(usageFile)).toEqual(copilotTotals(captureFile(cli, `${name}.usage.json`)));
      }
    });
  }
});

function captureFile(cli: OfficialCliName, name: string): string {
  return path.join(CAPTURES, cli, name);
}

/** The session's running token totals in a copilot usage file. */
function copilotTotals(file: string): unknown {
  const usage = JSON.parse(readFileSync(file, 'utf8')) as { modelMetrics: Record<string, { usage: unknown }> };
  return Object.values(usage.modelMetrics).map((metrics) => metrics.usage);
}

/** Compares one run of a fake with its capture: shapes, values, exit code and stderr noise. */
function expectLikeCapture(
  cli: OfficialCliName,
  fake: FakeRun,
  capture: CaptureFiles,
  { ignore, slowStart, relativePaths }: { ignore: readonly string[]; slowStart: boolean; relativePaths?: boolean },
): void {
  const captured = comparable(cli, parse(capture.stdout));
  const printed = comparable(cli, parse(relativePaths ? relative(fake.stdout, fake.workspace) : fake.stdout));
  expect(collapse(printed.map((line) => shapeOf(line)))).toEqual(collapse(captured.map((line) => shapeOf(line))));
  expect(values(printed, fake.workspace, ignore, cli)).toEqual(values(captured, `/home/dev/work/${cli}`, ignore, cli));
  const code = fake.code ?? (fake.signal ? (SIGNAL_CODES[fake.signal] ?? -1) : -1);
  expect(code, fake.stderr).toBe(capture.code);
  expect(noise(fake.stderr)).toEqual(expect.arrayContaining(noise(capture.stderr, slowStart)));
}

/**
 * Paths that start a string made relative to the workspace. The compaction captures' mock asked for relative paths,
 * which claude passes on as the model gave them; the fake's model asks for absolute ones, as captures 1 to 6 did
 * (harness/official-cli/tool-mapping.ts, claudeToolInput).
 */
function relative(stdout: string, workspace: string): string {
  return stdout.split(`"${JSON.stringify(workspace).slice(1, -1)}/`).join('"');
}

/** The session id a turn printed (claude and gemini `init`, codex `thread.started`, copilot's `result`). */
function sessionOf(stdout: string): string {
  const first = parse(stdout).find((line) => {
    const record = line as { [key: string]: Json };
    return (
      record.type === 'thread.started' ||
      record.subtype === 'init' ||
      record.type === 'init' ||
      (record.type === 'result' && 'sessionId' in record)
    );
  }) as { [key: string]: Json } | undefined;
  return String(first?.thread_id ?? first?.session_id ?? first?.sessionId ?? '');
}

/** Keys whose values a turn cannot match: claude bills an interrupted call by its own count of the streamed text. */
function ignoredKeys(cli: OfficialCliName, id: string, turn: number): string[] {
  if (cli !== 'claude') return [];
  if (id === '6-interrupt') return ['modelUsage', 'model_usage_since_last_result', 'total_cost_usd'];
  if (id === '9-compact-interrupted' && turn === 3) return ['modelUsage', 'total_cost_usd'];
  return [];
}
