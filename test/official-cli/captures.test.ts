// The fakes against the real captures (test/fixtures/streams/captures): for every capture scenario of every CLI, the
// fake started with the README's headless argv prints the same event types with the same fields (a deep
// key-and-type comparison), the same values once ids, times and paths are normalised, exits with the same
// code, and prints the same stderr noise.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OfficialCliName } from '../../harness/official-cli/script-types.js';
import { CAPTURE_IDS, type CaptureId, captureScenario } from './helpers/capture-scenarios.js';
import {
  COPILOT_VOLATILE_KEYS,
  joinDeltas,
  normaliseCopilotText,
  withoutProgress,
} from './helpers/copilot-capture-values.js';
import { type FakeRun, HEADLESS_ARGS, runFake, sleep } from './helpers/run-fake.js';

const CAPTURES = path.resolve(
  process.env.YUME_CAPTURES_DIR ?? path.join(import.meta.dirname, '..', 'fixtures', 'streams', 'captures'),
);
const CLIS: OfficialCliName[] = ['gemini', 'codex', 'claude', 'copilot'];
/** Objects whose keys are data (model names), compared by their values' shape only. */
const DYNAMIC_KEYS = new Set(['models', 'modelUsage', 'model_usage_since_last_result']);
const VOLATILE_KEYS = new Set([
  'timestamp',
  'uuid',
  'session_id',
  'thread_id',
  'duration_ms',
  'duration_api_ms',
  'ttft_ms',
  'ttft_stream_ms',
  'time_to_request_ms',
  'first_content_frame_ms',
  'retry_delay_ms',
]);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function shapeOf(value: Json, key?: string): Json {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    const shapes = [...new Set(value.map((item) => JSON.stringify(shapeOf(item))))].sort();
    return shapes.map((shape) => JSON.parse(shape) as Json);
  }
  if (typeof value === 'object') {
    if (key && DYNAMIC_KEYS.has(key)) {
      const first = Object.values(value)[0];
      return first === undefined ? {} : { '*': shapeOf(first) };
    }
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((name) => [name, shapeOf(value[name]!, name)]),
    );
  }
  return typeof value;
}

/** Consecutive equal entries collapsed (the number of streamed deltas is the provider's business). */
function collapse(values: Json[]): string[] {
  return values
    .map((value) => JSON.stringify(value))
    .filter((text, index, all) => index === 0 || all[index - 1] !== text);
}

function normaliseText(text: string, workdir: string): string {
  return normaliseCopilotText(text)
    .split(workdir)
    .join('$WORKDIR')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .replace(/\btoolu_\w+/g, 'TOOLU')
    .replace(/\bmsg_\w+/g, 'MSG')
    .replace(/\b(\w+)__\1_\d+_(\d+)\b/g, '$1__$1_T_$2');
}

function normalise(value: Json, workdir: string, volatile: ReadonlySet<string> = VOLATILE_KEYS): Json {
  if (typeof value === 'string') return normaliseText(value, workdir);
  if (Array.isArray(value)) return value.map((item) => normalise(item, workdir, volatile));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !volatile.has(key))
        .map(([key, item]) => [key, normalise(item, workdir, volatile)]),
    );
  }
  return value;
}

function parse(stdout: string): Json[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Json);
}

/** The comparable values of a stream: claude's init only by shape, gemini's deltas joined, copilot's as it is read. */
function values(lines: Json[], workdir: string, ignore: readonly string[], cli?: OfficialCliName): Json[] {
  if (cli === 'copilot') return joinDeltas(lines).map((line) => normalise(line, workdir, COPILOT_VOLATILE_KEYS));
  const out: Json[] = [];
  for (const line of lines) {
    const record = line as { [key: string]: Json };
    if (record.type === 'system' && record.subtype === 'init') continue;
    const normalised = normalise(line, workdir) as { [key: string]: Json };
    for (const key of ignore) delete normalised[key];
    const previous = out.at(-1) as { [key: string]: Json } | undefined;
    if (record.type === 'message' && record.delta === true && previous?.type === 'message' && previous.delta === true) {
      previous.content = `${String(previous.content)}${String(normalised.content)}`;
      continue;
    }
    out.push(normalised);
  }
  return out;
}

/** stderr lines that are messages (not stack frames), normalised. */
function noise(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => /^[A-Z[]/.test(line))
    .map((line) =>
      line
        .replace(/\/[^\s"')]+/g, '/PATH')
        .replace(/\d+/g, 'N')
        .slice(0, 48),
    );
}

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

/** copilot's bring-your-own-key settings, as its captures ran with them. */
const COPILOT_ENV = {
  COPILOT_OFFLINE: 'true',
  COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:40000',
  COPILOT_PROVIDER_TYPE: 'anthropic',
  COPILOT_PROVIDER_API_KEY: 'sk-ant-mock-key',
};

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
