// The acceptance test: the bundled reference shim passes the representative matrix (R12) — every
// scenario once per provider id with the defaults, plus the fixed sample of other invocations, profiles,
// dialects and seeded re-chunkings — with exit code 0. Runs at the default width (the cores, growing while the
// machine has room), as `npx yume-conformance` does, interrupt runs included.
import { describe, expect, it } from 'vitest';
import { runSuiteWithResults } from '../helpers/nothing-left-open.js';

describe('the reference shim', () => {
  it(
    'passes the representative matrix',
    async () => {
      const started = performance.now();
      const { report, results } = await runSuiteWithResults();
      const failing = report.runs
        .filter((run) => run.status === 'failed' || (run.status === 'not-verified' && run.required))
        .map(
          (run) =>
            `${run.scenario} · ${run.provider} · ${String(run.invocation)}/${run.profile}/${run.dialect}${run.seed === undefined ? '' : ` · seed ${String(run.seed)}`}\n  ${run.findings
              .filter((finding) => finding.severity === 'MUST')
              .map((finding) => `${finding.rule}: ${finding.message.split('\n')[0]}`)
              .join('\n  ')}`,
        );
      expect(failing, failing.join('\n')).toEqual([]);
      expect(report.exitCode).toBe(0);
      // Every required scenario ran for every provider id, and what is not verified says why.
      for (const id of ['plain-text', 'single-tool', 'multi-tool', 'tool-error', 'interrupt']) {
        expect(
          new Set(
            report.runs.filter((run) => run.scenario === id && run.status === 'passed').map((run) => run.provider),
          ).size,
          id,
        ).toBe(8);
      }
      for (const run of report.runs.filter((entry) => entry.status === 'not-verified' || entry.status === 'partial'))
        expect(run.notVerified?.length).toBeGreaterThan(0);
      expect(results.map((result) => result.scenario)).toEqual(report.runs.map((run) => run.scenario));
      // The budget of R12: generous, so a busy machine does not make it flaky.
      expect(performance.now() - started).toBeLessThan(5 * 60_000);
    },
    8 * 60_000,
  );
});
