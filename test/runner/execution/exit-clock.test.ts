// The exit clock: a process that keeps running after its last result, after stdin EOF or after SIGINT is
// ended about two seconds later (not at the run timeout) and reported once, under the rule of that moment.
import { describe, expect, it } from 'vitest';
import { RULE_PROOFS } from '../../rules/helpers/rule-proofs.js';
import { describeFindings, fixtureShim, processesTagged, runFixture } from '../helpers/run-fixture.js';

const posix = process.platform !== 'win32';
const timeoutMs = 30_000;

describe.runIf(posix).concurrent('the exit clock ends a lingering process after ~2 s', () => {
  // The proofs of test/rules/helpers/rule-proofs.ts that this file runs.
  it.each(
    RULE_PROOFS.flatMap((proof) =>
      'failing' in proof && proof.runIn === 'test/runner/execution/exit-clock.test.ts'
        ? [[proof.failing.shim, proof.failing.scenario, proof.rule] as const]
        : [],
    ),
  )('%s on %s → %s, long before the timeout', async (shim, scenario, rule) => {
    const started = performance.now();
    const result = await runFixture(fixtureShim(shim), scenario, { timeoutMs });
    const elapsed = performance.now() - started;
    const clockFindings = result.findings.filter((finding) =>
      ['process.exit-after-result', 'interrupt.exit-in-time', 'persistent.eof-exit', 'process.timeout'].includes(
        finding.rule,
      ),
    );
    expect(
      clockFindings.map((finding) => finding.rule),
      describeFindings(result),
    ).toEqual([rule]);
    expect(clockFindings[0]!.message).toMatch(/harness (ended|killed)/);
    expect(result.status).toBe('failed');
    expect(elapsed).toBeLessThan(timeoutMs / 2);
    expect(result.timeline.some((entry) => /the harness ended its process tree/.test(entry.text))).toBe(true);
    expect(processesTagged(result.tag)).toEqual([]);
  });
});
