// Starts one fake official CLI directly (no shim), the way the captures started the real one: the README's
// headless argv, a workspace with hello.txt and notes.txt, stdin /dev/null, its own process group.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OfficialCliName, ScriptScenario } from '../../../harness/official-cli/script-types.js';
import { type CliLogEntry, LOG_ENV, readLog, STATE_ENV, writeState } from '../../../harness/official-cli/state.js';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const FAKE_CLI = path.join(ROOT, 'dist', 'fake-cli.js');
export const HELLO = 'Hello from the fixture file.\nSecond line.\n';

export interface FakeRun {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  log: CliLogEntry[];
  workspace: string;
}

export interface FakeRunOptions {
  cli: OfficialCliName;
  args: string[];
  scenario: ScriptScenario;
  turnIndex?: number;
  env?: Record<string, string>;
  /** 'ignore' (/dev/null, as the captures), 'open' (a pipe nobody closes) or a text written and closed. */
  stdin?: 'ignore' | 'open' | { text: string };
  /** Called once the fake logged `event` (e.g. 'stall'); may signal the process. */
  onEvent?: { event: CliLogEntry['event']; act: (pid: number, logFile: string) => Promise<void> | void };
  stallTimeoutMs?: number;
  stdinWaitMs?: number;
  /** Reuse a directory (and its log) from an earlier run, e.g. to resume a CLI session. */
  base?: string;
  timeoutMs?: number;
}

export function newBase(): string {
  const base = mkdtempSync(path.join(os.tmpdir(), 'yume-fake-cli-'));
  const workspace = path.join(base, 'work');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(path.join(workspace, 'hello.txt'), HELLO);
  writeFileSync(path.join(workspace, 'notes.txt'), 'Some notes.\n');
  return base;
}

export async function runFake(options: FakeRunOptions): Promise<FakeRun> {
  const base = options.base ?? newBase();
  const workspace = path.join(base, 'work');
  const stateFile = path.join(base, 'state.json');
  const logFile = path.join(base, 'log.jsonl');
  writeState(stateFile, {
    scenario: options.scenario,
    turnIndex: options.turnIndex ?? 0,
    stallTimeoutMs: options.stallTimeoutMs ?? 10_000,
    stdinWaitMs: options.stdinWaitMs,
  });
  const child = spawn(process.execPath, [FAKE_CLI, options.cli, ...options.args], {
    cwd: workspace,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: path.join(base, 'home'),
      CODEX_HOME: path.join(base, 'home', '.codex'),
      [STATE_ENV]: stateFile,
      [LOG_ENV]: logFile,
      ...options.env,
    },
    stdio: [options.stdin === undefined || options.stdin === 'ignore' ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    detached: true,
  });
  if (typeof options.stdin === 'object') child.stdin!.end(options.stdin.text);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }, options.timeoutMs ?? 20_000);
  let watcher: Promise<void> = Promise.resolve();
  if (options.onEvent) {
    const { event, act } = options.onEvent;
    watcher = (async () => {
      for (let waited = 0; waited < 10_000; waited += 20) {
        const turn = options.turnIndex ?? 0;
        if (readLog(logFile).some((entry) => entry.event === event && entry.turnIndex === turn)) {
          await act(child.pid!, logFile);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
  }
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  clearTimeout(killer);
  await watcher;
  try {
    process.kill(-child.pid!, 'SIGKILL'); // nothing of the fake may outlive the test
  } catch {
    // gone
  }
  return { stdout, stderr, code, signal, log: readLog(logFile), workspace };
}

export const HEADLESS_ARGS: Record<OfficialCliName, (prompt: string) => string[]> = {
  claude: (prompt) => [
    '-p',
    prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    '--model',
    'claude-sonnet-4-5',
    '--dangerously-skip-permissions',
  ],
  gemini: (prompt) => [
    '-p',
    prompt,
    '--output-format',
    'stream-json',
    '--model',
    'gemini-2.5-flash',
    '--approval-mode',
    'yolo',
  ],
  codex: (prompt) => ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', prompt],
  copilot: (prompt) => ['-p', prompt, '--output-format', 'json', '--allow-all-tools', '--model', 'claude-sonnet-4-5'],
};

/** copilot's bring-your-own-key settings, as its captures ran with them. */
export const COPILOT_ENV = {
  COPILOT_OFFLINE: 'true',
  COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:40000',
  COPILOT_PROVIDER_TYPE: 'anthropic',
  COPILOT_PROVIDER_API_KEY: 'sk-ant-mock-key',
};

/** The captures' argv of a turn that resumed the CLI session `id` (HOW-CAPTURED.md, "Compaction captures"). */
export function resumeArgs(cli: OfficialCliName, prompt: string, id: string): string[] {
  const headless = HEADLESS_ARGS[cli](prompt);
  if (cli === 'claude') return [...headless.slice(0, 2), '--resume', id, ...headless.slice(2)];
  if (cli === 'gemini' || cli === 'copilot') return ['--resume', id, ...headless];
  return [...headless.slice(0, -1), 'resume', id, prompt];
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
