// The session-file side of a compaction (harness/runner/checks/compaction-checks.ts): after a compaction the saved
// history holds the summary and not the prompts it replaced; an overflow turn that ended in an error result took
// R21's other way out and compacted nothing, so the whole history stays (as a wrapped gemini or codex leaves it).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../../harness/protocol/canonical.js';
import type { CheckInput } from '../../../harness/runner/checks/check-types.js';
import { compactionChecks } from '../../../harness/runner/checks/compaction-checks.js';
import { processOf, rules, scenarioOf } from '../helpers/check-fixtures.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'yume-compaction-checks-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const SUMMARY = 'Summary: hello.txt says hello.';
const scenario = scenarioOf([
  { prompt: 'Read hello.txt.' },
  {
    prompt: 'Now read notes.txt.',
    resume: true,
    responses: [{ fault: { kind: 'context-overflow' } }, { summary: true, text: [SUMMARY] }, { text: ['Notes.'] }],
  },
]);

/** Both turns' processes; turn 2 ends with `ending`. */
function input(ending: CanonicalEvent[]): CheckInput {
  const init: CanonicalEvent = { kind: 'init', line: 1, sessionId: 'abc' };
  const done: CanonicalEvent = { kind: 'result', line: 2, isError: false, usage: { inputTokens: 1, outputTokens: 1 } };
  return {
    scenario,
    processes: [
      processOf({ turns: [0], reportedSessionId: 'abc', events: [init, done] }),
      processOf({ turns: [1], reportedSessionId: 'abc', events: [init, ...ending] }),
    ],
    home,
    providerFlag: 'gemini-cli',
    persistent: false,
  } as CheckInput;
}

function saveHistory(history: unknown[]): void {
  mkdirSync(path.join(home, '.yume', 'sessions', 'gemini-cli'), { recursive: true });
  writeFileSync(path.join(home, '.yume', 'sessions', 'gemini-cli', 'abc.json'), JSON.stringify({ history }));
}

const WHOLE_HISTORY = [
  { role: 'user', content: 'Read hello.txt.' },
  { role: 'assistant', content: 'Hello.' },
  { role: 'user', content: 'Now read notes.txt.' },
];

describe('session.compacted-history around a context overflow', () => {
  it('an overflow turn that compacted on its own and kept the old prompts fails', () => {
    saveHistory(WHOLE_HISTORY);
    const compacted: CanonicalEvent[] = [
      { kind: 'system', line: 2, subtype: 'compact_boundary', trigger: 'auto', preTokens: 0 },
      { kind: 'text', line: 3, text: 'Notes.' },
      { kind: 'result', line: 4, isError: false, usage: { inputTokens: 1, outputTokens: 1 } },
    ];
    expect(rules(compactionChecks(input(compacted)))).toContain('session.compacted-history');
  });

  it('an overflow turn that ended in an error quoting the provider keeps the whole history, as it should', () => {
    saveHistory(WHOLE_HISTORY);
    const failed: CanonicalEvent[] = [
      {
        kind: 'error',
        line: 2,
        message: 'gemini: The input token count exceeds the maximum number of tokens allowed.',
      },
      { kind: 'result', line: 3, isError: true },
    ];
    expect(rules(compactionChecks(input(failed)))).toEqual([]);
  });
});
