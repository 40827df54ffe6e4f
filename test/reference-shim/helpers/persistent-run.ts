// Drives one persistent shim process (--input-format stream-json) through a scenario: per turn, raw stdin
// lines, then the user frame; approvals answered when a tool_use appears; interrupts sent as frames.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RecordedRequest, startMockServer } from '../../../harness/mock/mock-server.js';
import { providerEnvironment } from '../../../harness/mock/provider-environment.js';
import type { LoadedScenario, MockProviderId, Scenario } from '../../../harness/mock/scenario/scenario-types.js';
import { lineText, runShim, type ShimRun } from './shim-process.js';

const FLAGS: Record<MockProviderId, string[]> = {
  'openai-chat': ['--provider', 'openai', '--model', 'gpt-4.1-mini'],
  'openai-responses': ['--provider', 'codex', '--model', 'gpt-5.2-codex'],
  gemini: ['--provider', 'gemini', '--model', 'gemini-2.5-flash'],
  anthropic: ['--provider', 'anthropic', '--model', 'claude-sonnet-4-5'],
};

export interface PersistentResult {
  run: ShimRun;
  requests: RecordedRequest[];
  workspace: string;
  home: string;
  cleanup(): void;
}

export async function runPersistentScenario(
  scenario: Scenario | LoadedScenario,
  provider: MockProviderId,
  options: { frameFor?: (prompt: string, turn: number) => string; afterTurns?: string[] } = {},
): Promise<PersistentResult> {
  const mock = await startMockServer({ scenario, provider });
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'yume-shim-ws-'));
  const home = mkdtempSync(path.join(os.tmpdir(), 'yume-shim-home-'));
  const workspaceDir = (scenario as LoadedScenario).workspaceDir;
  if (workspaceDir) cpSync(workspaceDir, workspace, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: home, ...providerEnvironment(mock.baseUrls) };
  const args = [
    'start',
    ...FLAGS[provider],
    '--cwd',
    workspace,
    '--input-format',
    'stream-json',
    '--output-format',
    'stream-json',
    '--permission-mode',
    scenario.permissionMode ?? 'default',
  ];
  let turn = -1;
  let approvalIndex = 0;
  let interruptSent = false;
  const frameFor = options.frameFor ?? ((prompt: string) => JSON.stringify({ type: 'user', content: prompt }));
  try {
    const run = await runShim({
      args,
      env,
      cwd: workspace,
      stdin: 'keep-open',
      timeoutMs: 30_000,
      onLine(line, child) {
        const write = (text: string) => child.stdin!.write(`${text}\n`);
        const startTurn = () => {
          turn += 1;
          approvalIndex = 0;
          interruptSent = false;
          const next = scenario.turns[turn];
          if (!next) {
            for (const extra of options.afterTurns ?? []) write(extra);
            child.stdin!.end();
            return;
          }
          mock.setTurn(turn);
          for (const raw of next.stdin ?? []) child.stdin!.write(`${raw}\n`);
          write(frameFor(next.prompt, turn));
        };
        if (line.type === 'system' && line.subtype === 'init') return startTurn();
        if (line.type === 'result') return startTurn();
        const current = scenario.turns[turn];
        if (!current) return;
        const isToolUse =
          line.type === 'tool_use' || (line.type === 'assistant' && JSON.stringify(line).includes('"tool_use"'));
        if (isToolUse && current.approvals) {
          const id = (line.id as string) ?? '';
          write(JSON.stringify({ type: 'tool_approval', id, approved: current.approvals[approvalIndex++] ?? false }));
        }
        if (!interruptSent && current.interrupt === 'after-first-text' && lineText(line) !== undefined) {
          interruptSent = true;
          write(JSON.stringify({ type: 'interrupt' }));
        }
        if (!interruptSent && current.interrupt === 'during-tool' && isToolUse) {
          interruptSent = true;
          setTimeout(() => write(JSON.stringify({ type: 'interrupt' })), 150);
        }
      },
    });
    return {
      run,
      requests: mock.requests(),
      workspace,
      home,
      cleanup() {
        rmSync(workspace, { recursive: true, force: true });
        rmSync(home, { recursive: true, force: true });
      },
    };
  } finally {
    await mock.close();
  }
}
