// Claude Code's own forms (provider errors as assistant text, the interrupt as a user message, retries as
// `api_retry` lines, text as `stream_event` deltas) conform in Claude envelopes and only there: the same forms
// in the flat dialect still fail, each with its rule.
import { describe, expect, it } from 'vitest';
import { describeFindings, fixtureShim, rules, runFixture } from '../../runner/helpers/run-fixture.js';

describe.concurrent("Claude Code's forms", () => {
  it.each(['plain-text', 'fault-401', 'fault-stream-cut', 'fault-429-then-success', 'interrupt'])(
    'conform in Claude envelopes on %s',
    async (scenario) => {
      const result = await runFixture(fixtureShim('prints-claude-forms.mjs'), scenario);
      expect(rules(result), describeFindings(result)).toEqual([]);
      expect(result.status).toBe('passed');
    },
  );

  it('stream_event text deltas count as streamed text in Claude envelopes', async () => {
    const result = await runFixture(fixtureShim('prints-claude-forms.mjs'), 'single-tool');
    expect(rules(result, 'SHOULD'), describeFindings(result)).not.toContain('streaming.incremental');
  });

  it.each([
    ['fault-401', 'error.fault-outcome'],
    ['fault-stream-cut', 'error.fault-outcome'],
    ['fault-429-then-success', 'error.retries-listed'],
    ['interrupt', 'interrupt.acknowledged'],
  ])('fail in the flat dialect: %s → %s', async (scenario, rule) => {
    const result = await runFixture(fixtureShim('prints-claude-forms-flat.mjs'), scenario);
    expect(result.status).toBe('failed');
    expect(rules(result), describeFindings(result)).toContain(rule);
  });

  it('a flat stream whose text comes first as stream_event deltas gets the streaming warning', async () => {
    const result = await runFixture(fixtureShim('prints-claude-forms-flat.mjs'), 'plain-text');
    const finding = result.findings.find((candidate) => candidate.rule === 'streaming.incremental');
    expect(finding?.message, describeFindings(result)).toMatch(/stream_event.*counts only in Claude envelopes/);
  });

  it('the text streamed before a stream cut is not required, but its absence is a SHOULD warning', async () => {
    const result = await runFixture(fixtureShim('prints-claude-forms.mjs'), 'fault-stream-cut');
    expect(rules(result), describeFindings(result)).toEqual([]);
    const shown = await runFixture(fixtureShim('conforming-mini-shim.mjs'), 'fault-stream-cut');
    expect(rules(shown, 'SHOULD'), describeFindings(shown)).not.toContain('golden.partial-text');
  });
});
