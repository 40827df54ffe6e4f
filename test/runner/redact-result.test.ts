import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from '../../harness/runner/redact.js';
import { redactResult } from '../../harness/runner/redact-result.js';
import type { RunResult } from '../../harness/runner/results/run-types.js';

const RUN_SECRET = 'run-only-secret-value';
const SUITE_SECRET = 'suite-wide-secret-value';

function leakyResult(): RunResult {
  const both = `${RUN_SECRET} ${SUITE_SECRET}`;
  return {
    scenario: 's',
    status: 'failed',
    findings: [{ rule: 'r.x', severity: 'MUST', message: both, excerpt: both, fix: both }],
    notVerified: [{ scope: 'run', cause: 'harness', reason: both }],
    startFailure: both,
    processes: [{ argv: ['shim', both], stdout: Buffer.from(both), stderr: both }],
    requests: [{ path: `/v1?key=${RUN_SECRET}`, body: both }],
    timeline: [{ text: both }],
    secrets: [RUN_SECRET],
  } as unknown as RunResult;
}

describe('redactResult', () => {
  it("replaces the run's and the suite's secrets in every stored text, then drops the run's secret list", () => {
    const redacted = redactResult(leakyResult(), new Redactor([SUITE_SECRET]));
    const stored = JSON.stringify({
      ...redacted,
      processes: redacted.processes.map((p) => ({ ...p, stdout: p.stdout.toString() })),
    });
    expect(stored).not.toContain(RUN_SECRET);
    expect(stored).not.toContain(SUITE_SECRET);
    expect(redacted.findings[0]!.message).toBe(`${REDACTED} ${REDACTED}`);
    expect(redacted.processes[0]!.stdout.toString()).toBe(`${REDACTED} ${REDACTED}`);
    expect(redacted.requests[0]!.path).toBe(`/v1?key=${REDACTED}`);
    expect(redacted.secrets).toBeUndefined();
  });

  it("uses the suite's redactor alone when the run has no secrets of its own", () => {
    const result = { ...leakyResult(), secrets: [] };
    const redacted = redactResult(result, new Redactor([SUITE_SECRET]));
    expect(redacted.timeline[0]!.text).toBe(`${RUN_SECRET} ${REDACTED}`);
  });
});
