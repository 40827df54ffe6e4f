// A finished run leaves nothing that keeps Node running: a delay raced against something that won (the turn
// timeout of persistent mode, the interrupt fallback, stdio grace) used to hold `yume-conformance` open for up
// to 30 s after its report. Timer scopes and withTimeout clear them (harness/process/timer-scope.ts), and a
// closed scope aborts the waits that poll on their own (a fake CLI's log).
import { describe, expect, it } from 'vitest';
import { TimerScope, withTimeout } from '../../harness/process/timer-scope.js';
import { runSuite } from '../helpers/nothing-left-open.js';

const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

describe('timers of a run', () => {
  it('a scope clears its delays on close, and a closed scope delays forever', async () => {
    const before = timers();
    const scope = new TimerScope();
    let settled = false;
    void scope.delay(60_000).then(() => (settled = true));
    await scope.delay(5);
    expect(scope.pending).toBe(1);
    expect(timers()).toBe(before + 1);
    expect(scope.signal.aborted).toBe(false);
    scope.close();
    expect(scope.signal.aborted).toBe(true);
    expect(scope.pending).toBe(0);
    expect(timers()).toBe(before);
    const afterClose = scope.delay(1);
    expect(
      await Promise.race([
        afterClose.then(() => 'settled'),
        new Promise((resolve) => setTimeout(() => resolve('pending'), 30)),
      ]),
    ).toBe('pending');
    expect(settled).toBe(false);
  });

  it('withTimeout gives the value or the fallback and clears its timer either way', async () => {
    const before = timers();
    expect(await withTimeout(Promise.resolve('value'), 60_000, 'fallback')).toBe('value');
    expect(timers()).toBe(before);
    expect(await withTimeout(new Promise(() => undefined), 5, 'fallback')).toBe('fallback');
    expect(timers()).toBe(before);
  });

  it.each(['plain-text', 'interrupt', 'persistent-mode'])(
    'runConformance (%s) leaves nothing open',
    async (scenario) => {
      const report = await runSuite({ providers: ['openai-chat'], scenarios: [scenario] });
      expect(report.summary.failed).toBe(0);
      expect(report.runs.length).toBeGreaterThan(0);
    },
  );

  // A fake CLI beside the REST mock (the app's gemini and openai ids offer both, R7): the runner also waits for
  // the CLI's log to say the moment came. That poll, left to its own 8 s, once held a finished command open.
  it.each([
    ['kill-and-resume', 'gemini'],
    ['kill-and-resume-bash', 'openai-responses'],
  ] as const)('runConformance (%s [%s] under the app invocation) leaves nothing open', async (scenario, provider) => {
    const report = await runSuite({ providers: [provider], scenarios: [scenario], invocation: 'yume-app' });
    expect(report.summary.passed).toBe(1);
  });
});
