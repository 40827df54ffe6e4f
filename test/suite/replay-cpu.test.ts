// A run played more than once keeps the CPU of every attempt's shims (the bench sets the harness's CPU against
// it), and none when some attempt's could not be measured.
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../harness/runner/results/run-types.js';
import { playRun } from '../../harness/suite/replay.js';

const context = { expected: [], os: 'linux', stopped: () => false };

function attempt(shimCpuMs: number | undefined, undecided: boolean): RunResult {
  return {
    scenario: 'plain-text',
    provider: 'openai-chat',
    invocation: 'spec',
    profile: 'spec',
    required: true,
    status: undecided ? 'not-verified' : 'passed',
    findings: [],
    ...(undecided ? { machineUndecided: [{ rule: 'process.exit-after-result', reason: 'the runner stalled' }] } : {}),
    durationMs: 100,
    processes: [],
    requests: [],
    timeline: [],
    ...(shimCpuMs === undefined ? {} : { shimCpuMs }),
  } as RunResult;
}

/** Plays the scripted attempts in order. */
const scripted = (attempts: RunResult[]) => () => Promise.resolve(attempts.shift()!);

describe('playRun', () => {
  it("sums the shims' CPU over the attempts of a run played again", async () => {
    const result = await playRun(scripted([attempt(120, true), attempt(80, false)]), context);
    expect(result.attempts).toHaveLength(2);
    expect(result.shimCpuMs).toBe(200);
  });

  it('keeps a single attempt as it is, and gives none when one attempt was not measured', async () => {
    expect((await playRun(scripted([attempt(50, false)]), context)).shimCpuMs).toBe(50);
    expect((await playRun(scripted([attempt(undefined, true), attempt(80, false)]), context)).shimCpuMs).toBe(
      undefined,
    );
  });

  it('sums over the repeats of --repeat', async () => {
    const result = await playRun(scripted([attempt(10, false), attempt(20, false), attempt(30, false)]), context, 3);
    expect(result.shimCpuMs).toBe(60);
  });
});
