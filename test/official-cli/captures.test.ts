// The fakes against the real captures (test/fixtures/streams/captures): for every capture scenario of every CLI, the
// fake started with the README's headless argv prints the same event types with the same fields (a deep
// key-and-type comparison), the same values once ids, times and paths are normalised, exits with the same
// code, and prints the same stderr noise.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OfficialCliName } from '../../harness/official-cli/script-types.js';
import { collapse, type Json, noise, parse, shapeOf, values } from './helpers/capture-compare.js';
import { CAPTURE_IDS, type CaptureId, captureScenario } from './helpers/capture-scenarios.js';
import { withoutProgress } from './helpers/copilot-capture-values.js';
import { COPILOT_ENV, type FakeRun, HEADLESS_ARGS, runFake, sleep } from './helpers/run-fake.js';

const CAPTURES = path.resolve(
  process.env.YUME_CAPTURES_DIR ?? path.join(import.meta.dirname, '..', 'fixtures', 'streams', 'captures'),
);
const CLIS: OfficialCliName[] = ['gemini', 'codex', 'claude', 'copilot'];
interface CaptureFiles {
  stdout: string;
  stderr: string;
  code: number;
}

function readCapture(cli: OfficialCliName, id: CaptureId): CaptureFiles | undefined {
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
      const captured = comparable(cli, parse(capture!.stdout));
      const printed = comparable(cli, parse(fake.stdout));

      expect(collapse(printed.map((line) => shapeOf(line)))).toEqual(collapse(captured.map((line) => shapeOf(line))));
      const ignore =
        cli === 'claude' && id === '6-interrupt'
          ? ['modelUsage', 'model_usage_since_last_result', 'total_cost_usd']
          : [];
      expect(values(printed, fake.workspace, ignore, cli)).toEqual(
        values(captured, `/home/dev/work/${cli}`, ignore, cli),
      );
      const code = fake.code ?? (fake.signal ? (SIGNAL_CODES[fake.signal] ?? -1) : -1);
      expect(code, fake.stderr).toBe(capture!.code);
      expect(noise(fake.stderr)).toEqual(expect.arrayContaining(noise(capture!.stderr)));
    });
  }
});
