// Whatever a shim prints, the suite judges it and goes on: long streams and deep inputs are judged in linear
// time without exhausting the stack, and a fault inside the harness gives that one run the status `error`.
import { describe, expect, it, vi } from 'vitest';
import { runSuite } from '../helpers/nothing-left-open.js';
import { describeFindings, fixtureShim, processesTagged, rules, runFixture } from './helpers/run-fixture.js';

vi.mock('../../harness/runner/checks/check-run.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../harness/runner/checks/check-run.js')>();
  return {
    ...original,
    // A deliberate fault in the judge, for one scenario only.
    checkRun: async (input: Parameters<typeof original.checkRun>[0]) => {
      if (input.scenario.id === 'fault-400') throw new TypeError('judge fault injected by the test');
      return original.checkRun(input);
    },
  };
});

describe.concurrent('the suite never aborts for a shim', () => {
  it('a valid stream of 150,000 lines passes', async () => {
    const result = await runFixture(fixtureShim('prints-150000-lines.mjs'), 'plain-text');
    expect(result.status, describeFindings(result)).toBe('passed');
    expect(processesTagged(result.tag)).toEqual([]);
  });

  it('150,000 stray text lines fail the golden comparison (no stack overflow on their line range)', async () => {
    const result = await runFixture(fixtureShim('prints-150000-stray-text-lines.mjs'), 'plain-text');
    expect(result.status).toBe('failed');
    expect(rules(result), describeFindings(result)).toContain('golden.text');
    expect(describeFindings(result)).toMatch(/\d+-1500\d\d/);
    expect(processesTagged(result.tag)).toEqual([]);
  });

  it('a tool input nested 2,000 deep is judged, not followed down the stack', async () => {
    const result = await runFixture(fixtureShim('nests-tool-input-2000-deep.mjs'), 'single-tool');
    expect(result.status).toBe('failed');
    expect(rules(result), describeFindings(result)).toEqual(
      expect.arrayContaining(['framing.nesting-depth', 'golden.tool-calls']),
    );
    expect(processesTagged(result.tag)).toEqual([]);
  });

  it('a fault inside the harness gives that run the status error, and the suite goes on', async () => {
    const report = await runSuite({
      shim: fixtureShim('conforming-mini-shim.mjs'),
      providers: ['openai-chat'],
      scenarios: ['fault-400', 'plain-text'],
      capabilities: { providers: ['openai-chat'], dialect: 'flat' },
      jobs: 1,
    });
    const statuses = new Map(report.runs.map((run) => [run.scenario, run.status]));
    expect(Object.fromEntries(statuses)).toEqual({ 'fault-400': 'error', 'plain-text': 'passed' });
    const failed = report.runs.find((run) => run.status === 'error')!;
    expect(failed.error).toMatch(/internal error in the harness.*TypeError: judge fault injected/);
    expect(report.summary.errors).toBeGreaterThan(0);
    expect(report.exitCode).toBe(1);
    expect(report.verdict).toBe('failed');
  });
});
