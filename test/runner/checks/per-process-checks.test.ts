// app.flat-dialect warns where a flat stream is the shim's choice: started as the app starts it (the app's
// invocation, or a template file describing such a command line). The spec invocation's `start` asks a shim for
// flat lines (R1a, amended), so a spec-invocation run judged by the yume-app profile is not warned for them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadInvocationTemplate } from '../../../harness/runner/config/invocation.js';
import { describeFindings, fixtureShim, rules, runFixture } from '../helpers/run-fixture.js';

/** The app's command line, as a template file for the Chat Completions id the app itself cannot start. */
function appLikeTemplate() {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'yume-app-like-')), 'app-like.json');
  const template = {
    providers: { 'openai-chat': { provider: 'openai', model: 'gpt-4.1-mini' } },
    spawnPerTurn: [
      '--provider',
      '{provider}',
      '--model',
      '{model}',
      '--cwd',
      '{cwd}',
      { when: 'resumeId', args: ['--resume', '{resumeId}'] },
      '--prompt',
      '{prompt}',
      '--output-format',
      'stream-json',
      '--verbose',
    ],
  };
  writeFileSync(file, JSON.stringify(template));
  return loadInvocationTemplate(file);
}

const flatShim = fixtureShim('conforming-mini-shim.mjs');
const envelopeShim = fixtureShim('prints-claude-envelopes.mjs');
const appProfile = { profile: 'yume-app' } as const;

describe.concurrent('app.flat-dialect, by how the runner started the shim', () => {
  it('warns of a flat stream under the app invocation', async () => {
    const result = await runFixture(flatShim, 'single-tool', {
      ...appProfile,
      invocation: { kind: 'yume-app' },
      provider: 'openai-responses',
    });
    expect(rules(result), describeFindings(result)).toEqual([]);
    expect(rules(result, 'SHOULD')).toEqual(['app.flat-dialect']);
  });

  it('warns of a flat stream under a template file', async () => {
    const result = await runFixture(flatShim, 'single-tool', { ...appProfile, invocation: appLikeTemplate() });
    expect(rules(result), describeFindings(result)).toEqual([]);
    expect(rules(result, 'SHOULD')).toEqual(['app.flat-dialect']);
  });

  it('does not warn of envelopes under a template file', async () => {
    const result = await runFixture(envelopeShim, 'single-tool', {
      ...appProfile,
      invocation: appLikeTemplate(),
      dialect: 'claude',
    });
    expect(result.dialectSeen).toBe('claude');
    expect(rules(result, 'SHOULD'), describeFindings(result)).toEqual([]);
  });

  it('does not warn of the flat stream the spec invocation asked for, under the yume-app profile', async () => {
    const result = await runFixture(flatShim, 'single-tool', appProfile);
    expect(result.dialectSeen).toBe('flat');
    expect(rules(result), describeFindings(result)).toEqual([]);
    expect(rules(result, 'SHOULD'), describeFindings(result)).toEqual([]);
  });
});
