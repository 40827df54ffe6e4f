import { describe, expect, it } from 'vitest';
import type { LoadedScenario } from '../../harness/mock/scenario/scenario-types.js';
import type { RunSpec } from '../../harness/runner/results/run-types.js';
import { assignShards, parseShard, selectionFingerprint } from '../../harness/suite/shard.js';
import { typicalDurationMs } from '../../harness/suite/typical-durations.js';

const spec = (scenario: string, provider: RunSpec['provider'] = 'openai-chat'): RunSpec => ({
  scenario: { id: scenario } as LoadedScenario,
  provider,
  invocation: { kind: 'spec' },
  profile: 'spec',
  dialect: 'flat',
});

describe('parseShard', () => {
  it('reads i/n, trimmed', () => {
    expect(parseShard(' 2/4 ')).toEqual({ index: 2, count: 4 });
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
  });

  it('refuses values outside 1 <= i <= n with a usage error naming the value', () => {
    for (const bad of ['0/2', '3/2', '1/0', 'a/b', '2', '-1/2']) {
      expect(() => parseShard(bad)).toThrow(expect.objectContaining({ name: 'UsageError' }));
      expect(() => parseShard(bad)).toThrow(JSON.stringify(bad));
    }
  });
});

describe('selectionFingerprint', () => {
  it('depends on the keys and their order', () => {
    const fingerprint = selectionFingerprint(['a', 'b']);
    expect(fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect(selectionFingerprint(['a', 'b'])).toBe(fingerprint);
    expect(selectionFingerprint(['b', 'a'])).not.toBe(fingerprint);
    expect(selectionFingerprint(['a'])).not.toBe(fingerprint);
  });
});

describe('assignShards', () => {
  it('gives every run one shard in 1..n and balances the expected time (longest first, to the lightest)', () => {
    const specs = ['kill-and-resume-bash', 'kill-and-resume', 'plain-text', 'multi-tool', 'outside-cwd'].map((id) =>
      spec(id),
    );
    const shards = assignShards(specs, 2);
    expect(shards[0]).toBe(1); // the longest run opens the first shard
    expect(new Set(shards)).toEqual(new Set([1, 2]));
    const load = (shard: number) =>
      specs.reduce((sum, each, index) => sum + (shards[index] === shard ? typicalDurationMs(each.scenario.id) : 0), 0);
    expect(Math.abs(load(1) - load(2))).toBeLessThan(typicalDurationMs('kill-and-resume-bash'));
  });

  it('is the same split for the same selection in another order', () => {
    const specs = [spec('plain-text'), spec('plain-text', 'anthropic'), spec('multi-tool'), spec('resume')];
    const reversed = [...specs].reverse();
    const forward = assignShards(specs, 3);
    const backward = assignShards(reversed, 3).reverse();
    expect(backward).toEqual(forward);
  });

  it('puts everything in shard 1 when n is 1', () => {
    expect(assignShards([spec('plain-text'), spec('resume')], 1)).toEqual([1, 1]);
  });
});
