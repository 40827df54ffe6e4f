import { describe, expect, it } from 'vitest';
import type { LoadedScenario } from '../../../harness/mock/scenario/scenario-types.js';
import { runKey, specIdentity } from '../../../harness/runner/results/run-identity.js';
import type { RunSpec } from '../../../harness/runner/results/run-types.js';

describe('runKey', () => {
  it('joins every field of the identity, so runs differing in any one get different keys', () => {
    const base = { scenario: 's', provider: 'p', invocation: 'spec', profile: 'spec', dialect: 'flat' };
    const key = runKey(base);
    expect(key).toBe('s|p|spec|spec|flat|-');
    expect(runKey({ ...base, seed: 7 })).toBe('s|p|spec|spec|flat|7');
    expect(runKey({ ...base, dialect: 'claude' })).not.toBe(key);
    expect(runKey({ scenario: 's', provider: 'p' })).toBe('s|p||||-');
  });
});

describe('specIdentity', () => {
  const spec: RunSpec = {
    scenario: { id: 'resume' } as LoadedScenario,
    provider: 'gemini',
    invocation: { kind: 'template', file: 'my-template.json' } as RunSpec['invocation'],
    profile: 'yume-app',
    dialect: 'claude',
  };

  it('names the invocation (a template by its file) and leaves the seed out when there is none', () => {
    expect(specIdentity(spec)).toEqual({
      scenario: 'resume',
      provider: 'gemini',
      invocation: 'my-template.json',
      profile: 'yume-app',
      dialect: 'claude',
    });
    expect(specIdentity({ ...spec, seed: 3 }).seed).toBe(3);
  });
});
