import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../../harness/protocol/canonical.js';
import type { CheckInput } from '../../../harness/runner/checks/check-types.js';
import { resumeChecks, sessionFileCheck } from '../../../harness/runner/checks/session-checks.js';
import type { ExecutedProcess } from '../../../harness/runner/execution/execute-run.js';
import { processOf, rules, scenarioOf } from '../helpers/check-fixtures.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'yume-session-checks-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const GOOD_SESSION = {
  id: 'abc',
  provider: 'gemini',
  model: 'm',
  cwd: '/w',
  history: [],
  usage: { inputTokens: 1, outputTokens: 1 },
};

function inputOf(processes: ExecutedProcess[], extra: Partial<CheckInput> = {}): CheckInput {
  return {
    scenario: scenarioOf([{}, { resume: true }]),
    processes,
    home,
    providerFlag: 'gemini',
    persistent: false,
    ...extra,
  } as CheckInput;
}

function saveSession(data: unknown, flag = 'gemini', id = 'abc'): void {
  mkdirSync(path.join(home, '.yume', 'sessions', flag), { recursive: true });
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  writeFileSync(path.join(home, '.yume', 'sessions', flag, `${id}.json`), text);
}

describe('sessionFileCheck', () => {
  const finished = () => [processOf({ reportedSessionId: 'abc' })];

  it('passes a session file of the schema under the provider flag, with the reported id', () => {
    saveSession(GOOD_SESSION);
    expect(sessionFileCheck(inputOf(finished()))).toEqual([]);
  });

  it('fails a missing file, a file that does not parse, and one off the schema', () => {
    expect(rules(sessionFileCheck(inputOf(finished())))).toEqual(['session.file']);
    saveSession('{not json');
    expect(rules(sessionFileCheck(inputOf(finished())))).toEqual(['session.file']);
    saveSession({ id: 'abc' });
    expect(rules(sessionFileCheck(inputOf(finished())))).toEqual(['session.file']);
  });

  it('fails a file holding another id or another provider', () => {
    saveSession({ ...GOOD_SESSION, id: 'other' });
    expect(rules(sessionFileCheck(inputOf(finished())))).toEqual(['session.file']);
    saveSession({ ...GOOD_SESSION, provider: 'openai' });
    expect(rules(sessionFileCheck(inputOf(finished())))).toEqual(['session.file']);
  });

  it('asks nothing of Claude provider flags, of runs with no successful turn, or without a reported id', () => {
    expect(sessionFileCheck(inputOf(finished(), { providerFlag: 'anthropic' }))).toEqual([]);
    const failing = scenarioOf([{ expect: { isError: true } }]);
    expect(sessionFileCheck(inputOf(finished(), { scenario: failing }))).toEqual([]);
    expect(sessionFileCheck(inputOf([processOf()]))).toEqual([]);
    expect(sessionFileCheck(inputOf([processOf({ reportedSessionId: '../escape' })]))).toEqual([]);
  });
});

describe('resumeChecks', () => {
  const init = (sessionId: string): CanonicalEvent => ({ kind: 'init', line: 1, sessionId });
  /** A turn's process: the id its init reported and, for a resumed turn, the id the runner passed with --resume. */
  const turnProcess = (turn: number, sessionId: string, resumedWith = turn > 0 ? 's1' : undefined) =>
    processOf({
      turns: [turn],
      reportedSessionId: sessionId,
      label: `turn ${turn + 1}`,
      events: [init(sessionId)],
      ...(resumedWith ? { resumedWith } : {}),
    });

  it('passes a resumed process that keeps the id it was resumed with', () => {
    expect(resumeChecks(inputOf([turnProcess(0, 's1'), turnProcess(1, 's1')]))).toEqual([]);
    // an id announced after a compaction is the one the runner resumes with, and kept
    expect(resumeChecks(inputOf([turnProcess(0, 's1'), turnProcess(1, 's2', 's2')]))).toEqual([]);
  });

  it('fails a resumed process that reports another session id, on its init line', () => {
    const findings = resumeChecks(inputOf([turnProcess(0, 's1'), turnProcess(1, 's2')]));
    expect(rules(findings)).toEqual(['session.resume-keeps-id']);
    expect(findings[0]!.line).toBe(1);
  });

  it('under yume-app a /compact may already carry a new id in its init (the app reads init only); other turns may not', () => {
    const compact = scenarioOf([{}, { resume: true, prompt: '/compact keep it short' }]);
    const processes = [turnProcess(0, 's1'), turnProcess(1, 's2')];
    expect(resumeChecks(inputOf(processes, { scenario: compact, profile: 'yume-app' }))).toEqual([]);
    expect(rules(resumeChecks(inputOf(processes, { scenario: compact })))).toEqual(['session.resume-keeps-id']);
    const plain = scenarioOf([{}, { resume: true }]);
    expect(rules(resumeChecks(inputOf(processes, { scenario: plain, profile: 'yume-app' })))).toEqual([
      'session.resume-keeps-id',
    ]);
  });

  it('does not judge persistent runs or turns that do not resume', () => {
    expect(resumeChecks(inputOf([turnProcess(0, 's1'), turnProcess(1, 's2')], { persistent: true }))).toEqual([]);
    const noResume = scenarioOf([{}, {}]);
    expect(resumeChecks(inputOf([turnProcess(0, 's1'), turnProcess(1, 's2')], { scenario: noResume }))).toEqual([]);
  });
});
