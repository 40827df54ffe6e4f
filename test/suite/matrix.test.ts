import { describe, expect, it } from 'vitest';
import type { LoadedScenario } from '../../harness/mock/scenario/scenario-types.js';
import { capabilitiesFrom } from '../../harness/runner/config/capabilities.js';
import { runKey, specIdentity } from '../../harness/runner/results/run-identity.js';
import type { RunSpec } from '../../harness/runner/results/run-types.js';
import { buildMatrix, defaultProfile, type MatrixOptions } from '../../harness/suite/matrix.js';

const scenario = (id: string, providers?: LoadedScenario['providers']) =>
  ({ id, ...(providers ? { providers } : {}) }) as LoadedScenario;

const options = (extra: Partial<MatrixOptions> = {}): MatrixOptions => ({
  scenarios: [scenario('plain-text'), scenario('resume')],
  providers: ['openai-chat'],
  capabilities: capabilitiesFrom({}, 'test'),
  full: false,
  seed: 100,
  ...extra,
});

const keys = (runs: RunSpec[]) => runs.map((run) => runKey(specIdentity(run)));

describe('defaultProfile', () => {
  it('follows the invocation unless the profile is pinned', () => {
    expect(defaultProfile({ kind: 'yume-app' }, undefined)).toBe('yume-app');
    expect(defaultProfile({ kind: 'spec' }, undefined)).toBe('spec');
    expect(defaultProfile({ kind: 'yume-app' }, 'spec')).toBe('spec');
  });
});

describe('buildMatrix, representative', () => {
  it('runs every scenario once per provider with the defaults, and samples the rest without duplicates', () => {
    const runs = buildMatrix(options());
    expect(keys(runs)).toContain('plain-text|openai-chat|spec|spec|flat|-');
    expect(keys(runs)).toContain('resume|openai-chat|spec|spec|flat|-');
    expect(new Set(keys(runs)).size).toBe(runs.length);
    // resume is in no sample: it runs exactly once.
    expect(runs.filter((run) => run.scenario.id === 'resume')).toHaveLength(1);
  });

  it('skips a provider a scenario does not list', () => {
    const runs = buildMatrix(
      options({ scenarios: [scenario('only-gemini', ['gemini'])], providers: ['openai-chat', 'gemini'] }),
    );
    expect(runs.map((run) => run.provider)).toEqual(['gemini']);
  });

  it('keeps pinned dimensions pinned', () => {
    const runs = buildMatrix(
      options({ scenarios: [scenario('single-tool')], invocation: { kind: 'yume-app' }, profile: 'spec' }),
    );
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((run) => run.invocation.kind === 'yume-app' && run.profile === 'spec')).toBe(true);
  });

  it('re-chunks the sampled scenarios with seeds from the base seed, and samples the second dialect', () => {
    const runs = buildMatrix(
      options({ scenarios: [scenario('single-tool')], capabilities: capabilitiesFrom({ dialect: 'both' }, 'test') }),
    );
    expect(runs.filter((run) => run.seed !== undefined).map((run) => run.seed)).toEqual([100, 101]);
    expect(runs.some((run) => run.dialect === 'claude')).toBe(true);
    expect(runs.filter((run) => run.dialect === 'flat' && run.seed === undefined).length).toBeGreaterThan(0);
  });
});

describe('buildMatrix, full', () => {
  it('crosses invocation, profile, dialect and seeds (an unsplit run plus three seeds)', () => {
    const runs = buildMatrix(
      options({
        scenarios: [scenario('resume')],
        providers: ['openai-chat'],
        full: true,
        capabilities: capabilitiesFrom({ dialect: 'both' }, 'test'),
      }),
    );
    // openai-chat has no yume-app entry in R7: spec only, with both profiles, both dialects, 4 seed variants.
    expect(runs).toHaveLength(2 * 2 * 4);
    expect(new Set(runs.map((run) => run.seed))).toEqual(new Set([undefined, 100, 101, 102]));
  });
});
