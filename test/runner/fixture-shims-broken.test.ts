// Small broken shims, one per check, each caught by its rule — and the runs of shims
// that hang, flood, leave a grandchild holding stdout or print nothing end within timeout + 5 s with a clear
// finding and no process left behind.
import { describe, expect, it } from 'vitest';
import { RULE_PROOFS } from '../rules/helpers/rule-proofs.js';
import { describeFindings, fixtureShim, processesTagged, rules, runFixture } from './helpers/run-fixture.js';

const posix = process.platform !== 'win32';

// Run-level rules are proven by test/rules/run-rule-proofs.test.ts; these runs show stream rules caught in a run.
describe.concurrent('broken fixture shims are caught, each by its rule', () => {
  it.each([
    ['drops-result.mjs', 'plain-text', 'turn.result-last'],
    ['swaps-tool-use-and-result.mjs', 'single-tool', 'tool.result-pairs-use'],
    ['duplicates-tool-id.mjs', 'multi-tool', 'tool.unique-id'],
    ['prints-success-after-error.mjs', 'fault-400', 'error.no-success-after-error'],
    // An extra key in a tool input, ordinary or `__proto__` (kept as JSON has it, never dropped by a copy).
    ['adds-tool-input-key.mjs', 'single-tool', 'golden.tool-calls'],
    ['hides-key-in-proto.mjs', 'single-tool', 'golden.tool-calls'],
    // compaction's stream rules (docs/protocol.md#r21-compaction), judged by the turn's prompt in a run
    ['changes-session-id-silently.mjs', 'compact', 'turn.result-session-id'],
  ])('%s on %s → %s', async (shim, scenario, rule) => {
    const result = await runFixture(fixtureShim(shim), scenario);
    expect(result.status).toBe('failed');
    expect(rules(result), describeFindings(result)).toContain(rule);
  });

  it.each([
    ['reports-usage-on-compact.mjs', 'compact', 'app.compaction-zero-usage'],
    ['prints-boundary-with-zero-usage.mjs', 'plain-text', 'app.zero-usage-result'],
    ['announces-new-session-id.mjs', 'compact', 'app.session-id-from-init'],
  ])('%s on %s under the yume-app profile → %s', async (shim, scenario, rule) => {
    const result = await runFixture(fixtureShim(shim), scenario, { profile: 'yume-app' });
    expect(result.status).toBe('failed');
    expect(rules(result), describeFindings(result)).toContain(rule);
  });

  it("the runner resumes with a session id announced after a compaction under spec, and with init's under the app", async () => {
    const spec = await runFixture(fixtureShim('announces-and-moves-session.mjs'), 'compact');
    expect(rules(spec), describeFindings(spec)).toEqual([]);
    expect(spec.status).toBe('passed');
    const app = await runFixture(fixtureShim('announces-and-moves-session.mjs'), 'compact', {
      invocation: { kind: 'yume-app' },
      profile: 'yume-app',
      provider: 'openai-responses',
    });
    expect(rules(app), describeFindings(app)).toEqual(
      expect.arrayContaining(['app.session-id-from-init', 'requests.history-on-resume']),
    );
  });

  it("a /compact result with the summary request's tokens is a SHOULD under spec, the reference shim's 0/0 nothing", async () => {
    const broken = await runFixture(fixtureShim('reports-usage-on-compact.mjs'), 'compact');
    expect(rules(broken, 'SHOULD'), describeFindings(broken)).toContain('compaction.result-zero-usage');
    expect(rules(broken), describeFindings(broken)).toEqual([]);
    const reference = await runFixture(fixtureShim('passes-through-reference.mjs'), 'compact', { profile: 'yume-app' });
    expect(rules(reference), describeFindings(reference)).toEqual([]);
    expect(reference.status).toBe('passed');
  });

  it('a shim that prints text only when the message is complete gets the streaming SHOULD finding, not a failure', async () => {
    const result = await runFixture(fixtureShim('buffers-text-until-done.mjs'), 'plain-text');
    expect(rules(result, 'SHOULD'), describeFindings(result)).toContain('streaming.incremental');
    expect(rules(result)).toEqual([]);
    expect(result.status).toBe('passed');
  });

  it('the conforming mini shim gets no streaming finding (the gate opened on its first text)', async () => {
    const result = await runFixture(fixtureShim('conforming-mini-shim.mjs'), 'plain-text');
    expect(rules(result, 'SHOULD'), describeFindings(result)).toEqual([]);
  });
});

describe
  .runIf(posix)
  .concurrent('misbehaving processes end within timeout + 5 s with a clear finding and nothing left', () => {
    const timeoutMs = 2500;

    // The proofs of test/rules/helpers/rule-proofs.ts that this file runs.
    it.each(
      RULE_PROOFS.flatMap((proof) =>
        'failing' in proof && proof.runIn === 'test/runner/fixture-shims-broken.test.ts'
          ? [[proof.failing.shim, proof.failing.scenario, proof.rule] as const]
          : [],
      ),
    )('%s on %s → %s', async (shim, scenario, rule) => {
      const started = performance.now();
      // An 8 MB capture limit keeps the flood case quick; the default (64 MB) works the same way.
      const result = await runFixture(fixtureShim(shim), scenario, { timeoutMs, maxStdoutBytes: 8 * 1024 * 1024 });
      const elapsed = performance.now() - started;
      expect(rules(result), describeFindings(result)).toContain(rule);
      expect(result.status).toBe('failed');
      expect(elapsed).toBeLessThan(timeoutMs + 5000 + 1500); // + the run's own setup and checks
      expect(processesTagged(result.tag)).toEqual([]);
    });

    it('names the grandchild that held stdout and says the harness ended it', async () => {
      const result = await runFixture(fixtureShim('grandchild-holds-stdout.mjs'), 'plain-text', { timeoutMs });
      const finding = result.findings.find((candidate) => candidate.rule === 'process.stdout-held-open');
      expect(finding?.message).toMatch(/held by node \(pid \d+\); the harness ended them/);
    });

    it('reports the stderr of a shim that exits without output', async () => {
      const result = await runFixture(fixtureShim('exits-without-output.mjs'), 'plain-text', { timeoutMs });
      const finding = result.findings.find((candidate) => candidate.rule === 'process.no-output');
      expect(finding?.message).toContain('code 3');
      expect(finding?.message).toContain('giving up before printing anything');
    });
  });
