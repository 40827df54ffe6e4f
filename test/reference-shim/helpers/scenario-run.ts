// Runs one scenario against the shim with the harness's mocked providers, as the runner will (R7 flags, one
// process per turn or one persistent process), and returns what is needed to judge it.

import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeAuthHelpers } from '../../../harness/mock/auth-helpers.js';
import { type RecordedRequest, startMockServer } from '../../../harness/mock/mock-server.js';
import { providerEnvironment } from '../../../harness/mock/provider-environment.js';
import { checkProviderRequests, type Finding } from '../../../harness/mock/request-checks.js';
import type { LoadedScenario, MockProviderId, Scenario } from '../../../harness/mock/scenario/scenario-types.js';
import { lineText, runShim, type ShimRun } from './shim-process.js';

export type Invocation = 'spec' | 'yume-app';

const SPEC_FLAGS: Record<MockProviderId, string[]> = {
  'openai-chat': ['--provider', 'openai', '--model', 'gpt-4.1-mini'],
  'openai-responses': ['--provider', 'codex', '--model', 'gpt-5.2-codex'],
  gemini: ['--provider', 'gemini', '--model', 'gemini-2.5-flash'],
  anthropic: ['--provider', 'anthropic', '--model', 'claude-sonnet-4-5'],
};
const APP_FLAGS: Partial<Record<MockProviderId, string[]>> = {
  'openai-responses': ['--provider', 'openai', '--model', 'gpt-5.2-codex'],
  gemini: ['--provider', 'gemini', '--model', 'gemini-2.5-flash'],
};

export interface ScenarioRun {
  runs: ShimRun[];
  requests: RecordedRequest[];
  requestFindings: Finding[];
  workspace: string;
  home: string;
  sessionId: string | undefined;
}

export interface ScenarioRunOptions {
  invocation?: Invocation;
  dialect?: 'flat' | 'claude';
  seed?: number;
  persistent?: boolean;
  permissionMode?: string;
  /** Extra stdin lines per turn (persistent mode). */
  extraEnv?: Record<string, string>;
  keepDirs?: boolean;
}

function isFirstText(line: Record<string, unknown>): boolean {
  return lineText(line) !== undefined;
}

function isToolUse(line: Record<string, unknown>): boolean {
  if (line.type === 'tool_use') return true;
  return (
    line.type === 'assistant' &&
    ((line.message as { content: Array<{ type: string }> }).content ?? []).some((b) => b.type === 'tool_use')
  );
}

export async function runScenario(
  scenario: Scenario | LoadedScenario,
  provider: MockProviderId,
  options: ScenarioRunOptions = {},
): Promise<ScenarioRun> {
  const invocation = options.invocation ?? 'spec';
  const gate = scenario.turns.some((turn) => turn.interrupt === 'after-first-text');
  const mock = await startMockServer({ scenario, provider, seed: options.seed, gate: false });
  void gate;
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'yume-shim-ws-'));
  const home = mkdtempSync(path.join(os.tmpdir(), 'yume-shim-home-'));
  const workspaceDir = (scenario as LoadedScenario).workspaceDir;
  if (workspaceDir) cpSync(workspaceDir, workspace, { recursive: true });
  const helpers = await writeAuthHelpers(path.join(home, 'bin'));
  const env: NodeJS.ProcessEnv = {
    PATH: `${helpers.dir}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: home,
    USERPROFILE: home,
    ...providerEnvironment(mock.baseUrls, scenario.env?.unset ?? []),
    ...(scenario.env?.set ?? {}),
    ...(options.dialect === 'claude' ? { YUME_SHIM_DIALECT: 'claude' } : {}),
    ...(options.extraEnv ?? {}),
  };
  const flags = invocation === 'spec' ? SPEC_FLAGS[provider] : APP_FLAGS[provider];
  if (!flags) throw new Error(`${provider} has no ${invocation} invocation`);
  const apiBase =
    provider === 'anthropic'
      ? mock.baseUrls.anthropic
      : provider === 'gemini'
        ? mock.baseUrls.gemini
        : mock.baseUrls.openai;
  const permissionMode = options.permissionMode ?? scenario.permissionMode ?? 'default';
  const runs: ShimRun[] = [];
  let sessionId: string | undefined =
    invocation === 'spec' ? `sess-${scenario.id.replace(/[^A-Za-z0-9_-]/g, '-')}` : undefined;
  try {
    for (let index = 0; index < scenario.turns.length; index += 1) {
      const turn = scenario.turns[index]!;
      mock.setTurn(index);
      const args =
        invocation === 'spec'
          ? [
              'start',
              ...flags,
              '--cwd',
              workspace,
              '--output-format',
              'stream-json',
              '--api-base',
              apiBase,
              '--permission-mode',
              permissionMode,
              '--protocol-version',
              '1.0',
            ]
          : [...flags, '--cwd', workspace];
      if (invocation === 'spec') args.push(...(turn.resume ? ['--resume', sessionId!] : ['--session-id', sessionId!]));
      else if (turn.resume && sessionId) args.push('--resume', sessionId);
      args.push('--prompt', turn.prompt);
      if (invocation === 'yume-app') args.push('--output-format', 'stream-json', '--verbose');
      // A scenario about argument errors: the runner appends a flag no shim knows, and so does this helper.
      if (scenario.badArgument) args.push(scenario.badArgument);
      let interrupted = false;
      const onLine = (line: Record<string, unknown>, child: ChildProcess): void => {
        if (interrupted || !turn.interrupt) return;
        if (
          (turn.interrupt === 'after-first-text' && isFirstText(line)) ||
          (turn.interrupt === 'during-tool' && isToolUse(line))
        ) {
          interrupted = true;
          setTimeout(
            () => child.pid !== undefined && process.kill(-child.pid, 'SIGINT'),
            turn.interrupt === 'during-tool' ? 150 : 0,
          );
        }
      };
      const run = await runShim({ args, env, cwd: workspace, onLine });
      runs.push(run);
      const init = run.lines.find((line) => line.type === 'system' && line.subtype === 'init');
      if (typeof init?.session_id === 'string') sessionId = init.session_id;
    }
    // The server may record a closed or finished connection a moment after the shim exited.
    const settled = () =>
      mock.requests().every((request) => request.completed || request.closedByClient || request.outcome !== 'stream');
    for (let waited = 0; !settled() && waited < 1000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const requests = mock.requests();
    return {
      runs,
      requests,
      requestFindings: checkProviderRequests(scenario, provider, requests),
      workspace,
      home,
      sessionId,
    };
  } finally {
    await mock.close();
    if (!options.keepDirs) {
      rmSync(workspace, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  }
}

/**
 * Reads transcripts/<id>/scenario.json directly (no schema validation: that is the scenario loader's job and
 * is tested there), so these tests only depend on the scenario data.
 */
export function readScenarios(root: string): LoadedScenario[] {
  return readdirSync(root)
    .sort()
    .filter((entry) => existsSync(path.join(root, entry, 'scenario.json')))
    .map((entry) => {
      const dir = path.join(root, entry);
      const scenario = JSON.parse(readFileSync(path.join(dir, 'scenario.json'), 'utf8')) as Scenario;
      const workspaceDir = path.join(dir, 'workspace');
      return { ...scenario, dir, ...(existsSync(workspaceDir) ? { workspaceDir } : {}) };
    });
}
