// The replay rules on scripted attempts (no shim): which runs are played again, when a run becomes
// inconclusive or flaky, and what each attempt keeps. The end-to-end proofs (a forced stall, a counter-file
// fixture) are in test/runner/replay-undecided.test.ts and test/runner/repeat.test.ts.
import { describe, expect, it } from 'vitest';
import { hasRule } from '../../harness/rules/catalog.js';
import type { RunResult, RunStatus } from '../../harness/runner/results/run-types.js';
import {
  DEADLINE_RULES,
  leftUndecided,
  MAX_ATTEMPTS,
  outcomeClass,
  playRun,
  type ReplayContext,
} from '../../harness/suite/replay.js';

const context = (overrides: Partial<ReplayContext> = {}): ReplayContext => ({
  expected: [],
  os: 'linux',
  stopped: () => false,
  ...overrides,
});

const must = (rule: string) => ({ rule, severity: 'MUST' as const, message: `${rule} broke`, section: '§1' });
const undecided = [{ rule: 'process.exit-timely', reason: 'the runner could not look' }];

function result(status: RunStatus, extra: Partial<RunResult> = {}): RunResult {
  return {
    scenario: 'plain-text',
    provider: 'openai-chat',
    invocation: 'spec',
    profile: 'spec',
    required: true,
    status,
    findings: [],
    durationMs: 10,
    processes: [],
    requests: [],
    timeline: [],
    ...extra,
  } as RunResult;
}

/** A play function that returns the scripted results in order, counting its calls. */
function scripted(...results: RunResult[]) {
  let calls = 0;
  const play = async () => results[Math.min(calls++, results.length - 1)]!;
  return { play, calls: () => calls };
}

describe('leftUndecided', () => {
  it('is true only for a run the machine left undecided and nothing failed', () => {
    expect(leftUndecided(result('not-verified', { machineUndecided: undecided }))).toBe(true);
    expect(leftUndecided(result('not-verified'))).toBe(false);
    expect(leftUndecided(result('failed', { machineUndecided: undecided }))).toBe(false);
    expect(leftUndecided(result('not-verified', { machineUndecided: undecided, interrupted: true }))).toBe(false);
  });
});

describe('playRun', () => {
  it('plays a decided run once and keeps no attempts', async () => {
    const shim = scripted(result('passed'));
    const final = await playRun(shim.play, context());
    expect(shim.calls()).toBe(1);
    expect(final.status).toBe('passed');
    expect(final.attempts).toBeUndefined();
  });

  it('plays an undecided run again until it is decided, keeping every attempt', async () => {
    const shim = scripted(result('not-verified', { machineUndecided: undecided }), result('passed'));
    const final = await playRun(shim.play, context());
    expect(shim.calls()).toBe(2);
    expect(final.status).toBe('passed');
    expect(final.attempts?.map((attempt) => attempt.status)).toEqual(['not-verified', 'passed']);
    expect(final.attempts?.[0]?.machineUndecided).toEqual(undecided);
  });

  it(`calls a required run inconclusive after ${MAX_ATTEMPTS} undecided attempts`, async () => {
    const shim = scripted(result('not-verified', { machineUndecided: undecided }));
    const final = await playRun(shim.play, context());
    expect(shim.calls()).toBe(MAX_ATTEMPTS);
    expect(final.status).toBe('inconclusive');
    expect(final.attempts).toHaveLength(MAX_ATTEMPTS);
  });

  it('leaves an optional run not verified after the same attempts', async () => {
    const shim = scripted(result('not-verified', { required: false, machineUndecided: undecided }));
    const final = await playRun(shim.play, context());
    expect(shim.calls()).toBe(MAX_ATTEMPTS);
    expect(final.status).toBe('not-verified');
  });

  it('never plays a failed run again, whatever the machine left undecided beside it', async () => {
    const shim = scripted(result('failed', { findings: [must('golden.text')], machineUndecided: undecided }));
    const final = await playRun(shim.play, context());
    expect(shim.calls()).toBe(1);
    expect(final.status).toBe('failed');
  });

  it('never plays again a run an intermittent expected failure covers', async () => {
    const expected = [{ scenario: 'plain-text', intermittent: true, reason: 'comes and goes' }];
    const shim = scripted(result('not-verified', { machineUndecided: undecided }));
    await playRun(shim.play, context({ expected }));
    expect(shim.calls()).toBe(1);
  });

  it('stops playing once the suite is stopped', async () => {
    const shim = scripted(result('not-verified', { machineUndecided: undecided }));
    await playRun(shim.play, context({ stopped: () => true }));
    expect(shim.calls()).toBe(1);
  });

  it('with --repeat, calls a run whose outcome classes differ flaky, and one that keeps its class not', async () => {
    const flaky = scripted(result('passed'), result('failed', { findings: [must('golden.text')] }), result('passed'));
    const flakyFinal = await playRun(flaky.play, context(), 3);
    expect(flaky.calls()).toBe(3);
    expect(flakyFinal.status).toBe('flaky');
    expect(flakyFinal.attempts?.map((attempt) => attempt.status)).toEqual(['passed', 'failed', 'passed']);

    const steady = scripted(result('passed'));
    const steadyFinal = await playRun(steady.play, context(), 3);
    expect(steadyFinal.status).toBe('passed');
    expect(steadyFinal.attempts).toHaveLength(3);
  });

  it('counts an expected failure and a pass as one class: an intermittent expected failure is not flaky', async () => {
    const expected = [{ scenario: 'plain-text', rule: 'golden.text', intermittent: true, reason: 'comes and goes' }];
    const shim = scripted(result('failed', { findings: [must('golden.text')] }), result('passed'));
    const final = await playRun(shim.play, context({ expected }), 2);
    expect(final.status).toBe('passed');
    expect(final.attempts?.[0]?.expectedFailure).toBe(true);
  });
});

describe('playRun where no deadline can be measured (Windows)', () => {
  const unmeasured = context({ deadlinesUnmeasured: true });
  const timedOut = () => result('failed', { findings: [must('process.timeout')] });

  it('plays a run that failed on deadlines alone once more, and the second verdict stands', async () => {
    const recovered = scripted(timedOut(), result('passed'));
    const recoveredFinal = await playRun(recovered.play, unmeasured);
    expect(recovered.calls()).toBe(2);
    expect(recoveredFinal.status).toBe('passed');
    expect(recoveredFinal.attempts?.map((attempt) => attempt.status)).toEqual(['failed', 'passed']);

    const again = scripted(timedOut());
    const againFinal = await playRun(again.play, unmeasured);
    expect(again.calls()).toBe(2);
    expect(againFinal.status).toBe('failed');
  });

  it('never plays again a failure with any finding that is not a deadline', async () => {
    const shim = scripted(result('failed', { findings: [must('process.timeout'), must('golden.text')] }));
    await playRun(shim.play, unmeasured);
    expect(shim.calls()).toBe(1);
  });

  it('names only rules of the catalog', () => {
    expect([...DEADLINE_RULES].filter((rule) => !hasRule(rule))).toEqual([]);
  });

  it('plays nothing again where deadlines are measured', async () => {
    const shim = scripted(timedOut());
    await playRun(shim.play, context());
    expect(shim.calls()).toBe(1);
  });
});

describe('outcomeClass', () => {
  it('puts passed, partial and expected failures in one class, and each other status in its own', () => {
    expect(outcomeClass({ status: 'passed', durationMs: 1, findings: [] })).toBe('passed');
    expect(outcomeClass({ status: 'partial', durationMs: 1, findings: [] })).toBe('passed');
    expect(outcomeClass({ status: 'failed', durationMs: 1, findings: [], expectedFailure: true })).toBe('passed');
    expect(outcomeClass({ status: 'failed', durationMs: 1, findings: [] })).toBe('failed');
    expect(outcomeClass({ status: 'error', durationMs: 1, findings: [] })).toBe('failed');
    expect(outcomeClass({ status: 'not-verified', durationMs: 1, findings: [] })).toBe('not-verified');
    expect(outcomeClass({ status: 'inconclusive', durationMs: 1, findings: [] })).toBe('inconclusive');
  });
});

// A run played more than once keeps the CPU of every attempt's shims (the bench sets the harness's CPU against
// it), and none when some attempt's could not be measured.
describe("playRun, the shims' CPU", () => {
  const attempt = (shimCpuMs: number | undefined, undecidedByMachine: boolean) =>
    result(undecidedByMachine ? 'not-verified' : 'passed', {
      ...(undecidedByMachine ? { machineUndecided: undecided } : {}),
      ...(shimCpuMs === undefined ? {} : { shimCpuMs }),
    });

  it("sums the shims' CPU over the attempts of a run played again", async () => {
    const run = await playRun(scripted(attempt(120, true), attempt(80, false)).play, context());
    expect(run.attempts).toHaveLength(2);
    expect(run.shimCpuMs).toBe(200);
  });

  it('keeps a single attempt as it is, and gives none when one attempt was not measured', async () => {
    expect((await playRun(scripted(attempt(50, false)).play, context())).shimCpuMs).toBe(50);
    expect((await playRun(scripted(attempt(undefined, true), attempt(80, false)).play, context())).shimCpuMs).toBe(
      undefined,
    );
  });

  it('sums over the repeats of --repeat', async () => {
    const shim = scripted(attempt(10, false), attempt(20, false), attempt(30, false));
    expect((await playRun(shim.play, context(), 3)).shimCpuMs).toBe(60);
  });
});
