// Runs a scenario against a shim with a fake official CLI first on PATH, the way the runner does for the
// CLI provider ids (R7 spec flags, one process per turn, SIGINT to the group for interrupts), and collects
// what the tests judge: raw stdout validated by validateStream, the fake's log, the fake-CLI checks.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkFakeCliRun } from '../../../harness/official-cli/checks.js';
import {
  installFakeClis,
  readFakeCliLog,
  setFakeCliTurn,
  waitForFakeCliEvent,
} from '../../../harness/official-cli/install.js';
import { copilotVariables } from '../../../harness/official-cli/real/offline-environment.js';
import {
  CLI_PROVIDER_IDS,
  type OfficialCliName,
  type ScriptScenario,
} from '../../../harness/official-cli/script-types.js';
import type { CliLogEntry } from '../../../harness/official-cli/state.js';
import type { ShimExit } from '../../../harness/process/shim-process.js';
import { spawnShim } from '../../../harness/process/spawn-shim.js';
import type { Finding, Profile } from '../../../harness/rules/types.js';
import { type ValidationResult, validateStream } from '../../../harness/validate/validate-stream.js';

export const SPEC_MODELS: Record<OfficialCliName, string> = {
  gemini: 'gemini-2.5-flash',
  codex: 'gpt-5.2-codex',
  claude: 'claude-sonnet-4-5',
  copilot: 'claude-sonnet-4-5',
};

export type RunnableScenario = ScriptScenario & {
  workspaceDir?: string;
  mode?: 'spawn-per-turn' | 'persistent';
  needs?: string[];
};

export interface CliScenarioRunOptions {
  cli: OfficialCliName;
  scenario: RunnableScenario;
  /** The shim: the bundled reference shim or a fixture translator (.mjs). */
  shim: string;
  /** Fakes to install (default: the scenario's CLI); [] runs with the CLI missing. */
  installed?: readonly OfficialCliName[];
  profile?: Profile;
  /** Extra shim flags (e.g. `--dialect claude`). */
  extraArgs?: string[];
  /** Per-process timeout. */
  timeoutMs?: number;
  stdinWaitMs?: number;
  /** How long the fake's stalled streams wait before they go on (default 15 s). */
  stallTimeoutMs?: number;
  /** Files to add to the workspace before the run. */
  files?: Record<string, string>;
}

export interface CliTurnRun {
  exit: ShimExit;
  validation: ValidationResult;
  lines: Record<string, unknown>[];
  /** ms from the interrupt to the shim's exit (interrupted turns). */
  exitAfterInterruptMs?: number;
}

export interface CliScenarioRun {
  turns: CliTurnRun[];
  log: CliLogEntry[];
  workspace: string;
  cliFindings: Finding[];
}

function parseLines(stdout: Buffer): Record<string, unknown>[] {
  return stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

export async function runWithFakeCli(options: CliScenarioRunOptions): Promise<CliScenarioRun> {
  const { cli, scenario } = options;
  const base = mkdtempSync(path.join(os.tmpdir(), `yume-cli-${cli}-`));
  const workspace = path.join(base, 'workspace');
  const home = path.join(base, 'home');
  const binDir = path.join(base, 'bin');
  if (scenario.workspaceDir) cpSync(scenario.workspaceDir, workspace, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  for (const [file, content] of Object.entries(options.files ?? {})) writeFileSync(path.join(workspace, file), content);
  const stateFile = path.join(base, 'fake-cli-state.json');
  const logFile = path.join(base, 'fake-cli-log.jsonl');
  await installFakeClis(binDir, {
    scenario,
    turnIndex: 0,
    stateFile,
    logFile,
    clis: options.installed ?? [cli],
    stdinWaitMs: options.stdinWaitMs,
    stallTimeoutMs: options.stallTimeoutMs ?? 15_000,
  });
  const env: Record<string, string> = {
    PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: home,
    USERPROFILE: home,
    CODEX_HOME: path.join(home, '.codex'),
    OPENAI_API_KEY: 'sk-yume-conformance-openai-dummy',
    ANTHROPIC_API_KEY: 'sk-ant-yume-conformance-dummy',
    GEMINI_API_KEY: 'yume-conformance-gemini-dummy',
    GOOGLE_API_KEY: 'yume-conformance-gemini-dummy',
    // copilot's bring-your-own-key settings, as the runner gives them (R22); the fake refuses to start without.
    ...copilotVariables({
      endpoints: { openai: 'http://127.0.0.1:9/v1', anthropic: 'http://127.0.0.1:9', gemini: 'http://127.0.0.1:9' },
      keys: { openai: '', anthropic: 'sk-ant-yume-conformance-dummy', gemini: '' },
    }),
    ...(process.env.SystemRoot ? { SystemRoot: process.env.SystemRoot } : {}),
  };

  const turns: CliTurnRun[] =
    scenario.mode === 'persistent'
      ? await runPersistent(options, env, workspace, stateFile, logFile)
      : await runSpawnPerTurn(options, env, workspace, stateFile, logFile);
  const log = readFakeCliLog(logFile);
  const cliFindings = checkFakeCliRun({
    cli,
    scenario,
    log,
    eventsByTurn: turns.map((turn) => turn.validation.events),
    workspace,
  });
  return { turns, log, workspace, cliFindings };
}

const baseArgs = (cli: OfficialCliName, workspace: string, scenario: RunnableScenario) => [
  '--provider',
  CLI_PROVIDER_IDS[cli],
  '--model',
  SPEC_MODELS[cli],
  '--cwd',
  workspace,
  '--output-format',
  'stream-json',
  ...(scenario.permissionMode ? ['--permission-mode', scenario.permissionMode] : []),
];

/** Waits for the fake's stall (after-first-text) or tool start (during-tool) of `turn`, then a moment more. */
async function interruptPoint(
  logFile: string,
  turn: number,
  kind: 'after-first-text' | 'during-tool',
): Promise<boolean> {
  const wanted = kind === 'after-first-text' ? 'stall' : 'tool-start';
  const seen = await waitForFakeCliEvent(logFile, (entry) => entry.event === wanted && entry.turnIndex === turn, {
    timeoutMs: 10_000,
  });
  if (seen) await new Promise((resolve) => setTimeout(resolve, 150)); // let the shim print what arrived so far
  return seen !== undefined;
}

async function runSpawnPerTurn(
  options: CliScenarioRunOptions,
  env: Record<string, string>,
  workspace: string,
  stateFile: string,
  logFile: string,
): Promise<CliTurnRun[]> {
  const { cli, scenario } = options;
  const turns: CliTurnRun[] = [];
  let sessionId: string | undefined;
  for (const [index, turn] of scenario.turns.entries()) {
    setFakeCliTurn(stateFile, index);
    const args = [
      ...baseArgs(cli, workspace, scenario),
      '--prompt',
      turn.prompt,
      ...(index > 0 && turn.resume && sessionId ? ['--resume', sessionId] : []),
      ...(options.extraArgs ?? []),
    ];
    const shim = spawnShim({
      shim: options.shim,
      args,
      cwd: workspace,
      env,
      stdin: 'closed',
      timeoutMs: options.timeoutMs ?? 20_000,
    });
    let interruptAt: number | undefined;
    if (turn.interrupt && (await interruptPoint(logFile, index, turn.interrupt))) {
      interruptAt = shim.elapsedMs();
      shim.signalGroup('SIGINT');
    }
    const exit = await shim.done;
    const validation = validateStream(exit.stdout, { profile: options.profile ?? 'spec', mode: 'spawn-per-turn' });
    const lines = parseLines(exit.stdout);
    const init = lines.find((line) => line.type === 'system' && line.subtype === 'init');
    sessionId ??= typeof init?.session_id === 'string' ? init.session_id : undefined;
    turns.push({
      exit,
      validation,
      lines,
      exitAfterInterruptMs:
        interruptAt !== undefined && exit.exitedAtMs !== undefined ? exit.exitedAtMs - interruptAt : undefined,
    });
  }
  return turns;
}

/**
 * Persistent mode: one process, a `user` frame per turn (after the turn's raw stdin lines), an `interrupt`
 * frame for interrupted turns, stdin EOF at the end. The single stdout is validated once and split into
 * turns at each result for the per-turn checks.
 */
async function runPersistent(
  options: CliScenarioRunOptions,
  env: Record<string, string>,
  workspace: string,
  stateFile: string,
  logFile: string,
): Promise<CliTurnRun[]> {
  const { cli, scenario } = options;
  let results = 0;
  let pending = '';
  const shim = spawnShim({
    shim: options.shim,
    args: [...baseArgs(cli, workspace, scenario), '--input-format', 'stream-json', ...(options.extraArgs ?? [])],
    cwd: workspace,
    env,
    stdin: 'pipe',
    timeoutMs: options.timeoutMs ?? 30_000,
    onStdout: (chunk) => {
      pending += chunk.toString('utf8');
      const complete = pending.split('\n');
      pending = complete.pop() ?? '';
      results += complete.filter((line) => /"type"\s*:\s*"result"/.test(line)).length;
    },
  });
  const resultCount = async (wanted: number) => {
    for (let waited = 0; waited < 15_000 && results < wanted; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
  };
  for (const [index, turn] of scenario.turns.entries()) {
    setFakeCliTurn(stateFile, index);
    for (const line of turn.stdin ?? []) shim.write(`${line}\n`);
    shim.write(`${JSON.stringify({ type: 'user', content: turn.prompt })}\n`);
    if (turn.interrupt && (await interruptPoint(logFile, index, turn.interrupt))) shim.write('{"type":"interrupt"}\n');
    await resultCount(index + 1);
  }
  shim.closeStdin();
  const exit = await shim.done;
  const validation = validateStream(exit.stdout, { profile: options.profile ?? 'spec', mode: 'persistent' });
  const lines = parseLines(exit.stdout);
  // One entry per turn: the events and lines up to and including that turn's result.
  const perTurn: CliTurnRun[] = [];
  let eventStart = 0;
  let lineStart = 0;
  for (let turn = 0; turn < scenario.turns.length; turn += 1) {
    const eventEnd = validation.events.findIndex(
      (event, position) => position >= eventStart && event.kind === 'result',
    );
    const lineEnd = lines.findIndex((line, position) => position >= lineStart && line.type === 'result');
    const events = validation.events.slice(eventStart, eventEnd < 0 ? undefined : eventEnd + 1);
    perTurn.push({
      exit,
      validation: { ...validation, events, findings: turn === 0 ? validation.findings : [] },
      lines: lines.slice(lineStart, lineEnd < 0 ? undefined : lineEnd + 2),
    });
    eventStart = eventEnd < 0 ? validation.events.length : eventEnd + 1;
    lineStart = lineEnd < 0 ? lines.length : lineEnd + 1;
  }
  return perTurn;
}

export function mustFindings(run: CliScenarioRun): string[] {
  const problems: string[] = [];
  run.turns.forEach((turn, index) => {
    for (const finding of turn.validation.findings.filter((candidate) => candidate.severity === 'MUST')) {
      problems.push(`turn ${index + 1} line ${finding.line ?? '-'}: ${finding.rule}: ${finding.message}`);
    }
  });
  for (const finding of run.cliFindings) problems.push(`${finding.rule}: ${finding.message}`);
  return problems;
}
