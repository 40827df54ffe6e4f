// The fakes against the real captures (test/fixtures/streams/captures): for every capture scenario of every CLI, the
// fake started with the README's headless argv prints the same event types with the same fields (a deep
// key-and-type comparison), the same values once ids, times and paths are normalised, exits with the same
// code, and prints the same stderr noise. The compaction captures run turn by turn in one CLI session, each
// turn compared with its own capture.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OfficialCliName } from '../../harness/official-cli/script-types.js';
import { CAPTURE_IDS, type CaptureId, captureScenario } from './helpers/capture-scenarios.js';
import { COMPACTION_CAPTURE_IDS, compactionCapture } from './helpers/compaction-captures.js';
import { type FakeRun, HEADLESS_ARGS, newBase, resumeArgs, runFake, sleep } from './helpers/run-fake.js';

const CAPTURES = path.resolve(
  process.env.YUME_CAPTURES_DIR ?? path.join(import.meta.dirname, '..', 'fixtures', 'streams', 'captures'),
);
const CLIS: OfficialCliName[] = ['gemini', 'codex', 'claude'];
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
  // a compaction's size after it counts the summary message, which names the transcript's path (the machine's)
  'post_tokens',
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
  return (
    text
      .split(workdir)
      .join('$WORKDIR')
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
      // claude's session transcript (named in a compaction's summary message): its HOME and project folder
      .replace(/\S*\/\.claude\/projects\/[^/\s]+\//g, '$CLAUDE_PROJECTS/')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
      .replace(/\btoolu_\w+/g, 'TOOLU')
      .replace(/\bmsg_\w+/g, 'MSG')
      .replace(/\b(\w+)__\1_\d+_(\d+)\b/g, '$1__$1_T_$2')
  );
}

/**
 * A message's usage without `service_tier`: claude copies the Messages API's `message_start` usage, and the suite's
 * mock has named its service tier there only since the compaction captures (captures 1 to 6 have none).
 */
function withoutServiceTier(line: Json): Json {
  const record = line as { [key: string]: Json };
  const message = record?.message as { [key: string]: Json } | undefined;
  const usage = message?.usage as { [key: string]: Json } | undefined;
  if (record?.type !== 'assistant' || !usage || typeof usage !== 'object' || !('service_tier' in usage)) return line;
  const { service_tier: _tier, ...rest } = usage;
  return { ...record, message: { ...message, usage: rest } };
}

function normalise(value: Json, workdir: string): Json {
  if (typeof value === 'string') return normaliseText(value, workdir);
  if (Array.isArray(value)) return value.map((item) => normalise(item, workdir));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !VOLATILE_KEYS.has(key))
        .map(([key, item]) => [key, normalise(item, workdir)]),
    );
  }
  return value;
}

function parse(stdout: string): Json[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => withoutServiceTier(JSON.parse(line) as Json));
}

/** The comparable values of a stream: claude's init only by shape, gemini's deltas joined. */
function values(lines: Json[], workdir: string, ignore: readonly string[]): Json[] {
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

/**
 * stderr lines that are messages (not stack frames), normalised. `slowStart` false leaves out gemini's startup
 * profiler notes, which a turn prints when the machine made it slow (one compaction capture's first turn), not
 * because of anything the turn did.
 */
function noise(stderr: string, slowStart = true): string[] {
  return stderr
    .split('\n')
    .filter((line) => /^[A-Z[]/.test(line) && (slowStart || !line.startsWith('[STARTUP]')))
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

function readCapture(cli: OfficialCliName, id: string): CaptureFiles | undefined {
  const base = path.join(CAPTURES, cli, id);
  if (!existsSync(`${base}.stdout.jsonl`)) return undefined;
  const exit = /rc=(\d+)/.exec(readFileSync(`${base}.exit.txt`, 'utf8'));
  return {
    stdout: readFileSync(`${base}.stdout.jsonl`, 'utf8'),
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
      env,
      onEvent: { event: 'stall', act: (pid) => void process.kill(-pid, 'SIGINT') },
    });
  }
  if (id !== '6-interrupt') return runFake({ cli, args, scenario, env });
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

/** Compares one run of a fake with its capture: shapes, values, exit code and stderr noise. */
function expectLikeCapture(
  cli: OfficialCliName,
  fake: FakeRun,
  capture: CaptureFiles,
  { ignore, slowStart, relativePaths }: { ignore: readonly string[]; slowStart: boolean; relativePaths?: boolean },
): void {
  const captured = parse(capture.stdout);
  const printed = parse(relativePaths ? relative(fake.stdout, fake.workspace) : fake.stdout);
  expect(collapse(printed.map((line) => shapeOf(line)))).toEqual(collapse(captured.map((line) => shapeOf(line))));
  expect(values(printed, fake.workspace, ignore)).toEqual(values(captured, `/home/dev/work/${cli}`, ignore));
  const code = fake.code ?? (fake.signal === 'SIGKILL' ? 137 : -1);
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

/** The session id a turn printed (claude and gemini `init`, codex `thread.started`). */
function sessionOf(stdout: string): string {
  const first = parse(stdout).find((line) => {
    const record = line as { [key: string]: Json };
    return record.type === 'thread.started' || record.subtype === 'init' || record.type === 'init';
  }) as { [key: string]: Json } | undefined;
  return String(first?.thread_id ?? first?.session_id ?? '');
}

/** Keys whose values a turn cannot match: claude bills an interrupted call by its own count of the streamed text. */
function ignoredKeys(cli: OfficialCliName, id: string, turn: number): string[] {
  if (cli !== 'claude') return [];
  if (id === '6-interrupt') return ['modelUsage', 'model_usage_since_last_result', 'total_cost_usd'];
  if (id === '9-compact-interrupted' && turn === 3) return ['modelUsage', 'total_cost_usd'];
  return [];
}

const cases = CLIS.flatMap((cli) =>
  [...CAPTURE_IDS, ...(cli === 'gemini' ? (['6b-interrupt-group'] as const) : [])].map((id) => ({ cli, id })),
);

describe('fake CLIs match the real captures', () => {
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
        };
        const fake = await runFake({
          cli,
          args: turn.resume ? resumeArgs(cli, turn.prompt, session) : HEADLESS_ARGS[cli](turn.prompt),
          scenario,
          turnIndex: index,
          base,
          env,
          ...(turn.interrupt ? { onEvent: { event: 'stall', act: (pid) => void process.kill(pid, 'SIGINT') } } : {}),
        });
        if (index === 0) session = sessionOf(fake.stdout);
        const slowStart = turn.interrupt === true;
        expectLikeCapture(cli, fake, capture!, {
          ignore: ignoredKeys(cli, id, index + 1),
          slowStart,
          relativePaths: cli === 'claude',
        });
      }
    });
  }
});
