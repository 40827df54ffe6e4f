import { describe, expect, it } from 'vitest';
import type { ExpectedFailure } from '../../../harness/runner/config/expected-failures.js';
import type { RunResult } from '../../../harness/runner/results/run-types.js';
import {
  applyExpectedFailures,
  EXIT,
  type JudgedRun,
  suiteExit,
  suiteVerdict,
  summarizeResults,
} from '../../../harness/runner/results/verdict.js';

const must = (rule: string) => ({ rule, severity: 'MUST' as const, message: 'm' });
const should = (rule: string) => ({ rule, severity: 'SHOULD' as const, message: 'm' });

function result(status: RunResult['status'], findings: RunResult['findings'] = [], scenario = 'plain-text'): RunResult {
  return { scenario, provider: 'openai-chat', status, findings, profile: 'spec', invocation: 'spec' } as RunResult;
}

const judged = (status: JudgedRun['status'], extra: Partial<JudgedRun> = {}): JudgedRun => ({
  status,
  findings: [],
  ...extra,
});

describe('applyExpectedFailures', () => {
  const entry = (extra: Partial<ExpectedFailure> = {}): ExpectedFailure => ({
    scenario: 'plain-text',
    reason: 'known',
    ...extra,
  });

  it('marks a failed run listed as a whole as expected', () => {
    const [run] = applyExpectedFailures([result('failed', [must('x.y')])], [entry()], 'linux');
    expect(run!.expectedFailure).toBe('known');
    expect(run!.status).toBe('failed');
  });

  it('turns a passing run listed as a whole into a stale failure, unless the entry is intermittent', () => {
    const [stale] = applyExpectedFailures([result('passed')], [entry()], 'linux');
    expect(stale!.status).toBe('failed');
    expect(stale!.findings.map((finding) => finding.rule)).toEqual(['expected-failures.stale']);
    const [kept] = applyExpectedFailures([result('passed')], [entry({ intermittent: true })], 'linux');
    expect(kept!.status).toBe('passed');
  });

  it('expects a run per rule only when every MUST finding is listed', () => {
    const [covered] = applyExpectedFailures([result('failed', [must('a.b')])], [entry({ rule: 'a.b' })], 'linux');
    expect(covered!.expectedFailure).toBe('known');
    const [uncovered] = applyExpectedFailures(
      [result('failed', [must('a.b'), must('c.d')])],
      [entry({ rule: 'a.b' })],
      'linux',
    );
    expect(uncovered!.expectedFailure).toBeUndefined();
  });

  it('reports a listed rule that no longer fails as stale', () => {
    const [run] = applyExpectedFailures([result('failed', [must('c.d')])], [entry({ rule: 'a.b' })], 'linux');
    expect(run!.findings.map((finding) => finding.rule)).toContain('expected-failures.stale');
    expect(run!.expectedFailure).toBeUndefined();
  });

  it('leaves runs of another OS, and not-verified runs, alone', () => {
    const [otherOs] = applyExpectedFailures([result('passed')], [entry({ os: ['win32'] })], 'linux');
    expect(otherOs!.status).toBe('passed');
    const [skipped] = applyExpectedFailures([result('not-verified')], [entry()], 'linux');
    expect(skipped!.status).toBe('not-verified');
    expect(skipped!.findings).toEqual([]);
  });
});

describe('summarizeResults', () => {
  it('counts each status once and SHOULD findings as warnings', () => {
    const summary = summarizeResults([
      judged('passed', { findings: [should('w.one'), should('w.two')] }),
      judged('failed'),
      judged('failed', { expectedFailure: 'known' }),
      judged('not-verified'),
      judged('partial'),
      judged('error'),
    ]);
    expect(summary).toMatchObject({
      passed: 1,
      failed: 1,
      warnings: 2,
      notVerified: 1,
      partial: 1,
      expectedFailures: 1,
      errors: 1,
    });
  });
});

describe('suiteExit and suiteVerdict', () => {
  it('exits 0 when nothing fails, and partial runs make the verdict partial', () => {
    expect(suiteExit([judged('passed'), judged('not-verified')])).toEqual({ code: EXIT.ok });
    expect(suiteVerdict([judged('passed')])).toBe('passed');
    expect(suiteVerdict([judged('passed'), judged('partial')])).toBe('partial');
  });

  it('exits 1 on a failure, an error or a required run left unverified; an expected failure does not count', () => {
    expect(suiteExit([judged('failed')]).code).toBe(EXIT.failed);
    expect(suiteExit([judged('error')]).code).toBe(EXIT.failed);
    expect(suiteExit([judged('not-verified', { findings: [must('scenario.required-verified')] })]).code).toBe(
      EXIT.failed,
    );
    expect(suiteExit([judged('failed', { expectedFailure: 'known' })]).code).toBe(EXIT.ok);
    expect(suiteVerdict([judged('failed')])).toBe('failed');
  });

  it('exits 2 when no attempted run could start the shim, naming the first reason', () => {
    const exit = suiteExit([
      judged('failed', { startFailure: 'ENOENT shim' }),
      judged('failed', { startFailure: 'other' }),
      judged('not-verified'),
    ]);
    expect(exit.code).toBe(EXIT.usage);
    expect(exit.reason).toContain('ENOENT shim');
    expect(suiteExit([judged('failed', { startFailure: 'x' }), judged('passed')]).code).toBe(EXIT.failed);
  });
});
