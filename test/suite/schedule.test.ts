// The scheduler: the slots with and without --jobs, the weights that keep timing-sensitive runs from sharing the machine
// with more work than it has cores for, longest-first start order, and the deterministic balanced shards.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunSpec } from '../../harness/runner/results/run-types.js';
import { runWeight, startOrder, suiteSlots, weightedPool } from '../../harness/suite/schedule.js';
import { assignShards, parseShard } from '../../harness/suite/shard.js';
import { SuiteWidth } from '../../harness/suite/suite-width.js';
import { TYPICAL_DURATIONS_MS } from '../../harness/suite/typical-durations.js';
import { transcripts } from '../runner/helpers/run-fixture.js';

const spec = (id: string, interrupt = false, provider = 'openai-chat', seed?: number) =>
  ({
    scenario: { id, turns: [interrupt ? { prompt: 'p', interrupt: 'after-first-text' } : { prompt: 'p' }] },
    provider,
    invocation: { kind: 'spec' },
    profile: 'spec',
    dialect: 'flat',
    ...(seed === undefined ? {} : { seed }),
  }) as unknown as RunSpec;

describe('schedule', () => {
  it('keeps a --jobs the user gave (1 included); without one, starts at the cores, at least 2, and moves', () => {
    expect(suiteSlots({ jobs: 3, cores: 2 })).toEqual({ capacity: 3 });
    expect(suiteSlots({ jobs: 1, cores: 8, presetPerCore: 1 })).toEqual({ capacity: 1 });
    const moving = suiteSlots({ cores: 2 });
    expect(moving.capacity).toBe(2);
    expect(moving.width).toBeInstanceOf(SuiteWidth);
    expect(moving.width!.current).toBe(2);
    expect(suiteSlots({ cores: 1 }).width!.current).toBe(2);
    expect(suiteSlots({ cores: 8 }).width!.current).toBe(8);
    expect(suiteSlots({ cores: 8, presetPerCore: 0.5 }).width!.current).toBe(4);
  });

  it('gives an interrupt run two slots, at most all of them', () => {
    expect(runWeight(spec('plain-text'), 8)).toBe(1);
    expect(runWeight(spec('interrupt', true), 8)).toBe(2);
    expect(runWeight(spec('interrupt', true), 1)).toBe(1);
  });

  it('knows a typical duration for every scenario, so none starts late by default', () => {
    const ids = readdirSync(transcripts, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(path.join(transcripts, entry.name, 'scenario.json')))
      .map((entry) => entry.name);
    expect(ids.length).toBeGreaterThan(30);
    expect(ids.filter((id) => TYPICAL_DURATIONS_MS[id] === undefined)).toEqual([]);
  });

  it('starts the runs that mostly wait (kills, interrupts, retry-after) before the quick ones', () => {
    const ids = ['plain-text', 'kill-and-resume-bash', 'single-tool', 'persistent-interrupt', 'fault-429-retry-after'];
    const order = startOrder(ids.map((id) => spec(id, id.includes('interrupt'))));
    expect(order.map((index) => ids[index])).toEqual([
      'kill-and-resume-bash',
      'persistent-interrupt',
      'fault-429-retry-after',
      'plain-text',
      'single-tool',
    ]);
  });

  it('starts the longest runs first', () => {
    const specs = [spec('plain-text'), spec('fault-429-retry-after'), spec('resume')];
    expect(startOrder(specs)).toEqual([1, 2, 0]);
  });

  it('never runs more weight than the capacity, in order, results in item order', async () => {
    const items = [2, 1, 1, 2, 1, 1, 1];
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const results = await weightedPool(
      items.map((weight, index) => ({ weight, index })),
      { capacity: 3, order: items.map((_, index) => index), weight: (item) => item.weight },
      async (item) => {
        running += item.weight;
        peak = Math.max(peak, running);
        started.push(item.index);
        await new Promise((resolve) => setTimeout(resolve, 5 + item.index));
        running -= item.weight;
        return item.index * 10;
      },
      () => undefined,
    );
    expect(peak).toBeLessThanOrEqual(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(results).toEqual([0, 10, 20, 30, 40, 50, 60]);
  });
});

describe('shards', () => {
  const specs = ['plain-text', 'interrupt', 'resume', 'multi-tool', 'fault-429-retry-after', 'single-tool'].flatMap(
    (id) => [1, 2, 3].map((seed) => spec(id, id === 'interrupt', 'openai-chat', seed)),
  );

  it('parses i/n and says what is wrong otherwise', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '1', 'a/b', '1/0']) expect(() => parseShard(bad)).toThrow(/--shard/);
  });

  it('splits deterministically into balanced parts that cover every run once', () => {
    const first = assignShards(specs, 3);
    expect(assignShards([...specs], 3)).toEqual(first);
    const sizes = [1, 2, 3].map((shard) => first.filter((assigned) => assigned === shard).length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(specs.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(2);
    expect(new Set(first)).toEqual(new Set([1, 2, 3]));
  });
});
