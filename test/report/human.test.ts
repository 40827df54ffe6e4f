// The terminal report: runs that did not pass in labelled groups (worst first, each with its whole identity),
// warnings once per rule with a count and the runs they hit, INFO notes only with --verbose, one line of
// counts and one verdict line; passing runs get no paragraph.
import { describe, expect, it } from 'vitest';
import { renderHuman } from '../../harness/report/human.js';
import { buildReport, type ConformanceReport, type ReportRun } from '../../harness/report/model.js';
import { runLabel } from '../../harness/report/run-label.js';

const base = { invocation: 'spec', profile: 'spec' as const, dialect: 'flat' };
const passing = (scenario: string, provider: string, seed?: number): ReportRun => ({
  scenario,
  provider,
  status: 'passed',
  ...base,
  ...(seed === undefined ? {} : { seed }),
  findings: [
    { rule: 'app.flat-dialect', severity: 'SHOULD', message: 'flat "text" line', fix: 'Print envelopes.' },
    { rule: 'process.orphaned-tools', severity: 'SHOULD', message: 'a tool outlived the shim' },
    { rule: 'session.note', severity: 'INFO', message: 'No action needed: resumed from the file' },
  ],
});
const must = {
  rule: 'golden.text',
  severity: 'MUST' as const,
  message: 'text differs\n  expected: a\n  observed: b',
  line: 4,
  fix: 'Print the text.',
};

function suiteReport(runs: ReportRun[]): ConformanceReport {
  return {
    ...buildReport(runs),
    verdict: runs.some((run) => run.status === 'failed') ? 'failed' : 'passed',
    exitCode: 0,
  };
}

const human = (report: ConformanceReport, extra: { verbose?: boolean; matrix?: boolean } = {}) =>
  renderHuman(report, { color: false, ...extra });

describe('human reporter', () => {
  const scenarios = [
    'plain-text',
    'single-tool',
    'multi-tool',
    'resume',
    'interrupt',
    'fault-401',
    'fault-429',
    'large-result',
  ];
  const providers = ['openai-chat', 'openai-responses', 'gemini', 'anthropic'];
  const all = scenarios.flatMap((scenario) =>
    providers.flatMap((provider) => [passing(scenario, provider, 1), passing(scenario, provider, 2)]),
  );

  it('prints a passing suite of 64 runs with repeated warnings in a few lines: each rule once with its count', () => {
    const text = human(suiteReport(all));
    const lines = text.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(40);
    expect(text).not.toContain('plain-text [openai-chat] invocation=spec profile=spec dialect=flat seed=2  (');
    expect(text.match(/SHOULD app\.flat-dialect/g)).toHaveLength(1);
    expect(text.match(/SHOULD process\.orphaned-tools/g)).toHaveLength(1);
    expect(text).toContain('SHOULD app.flat-dialect  ×64 in 64 runs');
    expect(text).toContain('and 61 more run(s) (--verbose lists them)');
    expect(text).not.toContain('session.note');
    expect(text).not.toContain('No action needed');
    expect(lines.at(-2)).toBe('64 run(s): 64 passed, 0 failed, 128 warnings in 64 runs');
    expect(lines.at(-1)).toBe('yume-conformance: PASSED, ✔ conforms (exit 0)');
    expect(text.match(/conforms/g)).toHaveLength(1);
  });

  it('--verbose shows the INFO notes and every run a warning hit', () => {
    const text = human(suiteReport(all), { verbose: true });
    expect(text).toContain('INFO   session.note  ×64 in 64 runs');
    expect(text).toContain('No action needed: resumed from the file');
    expect(text).not.toContain('more run(s)');
    expect(text.split('\n').filter((line) => line.includes('· large-result [anthropic]')).length).toBe(2 * 3);
  });

  it('shows a failing run in full with its whole identity; the same failure in other runs is listed under it', () => {
    const failing = (seed: number, line = 4): ReportRun => ({
      ...passing('plain-text', 'gemini', seed),
      status: 'failed',
      findings: [{ ...must, line }],
    });
    const yumeApp: ReportRun = { ...failing(1), profile: 'yume-app' };
    const text = human(
      suiteReport([failing(1), failing(2), yumeApp, failing(3, 5), passing('plain-text', 'openai-chat')]),
    );
    expect(text).toContain(
      'Failed (4)\n  ✘ plain-text [gemini] invocation=spec profile=spec dialect=flat seed=1\n    MUST   golden.text  line 4',
    );
    // Same scenario and provider, the same rule on the same line: another seed or profile is named, not repeated.
    expect(text).toContain(
      '           fix: Print the text.\n    the same rules on the same lines in 2 more run(s):\n' +
        '      ✘ plain-text [gemini] invocation=spec profile=spec dialect=flat seed=2\n' +
        '      ✘ plain-text [gemini] invocation=spec profile=yume-app dialect=flat seed=1\n',
    );
    expect(text.match(/MUST {3}golden\.text {2}line 4/g)).toHaveLength(1);
    // On another line it is another failure, shown in full.
    expect(text).toContain(
      '  ✘ plain-text [gemini] invocation=spec profile=spec dialect=flat seed=3\n    MUST   golden.text  line 5',
    );
    expect(text).toContain(
      '           text differs\n             expected: a\n             observed: b\n           fix: Print the text.',
    );
    expect(text).not.toMatch(/plain-text \[openai-chat\].*\n {4}/);
    expect(text.trimEnd().split('\n').at(-1)).toBe('yume-conformance: FAILED, ✘ does not conform (exit 0)');
  });

  it('groups what did not pass, labelled and worst first; a status it does not know gets a group of its own', () => {
    const run = (status: string, extra: Partial<ReportRun> = {}): ReportRun =>
      ({ scenario: `s-${status}`, provider: 'gemini', ...base, status, findings: [], ...extra }) as ReportRun;
    const text = human(
      suiteReport([
        run('partial', { limitation: 'no persistent mode' }),
        run('failed', { scenario: 's-expected', expectedFailure: 'known bug #4', findings: [must] }),
        run('not-verified', {
          notVerified: [{ scope: 'run', cause: 'capability', reason: 'needs persistent mode' }],
        }),
        run('brand-new'),
        run('inconclusive'),
        run('error', { error: 'internal error in the harness: boom' }),
        run('flaky'),
        run('failed', { findings: [{ ...must, severity: 'SHOULD', rule: 'x.should' }, must] }),
        run('passed'),
      ]),
    );
    const headings = text.split('\n').filter((line) => /^[A-Z]/.test(line) && !line.startsWith('Warnings'));
    expect(headings.map((line) => line.replace(/ \(.*/, ''))).toEqual([
      'Failed',
      'Flaky',
      'Harness errors',
      'Inconclusive',
      'Not verified',
      'Partial',
      'Expected failures',
      'Brand-new',
    ]);
    expect(text).toContain('not verified: needs persistent mode');
    expect(text).toContain('declared limitation: no persistent mode');
    expect(text).toContain('expected failure: known bug #4');
    expect(text).toContain('internal error in the harness: boom');
    // MUST findings first within a run.
    expect(text.indexOf('MUST   golden.text')).toBeLessThan(text.indexOf('SHOULD x.should'));
    expect(text).not.toContain('s-passed');
    expect(text).toMatch(
      /9 run\(s\): 1 passed, 1 failed, 1 flaky, 1 error, 1 inconclusive, 1 not verified, 1 partial, 1 expected failure, 1 brand new/,
    );
  });

  it('--matrix adds the scenario × provider matrix of all runs', () => {
    const failing: ReportRun = { ...passing('resume', 'gemini', 3), status: 'failed', findings: [must] };
    const text = human(suiteReport([...all, failing]), { matrix: true });
    expect(text).toMatch(/^scenario\s+openai-chat\s+openai-responses\s+gemini\s+anthropic$/m);
    expect(text).toMatch(/^resume\s+✔ 2\/2\s+✔ 2\/2\s+✘ 2\/3\s+✔ 2\/2$/m);
    expect(human(suiteReport(all))).not.toMatch(/^scenario\s+openai-chat/m);
  });

  it('says beside a label the dialect the run printed when it is not the one asked', () => {
    const printed: ReportRun = {
      ...passing('single-tool', 'gemini'),
      status: 'failed',
      findings: [must],
      dialectSeen: 'claude',
    };
    const asAsked: ReportRun = { ...printed, scenario: 'multi-tool', dialectSeen: 'flat' };
    const text = human(suiteReport([printed, asAsked]));
    expect(text).toContain('✘ single-tool [gemini] invocation=spec profile=spec dialect=flat (printed claude)');
    expect(text).toContain('✘ multi-tool [gemini] invocation=spec profile=spec dialect=flat\n');
    // The label itself, the run's identity in JUnit and merged reports, names the dialect asked.
    expect(runLabel(printed)).toBe('single-tool [gemini] invocation=spec profile=spec dialect=flat');
  });

  it('names a validate run by its file and what it was judged as', () => {
    expect(runLabel({ scenario: 'cap.jsonl', provider: 'n/a', profile: 'yume-app', dialect: 'envelope' })).toBe(
      'cap.jsonl profile=yume-app dialect=envelope',
    );
  });
});
