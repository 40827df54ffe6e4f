import { describe, expect, it } from 'vitest';
import { cliFor, PROVIDERS, providerEntry, providerFlags } from '../../../harness/runner/config/providers.js';

describe('providers', () => {
  it('has one entry per id, each CLI provider with its fake CLI', () => {
    expect(new Set(PROVIDERS.map((entry) => entry.id)).size).toBe(PROVIDERS.length);
    for (const entry of PROVIDERS) expect(entry.kind === 'cli').toBe(entry.cli !== undefined);
  });

  it('looks entries up by id', () => {
    expect(providerEntry('anthropic')?.kind).toBe('rest');
    expect(providerEntry('nope')).toBeUndefined();
  });

  it('gives the flags of the invocation, none for an id the app lacks', () => {
    const responses = providerEntry('openai-responses')!;
    expect(providerFlags(responses, 'spec')).toEqual({ provider: 'codex', model: 'gpt-5.2-codex' });
    expect(providerFlags(responses, 'yume-app')?.provider).toBe('openai');
    expect(providerFlags(providerEntry('openai-chat')!, 'yume-app')).toBeUndefined();
  });

  it('puts a CLI on PATH for CLI providers, and for REST ids the app also serves by CLI only under yume-app', () => {
    expect(cliFor(providerEntry('codex-cli')!, 'spec')).toBe('codex');
    const gemini = providerEntry('gemini')!;
    expect(cliFor(gemini, 'spec')).toBeUndefined();
    expect(cliFor(gemini, 'yume-app')).toBe(gemini.yumeAppAlsoOffersCli);
    expect(gemini.yumeAppAlsoOffersCli).toBe('gemini');
  });
});
