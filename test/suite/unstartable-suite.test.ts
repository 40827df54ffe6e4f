// A shim that could not be started in any run makes a suite in which no run took place: no runs, no counts,
// exit 2 and why (report.startFailure), even when the start failed only at spawn time (here: every run's start
// fails as a cgroup wrapper or an exec failure would report it; no check before the suite foresaw it).
import { describe, expect, it, vi } from 'vitest';
import { validatorFor } from '../../harness/protocol/schemas.js';
import { runFinding } from '../../harness/rules/finding.js';
import { runSuite } from '../helpers/nothing-left-open.js';
import { fixtureShim } from '../runner/helpers/run-fixture.js';

const REASON = 'my-shim: permission denied (make it executable: chmod +x, or give a .js file)';

vi.mock('../../harness/runner/run-scenario.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../harness/runner/run-scenario.js')>();
  return {
    ...original,
    runScenario: async (...args: Parameters<typeof original.runScenario>) => {
      const [spec] = args;
      // Every attempted run fails to start, as the spawner reports it (process/start-failure.ts).
      return {
        ...original.harnessErrorResult(spec, new Error('unused'), 1),
        status: 'failed' as const,
        error: undefined,
        findings: [runFinding('process.started', REASON)],
        startFailure: REASON,
      };
    },
  };
});

describe('a suite whose shim starts in no run', () => {
  it('reports that no run took place, and why: no runs, every count 0, exit 2', async () => {
    const report = await runSuite({
      shim: fixtureShim('conforming-mini-shim.mjs'),
      providers: ['openai-chat'],
      scenarios: ['plain-text', 'single-tool', 'persistent-mode'],
      capabilities: { providers: ['openai-chat'], dialect: 'flat' },
    });
    expect(report.runs).toEqual([]);
    expect(report.summary).toMatchObject({ passed: 0, failed: 0, notVerified: 0, warnings: 0 });
    expect(report.exitCode).toBe(2);
    expect(report.startFailure).toBe(REASON);
    expect(report.error).toBe(`the shim could not be started: ${REASON}`);
    expect(validatorFor('report.schema.json')(report)).toBe(true);
  });
});
