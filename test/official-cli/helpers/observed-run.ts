// Evidence for the real-CLI mode's checks (test/official-cli/observed-checks.test.ts): wrapper log starts, the
// mock's recorded requests, the shim's tool results, and the checks run on them.
import path from 'node:path';
import type { RecordedRequest } from '../../../harness/mock/mock-server.js';
import { loadScenario } from '../../../harness/mock/scenario/scenario-loader.js';
import type { MockProviderId } from '../../../harness/mock/scenario/scenario-types.js';
import { checkObservedCliRun, type ObservedCliRunInput } from '../../../harness/official-cli/real/observed-checks.js';
import type { OfficialCliName } from '../../../harness/official-cli/script-types.js';
import type { StartEntry } from '../../../harness/official-cli/state.js';
import type { CanonicalEvent } from '../../../harness/protocol/canonical.js';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
export const scenario = (id: string) => loadScenario(path.join(root, 'transcripts', id));
export const T0 = Date.parse('2026-01-01T00:00:00.000Z');

export function start(cli: OfficialCliName, turn: number, atMs: number, extra: Partial<StartEntry> = {}): StartEntry {
  return {
    event: 'start',
    cli,
    pid: 4000 + turn,
    turnIndex: turn,
    time: new Date(T0 + atMs).toISOString(),
    argv: ['-p', 'prompt'],
    cwd: '/work',
    prompt: 'prompt',
    sessionId: '',
    observedBy: 'wrapper',
    ...extra,
  };
}

export function request(
  provider: MockProviderId,
  index: number,
  turn: number,
  atMs: number,
  body: unknown,
  extra: Partial<RecordedRequest> = {},
): RecordedRequest {
  return {
    index,
    provider,
    method: 'POST',
    path: provider === 'gemini' ? '/v1beta/models/gemini-2.5-flash:streamGenerateContent' : '/v1/messages',
    query: '',
    headers: {},
    body,
    rawBody: JSON.stringify(body),
    turn,
    responseIndex: index,
    attempt: 0,
    time: T0 + atMs,
    elapsedMs: atMs,
    outcome: 'stream',
    status: 200,
    closedByClient: false,
    completed: true,
    ...extra,
  };
}

/** claude's request after running one tool (Read), reporting `isError`. */
export const anthropicAfterTool = (prompt: string, isError: boolean) => ({
  model: 'claude-sonnet-4-5',
  messages: [
    { role: 'user', content: [{ type: 'text', text: prompt }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'x' } }] },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'text', ...(isError ? { is_error: true } : {}) },
      ],
    },
  ],
});

export const toolResult = (line: number, isError: boolean): CanonicalEvent => ({
  kind: 'tool_result',
  line,
  toolUseId: 'x',
  content: 'text',
  isError,
});

export function judge(overrides: Partial<ObservedCliRunInput> & Pick<ObservedCliRunInput, 'scenario'>) {
  // Each start received its turn's prompt unless the case says otherwise.
  const log = (overrides.log ?? []).map((entry) =>
    entry.event === 'start' && entry.prompt === 'prompt'
      ? { ...entry, prompt: overrides.scenario.turns[entry.turnIndex]?.prompt }
      : entry,
  );
  const input: ObservedCliRunInput = {
    cli: 'claude',
    requests: [],
    provider: 'anthropic',
    turns: overrides.scenario.turns.map((_, turn) => turn),
    interrupted: [],
    ...overrides,
    log,
  };
  const out = checkObservedCliRun(input);
  return { rules: out.findings.map((finding) => finding.rule), findings: out.findings, notVerified: out.notVerified };
}
