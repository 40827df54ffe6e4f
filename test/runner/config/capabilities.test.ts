import { describe, expect, it } from 'vitest';
import {
  capabilitiesFrom,
  DEFAULT_CAPABILITIES,
  declaredLimitation,
  REFERENCE_SHIM_CAPABILITIES,
} from '../../../harness/runner/config/capabilities.js';
import { PROVIDER_IDS } from '../../../harness/runner/config/providers.js';

describe('capabilitiesFrom', () => {
  it('defaults to spawn-per-turn, openai-chat, the flat dialect and no features', () => {
    expect(DEFAULT_CAPABILITIES.providers).toEqual(['openai-chat']);
    expect(DEFAULT_CAPABILITIES.persistent).toBe(false);
    expect(DEFAULT_CAPABILITIES.dialects).toEqual(['flat']);
    expect(DEFAULT_CAPABILITIES.features.size).toBe(0);
  });

  it('expands "all" providers and the "both" dialect (flat first)', () => {
    const capabilities = capabilitiesFrom({ providers: ['all'], dialect: 'both', features: ['resume'] }, 'file.json');
    expect(capabilities.providers).toEqual([...PROVIDER_IDS]);
    expect(capabilities.dialects).toEqual(['flat', 'claude']);
    expect(capabilities.features.has('resume')).toBe(true);
    expect(capabilities.source).toBe('file.json');
    expect(capabilitiesFrom({ dialect: 'claude' }, 'x').dialects).toEqual(['claude']);
  });
});

describe('declaredLimitation', () => {
  const run = { scenario: 'interrupt', provider: 'gemini', invocation: 'spec', os: 'linux' };

  it('finds the limitation whose given fields all match', () => {
    const capabilities = capabilitiesFrom(
      {
        limitations: [
          { scenario: 'interrupt', os: ['win32'], reason: 'no signals' },
          { scenario: 'interrupt', provider: 'gemini', reason: 'gemini cannot' },
        ],
      },
      'x',
    );
    expect(declaredLimitation(capabilities, run)?.reason).toBe('gemini cannot');
    expect(declaredLimitation(capabilities, { ...run, provider: 'anthropic' })).toBeUndefined();
    expect(declaredLimitation(capabilities, { ...run, os: 'win32', provider: 'anthropic' })?.reason).toBe('no signals');
  });

  it('the reference shim declares only the CLI providers of persistent-interactive', () => {
    const limited = (provider: string) =>
      declaredLimitation(REFERENCE_SHIM_CAPABILITIES, { ...run, scenario: 'persistent-interactive', provider });
    expect(limited('codex-cli')).toBeDefined();
    expect(limited('openai-chat')).toBeUndefined();
  });
});
