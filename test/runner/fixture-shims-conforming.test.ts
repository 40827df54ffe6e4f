// Conforming variants — other ids, other chunking, the envelope dialect, CRLF, stderr
// noise, slow output — pass without a single MUST or SHOULD finding: the checks do not cry wolf.
import { describe, expect, it } from 'vitest';
import { describeFindings, fixtureShim, rules, runFixture } from './helpers/run-fixture.js';

describe.concurrent('conforming fixture shims raise no finding', () => {
  it.each([
    ['conforming-mini-shim.mjs', 'plain-text', undefined],
    ['conforming-mini-shim.mjs', 'single-tool', undefined],
    ['conforming-mini-shim.mjs', 'multi-tool', undefined],
    ['conforming-mini-shim.mjs', 'tool-error', undefined],
    ['conforming-mini-shim.mjs', 'interrupt', undefined],
    ['conforming-mini-shim.mjs', 'interrupt-during-bash', undefined],
    ['conforming-mini-shim.mjs', 'resume', undefined],
    ['conforming-mini-shim.mjs', 'fault-429-then-success', undefined],
    ['conforming-mini-shim.mjs', 'parallel-tools', 3],
    ['renames-tool-ids.mjs', 'multi-tool', undefined],
    ['prints-text-per-character.mjs', 'single-tool', 5],
    ['prints-claude-envelopes.mjs', 'multi-tool', undefined],
    ['prints-claude-envelopes.mjs', 'interrupt', undefined],
    ['ends-lines-with-crlf.mjs', 'single-tool', undefined],
    ['writes-stderr-noise.mjs', 'multi-tool', undefined],
    ['prints-slowly.mjs', 'single-tool', undefined],
  ])('%s on %s (re-chunk seed %s)', async (shim, scenario, seed) => {
    const result = await runFixture(fixtureShim(shim), scenario, seed === undefined ? {} : { seed });
    expect(rules(result), describeFindings(result)).toEqual([]);
    expect(rules(result, 'SHOULD'), describeFindings(result)).toEqual([]);
    expect(result.status).toBe('passed');
  });
});
