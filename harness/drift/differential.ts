// The differential test of a fake CLI against its real counterpart: the same argv, in the same git
// workspace, as the same user, to both; each must accept or refuse it alike, and a refusal must have the
// same exit code and the same first line on stderr. "Accepted" is judged without a model of our own: the
// real CLI talks to the REST mock, which answers every request with a short text, so an accepted argv
// ends with exit 0 after one answer and a refused one exits non-zero before asking anything.
import { randomUUID } from 'node:crypto';
import { chownSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DUMMY_CREDENTIALS } from '../mock/credentials.js';
import { startMockServer } from '../mock/mock-server.js';
import { requestView } from '../mock/request-views.js';
import type { MockProviderId, Scenario } from '../mock/scenario/scenario-types.js';
import { LOG_ARGUMENT, STATE_ARGUMENT } from '../official-cli/launcher-arguments.js';
import { copilotRuntimeCache } from '../official-cli/real/copilot-runtime.js';
import { prepareOfflineEnvironment } from '../official-cli/real/offline-environment.js';
import { type BoundedRun, runBounded } from '../official-cli/real/run-bounded.js';
import type { OfficialCliName } from '../official-cli/script-types.js';
import { writeState } from '../official-cli/state.js';
import { commitFixtures } from '../runner/setup/git-workspace.js';

export interface CorpusEntry {
  argv: string[];
  /** Written to stdin (the translators' prompt-on-stdin form); stdin is closed either way. */
  stdin?: string;
  /** Why the argv is in the corpus. */
  why: string;
  /** Run in a folder outside any git repository (the workspace is one). */
  outsideGit?: boolean;
}

export interface Decision {
  accepted: boolean;
  exitCode: number | null;
  /** The first stderr line that is not start-up noise (the refusal's message). */
  message: string;
  timedOut: boolean;
}

export interface DifferentialRow {
  entry: CorpusEntry;
  /** The argv as run (placeholders filled in). */
  argv: string[];
  fake: Decision;
  real: Decision;
  /** Empty when fake and real agree. */
  disagreement: string;
}

/** What the real CLI showed of itself in the seed run (compared with the pinned data by the drift check). */
export interface ObservedCli {
  declaredTools: string[];
  eventTypes: string[];
}

export interface DifferentialResult {
  rows: DifferentialRow[];
  observed: ObservedCli;
}

export interface DifferentialOptions {
  cli: OfficialCliName;
  realExecutable: string;
  /** dist/fake-cli.js */
  fakeScript: string;
  corpus: readonly CorpusEntry[];
  /** A fresh folder for the workspace, the homes and the fake's files. */
  workRoot: string;
  /** Run both as this user (the caller is root); the work folder is handed to it. */
  user?: { uid: number; gid: number; name: string };
  /** Variables the real CLI needs beside its offline environment (copilot's unpacked runtime). */
  realEnv?: Record<string, string>;
  concurrency?: number;
  timeoutMs?: number;
}

/** Lines every run may print before anything else: not the message of a refusal. */
const NOISE = [
  /^WARNING: proceeding, even though we could not create PATH aliases/,
  /^Reading additional input from stdin/,
  /^YOLO mode is enabled/,
  /^Warning: 256-color support not detected/,
  /^Ripgrep is not available/,
  /^\s*$/,
];

function decide(run: BoundedRun): Decision {
  const message =
    run.stderr
      .split('\n')
      .map((line) => line.trimEnd())
      .find((line) => !NOISE.some((pattern) => pattern.test(line))) ?? '';
  return { accepted: run.exitCode === 0 && !run.timedOut, exitCode: run.exitCode, message, timedOut: run.timedOut };
}

function compare(fake: Decision, real: Decision): string {
  if (real.timedOut) return `the real CLI did not finish in time (${real.message || 'no message'})`;
  if (fake.timedOut) return 'the fake did not finish in time';
  if (fake.accepted !== real.accepted)
    return `real ${real.accepted ? 'accepts' : `refuses (exit ${real.exitCode}: ${real.message})`}, fake ${fake.accepted ? 'accepts' : `refuses (exit ${fake.exitCode}: ${fake.message})`}`;
  if (fake.accepted) return '';
  if (fake.exitCode !== real.exitCode)
    return `both refuse, with exit ${real.exitCode} (real) and ${fake.exitCode} (fake)`;
  if (fake.message !== real.message)
    return `both refuse, real says ${JSON.stringify(real.message)}, fake ${JSON.stringify(fake.message)}`;
  return '';
}

/** Every request is answered with a short text; turns advance by themselves. */
function answeringScenario(): Scenario {
  return {
    id: 'differential',
    title: 'Differential test answers',
    description: 'Answers every model request with a short text.',
    turns: [
      {
        prompt: 'hi',
        responses: [{ text: ['Done.'], usage: { input_tokens: 10, output_tokens: 2 }, repeat: 10_000 }],
        expect: { isError: false },
      },
    ],
  } as unknown as Scenario;
}

function chownTree(target: string, uid: number, gid: number): void {
  chownSync(target, uid, gid);
  if (!statSync(target).isDirectory()) return;
  for (const name of readdirSync(target)) chownTree(path.join(target, name), uid, gid);
}

/** The CLI session an accepted run printed (gemini `init`, codex `thread.started`, claude `system` `init`, copilot `result`). */
function sessionIdIn(stdout: string): string | undefined {
  for (const line of stdout.split('\n')) {
    try {
      const event = JSON.parse(line) as Record<string, unknown>;
      const id = event.session_id ?? event.thread_id ?? (event.type === 'result' ? event.sessionId : undefined);
      if (typeof id === 'string') return id;
    } catch {
      // not JSON
    }
  }
  return undefined;
}

async function pool<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}

/** Event types of a CLI's stdout: `type`, with the item type of codex items and the subtype of system lines. */
export function eventTypesIn(stdout: string): string[] {
  const types = new Set<string>();
  for (const line of stdout.split('\n')) {
    try {
      const event = JSON.parse(line) as Record<string, unknown>;
      if (typeof event.type !== 'string') continue;
      const item = event.item as Record<string, unknown> | undefined;
      const detail =
        typeof item?.type === 'string' ? item.type : typeof event.subtype === 'string' ? event.subtype : '';
      types.add(detail ? `${event.type}:${detail}` : event.type);
    } catch {
      // not JSON
    }
  }
  return [...types].sort();
}

const MOCK_PROVIDER: Record<OfficialCliName, MockProviderId> = {
  gemini: 'gemini',
  codex: 'openai-responses',
  claude: 'anthropic',
  copilot: 'anthropic',
};

/** The folders of one differential run under its work root. */
function differentialFolders(workRoot: string) {
  return {
    workspace: path.join(workRoot, 'workspace'),
    fakeHome: path.join(workRoot, 'fake-home'),
    realHome: path.join(workRoot, 'real-home'),
    stateFile: path.join(workRoot, 'fake-state.json'),
    logFile: path.join(workRoot, 'fake-log.jsonl'),
    plainFolder: path.join(workRoot, 'not-a-repository'),
  };
}

type Folders = ReturnType<typeof differentialFolders>;
type RunCli = (argv: string[], stdin?: string, cwd?: string) => ReturnType<typeof runBounded>;

/** Starts the real CLI and the fake, each offline against the mock with its own home, as the same user. */
function cliRunners(
  options: DifferentialOptions,
  folders: Folders,
  mock: Awaited<ReturnType<typeof startMockServer>>,
): { runReal: RunCli; runFake: RunCli } {
  const { cli } = options;
  const timeoutMs = options.timeoutMs ?? 90_000;
  const { workspace, realHome, fakeHome, stateFile, logFile } = folders;
  const keys = {
    openai: DUMMY_CREDENTIALS.openaiApiKey,
    anthropic: DUMMY_CREDENTIALS.anthropicApiKey,
    gemini: DUMMY_CREDENTIALS.geminiApiKey,
  };
  const base = { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8', TERM: 'dumb', NO_COLOR: '1' };
  const realEnv = {
    ...base,
    ...prepareOfflineEnvironment(cli, { home: realHome, endpoints: mock.baseUrls, keys }),
    ...options.realEnv,
    ...(options.user ? { USER: options.user.name, LOGNAME: options.user.name } : {}),
  };
  const fakeEnv = { ...base, ...prepareOfflineEnvironment(cli, { home: fakeHome, endpoints: mock.baseUrls, keys }) };
  writeState(stateFile, { scenario: answeringScenario(), turnIndex: 0 });
  writeFileSync(logFile, '');
  if (options.user) chownTree(options.workRoot, options.user.uid, options.user.gid);
  const user = options.user ? { uid: options.user.uid, gid: options.user.gid } : undefined;
  return {
    runReal: (argv, stdin, cwd = workspace) =>
      runBounded(options.realExecutable, argv, { cwd, env: realEnv, timeoutMs, user, stdin }),
    runFake: (argv, stdin, cwd = workspace) =>
      runBounded(
        process.execPath,
        [options.fakeScript, cli, `${STATE_ARGUMENT}${stateFile}`, `${LOG_ARGUMENT}${logFile}`, ...argv],
        { cwd, env: fakeEnv, timeoutMs, user, stdin },
      ),
  };
}

/**
 * A corpus argv with its placeholders filled: `{cwd}`, `{session}` (the seeded session), `{new-session}` (a fresh
 * UUID per argv: copilot --session-id names a new session) and `{work-file}` (a file of each run's own: copilot
 * --usage-output-file).
 */
function fillArgv(
  argv: readonly string[],
  values: { cwd: string; session: string; newSession: string; workFile: string },
): string[] {
  const pairs: [string, string][] = [
    ['{cwd}', values.cwd],
    ['{session}', values.session],
    ['{new-session}', values.newSession],
    ['{work-file}', values.workFile],
  ];
  return argv.map((argument) => pairs.reduce((text, [from, to]) => text.split(from).join(to), argument));
}

export async function runDifferential(options: DifferentialOptions): Promise<DifferentialResult> {
  const { cli } = options;
  const folders = differentialFolders(options.workRoot);
  const { workspace, plainFolder } = folders;
  mkdirSync(plainFolder, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  writeFileSync(path.join(workspace, 'hello.txt'), 'Hello from the fixture file.\n');
  await commitFixtures(workspace);
  const mock = await startMockServer({ scenario: answeringScenario(), autoAdvance: true });
  try {
    // A real copilot finds its runtime unpacked beside its install (or once here), never in its fresh HOME.
    const runtime: Record<string, string> =
      cli === 'copilot' && !options.realEnv?.COPILOT_PKG_CACHE_HOME
        ? { COPILOT_PKG_CACHE_HOME: await copilotRuntimeCache(options.realExecutable, options.workRoot) }
        : {};
    const { runReal, runFake } = cliRunners({ ...options, realEnv: { ...options.realEnv, ...runtime } }, folders, mock);

    let runs = 0;
    const fill = (
      argv: string[],
      session: string,
      fresh = { id: randomUUID(), file: path.join(options.workRoot, 'work-file-seed.json') },
    ) => fillArgv(argv, { cwd: workspace, session, newSession: fresh.id, workFile: fresh.file });
    // A session of each to resume: the first accepted translator argv without resume.
    const seed = options.corpus.find((entry) => !entry.argv.includes('{session}') && !entry.stdin);
    const seedArgv = seed ? fill(seed.argv, '') : [];
    const [realSeed, fakeSeed] = await Promise.all([runReal(seedArgv), runFake(seedArgv)]);
    const firstRequest = mock.requests().find((request) => request.body !== undefined);
    const observed: ObservedCli = {
      declaredTools: firstRequest
        ? [...requestView(MOCK_PROVIDER[cli], firstRequest.body, firstRequest.path).declaredTools].sort()
        : [],
      eventTypes: eventTypesIn(realSeed.stdout),
    };
    const sessions = {
      real: sessionIdIn(realSeed.stdout) ?? 'no-session',
      fake: sessionIdIn(fakeSeed.stdout) ?? 'no-session',
    };

    const decideEntry = async (entry: CorpusEntry): Promise<DifferentialRow> => {
      const cwd = entry.outsideGit ? plainFolder : workspace;
      const id = randomUUID();
      runs += 1;
      const file = (side: string) => path.join(options.workRoot, `work-file-${runs}-${side}.json`);
      const [real, fake] = await Promise.all([
        runReal(fill(entry.argv, sessions.real, { id, file: file('real') }), entry.stdin, cwd),
        runFake(fill(entry.argv, sessions.fake, { id, file: file('fake') }), entry.stdin, cwd),
      ]);
      const realDecision = decide(real);
      const fakeDecision = decide(fake);
      return {
        entry,
        argv: fill(entry.argv, '{session}'),
        fake: fakeDecision,
        real: realDecision,
        disagreement: compare(fakeDecision, realDecision),
      };
    };
    // Runs that resume the one seeded session go one at a time: codex refuses a second writer of a thread.
    const resuming = (entry: CorpusEntry) => entry.argv.some((argument) => argument.includes('{session}'));
    const fresh = await pool(
      options.corpus.filter((entry) => !resuming(entry)),
      options.concurrency ?? 3,
      decideEntry,
    );
    const resumed = await pool(options.corpus.filter(resuming), 1, decideEntry);
    return { rows: [...fresh, ...resumed], observed };
  } finally {
    await mock.close();
  }
}

/** One line per disagreement, for a test failure or the drift report. */
export function describeDisagreements(cli: OfficialCliName, rows: readonly DifferentialRow[]): string[] {
  return rows
    .filter((row) => row.disagreement !== '')
    .map((row) => `${cli} ${JSON.stringify(row.argv)} (${row.entry.why}): ${row.disagreement}`);
}
