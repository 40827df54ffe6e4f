// Capabilities, expected failures, the verdict and exit code, and the matrix.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAllScenarios } from '../../harness/mock/scenario/scenario-loader.js';
import { runFinding } from '../../harness/rules/finding.js';
import {
  capabilitiesFrom,
  DEFAULT_CAPABILITIES,
  declaredLimitation,
  loadCapabilities,
  REFERENCE_SHIM_CAPABILITIES,
} from '../../harness/runner/config/capabilities.js';
import { loadExpectedFailures } from '../../harness/runner/config/expected-failures.js';
import { PROVIDER_IDS } from '../../harness/runner/config/providers.js';
import type { RunResult, RunSpec, SuiteSettings } from '../../harness/runner/results/run-types.js';
import {
  applyExpectedFailures,
  suiteExit,
  suiteVerdict,
  summarizeResults,
} from '../../harness/runner/results/verdict.js';
import { notVerifiedResult, preflight } from '../../harness/runner/run-scenario.js';
import { buildMatrix } from '../../harness/suite/matrix.js';
import { transcripts } from '../runner/helpers/run-fixture.js';

const tempFile = (name: string, text: string) => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'yc-cfg-')), name);
  writeFileSync(file, text);
  return file;
};

function result(overrides: Partial<RunResult>): RunResult {
  return {
    scenario: 'single-tool',
    provider: 'openai-chat',
    invocation: 'spec',
    profile: 'spec',
    dialect: 'flat',
    required: true,
    status: 'passed',
    findings: [],
    durationMs: 1,
    processes: [],
    requests: [],
    timeline: [],
    ...overrides,
  };
}
const failing = (rule: string, overrides: Partial<RunResult> = {}) =>
  result({ status: 'failed', findings: [runFinding(rule, 'x')], ...overrides });

describe('capabilities', () => {
  it('defaults to spawn-per-turn, openai-chat, flat, no optional features', () => {
    expect(DEFAULT_CAPABILITIES).toMatchObject({ providers: ['openai-chat'], persistent: false, dialects: ['flat'] });
    expect(DEFAULT_CAPABILITIES.features.size).toBe(0);
    expect(REFERENCE_SHIM_CAPABILITIES.providers).toEqual([...PROVIDER_IDS]);
  });

  it('loads a file, expands "all" and "both", and reports unknown keys and values with their line', () => {
    const file = tempFile(
      'caps.json',
      JSON.stringify({ providers: ['all'], dialect: 'both', persistent: true, features: ['bash'] }),
    );
    expect(loadCapabilities(file)).toMatchObject({
      providers: [...PROVIDER_IDS],
      dialects: ['flat', 'claude'],
      persistent: true,
      source: file,
    });
    const bad = tempFile('bad.json', '{\n  "providers": ["openai"],\n  "persistant": true\n}\n');
    expect(() => loadCapabilities(bad)).toThrow(
      /bad\.json:2 \/providers\/0: must be equal to one of the allowed values — fix: use one of "openai-chat"/,
    );
    expect(() => loadCapabilities(bad)).toThrow(/bad\.json:3 \/persistant: unknown key "persistant"/);
  });

  it('matches declared limitations by scenario, provider, invocation and OS', () => {
    const capabilities = capabilitiesFrom(
      { limitations: [{ scenario: 'interrupt', os: ['win32'], reason: 'no frames yet' }] },
      't',
    );
    const run = { scenario: 'interrupt', provider: 'openai-chat', invocation: 'spec', os: 'win32' };
    expect(declaredLimitation(capabilities, run)?.reason).toBe('no frames yet');
    expect(declaredLimitation(capabilities, { ...run, os: 'linux' })).toBeUndefined();
  });
});

describe('preflight: what can be verified here', () => {
  const [interrupt] = loadAllScenarios(transcripts).filter((scenario) => scenario.id === 'interrupt');
  const [persistent] = loadAllScenarios(transcripts).filter((scenario) => scenario.id === 'persistent-mode');
  const settings = (platform: NodeJS.Platform, capabilities = DEFAULT_CAPABILITIES): SuiteSettings => ({
    shim: 's',
    shimArgs: [],
    userEnv: {},
    timeoutMs: 1000,
    platform,
    capabilities,
    protocolVersion: '1.0',
  });
  const spec = (scenario = interrupt!, provider: RunSpec['provider'] = 'openai-chat'): RunSpec => ({
    scenario,
    provider,
    invocation: { kind: 'spec' },
    profile: 'spec',
    dialect: 'flat',
  });

  it('runs the interrupt through persistent mode on Windows, or calls it a declared limitation (partial)', () => {
    expect(preflight(spec(), settings('linux'))).toEqual({ persistent: false });
    expect(preflight(spec(), settings('win32', capabilitiesFrom({ persistent: true }, 't')))).toEqual({
      persistent: true,
    });
    const check = preflight(spec(), settings('win32'));
    expect(check.notVerified).toMatchObject({ scope: 'run', cause: 'platform' });
    expect(check.notVerified?.reason).toMatch(/Windows cannot deliver SIGINT/);
    expect(check.notVerified?.rule).toBeUndefined();
    expect(notVerifiedResult(spec(), check)).toMatchObject({
      status: 'partial',
      limitation: 'no persistent mode, so no interrupt on Windows (R6)',
      findings: [],
    });
  });

  it('does not verify undeclared features; a required run not verified without a limitation fails the suite', () => {
    expect(preflight(spec(persistent!), settings('linux')).notVerified).toEqual({
      scope: 'run',
      cause: 'capability',
      reason: expect.stringMatching(/persistent mode/),
    });
    const yumeApp = { ...spec(), invocation: { kind: 'yume-app' as const } };
    const dash = preflight(yumeApp, settings('linux'));
    expect(dash).toMatchObject({ limitation: 'provider id marked — under the yume-app invocation (R7)' });
    const noLimitation = notVerifiedResult(spec(), {
      persistent: false,
      notVerified: { scope: 'run', cause: 'capability', reason: 'needs something' },
    });
    expect(noLimitation.notVerified).toEqual([{ scope: 'run', cause: 'capability', reason: 'needs something' }]);
    expect(noLimitation.findings.map((finding) => finding.rule)).toEqual(['scenario.required-verified']);
    expect(suiteExit([noLimitation]).code).toBe(1);
  });
});

describe('verdict and exit code', () => {
  it('0 when everything passes, 1 on a failure, 2 when the shim never started, partial stays 0', () => {
    expect(suiteExit([result({})]).code).toBe(0);
    expect(suiteExit([result({}), failing('golden.text')]).code).toBe(1);
    expect(suiteExit([failing('process.started', { startFailure: 'x: no such file' })])).toEqual({
      code: 2,
      reason: 'the shim could not be started: x: no such file',
    });
    const partial = result({ status: 'partial', limitation: 'declared' });
    expect(suiteExit([result({}), partial]).code).toBe(0);
    expect(suiteVerdict([result({}), partial])).toBe('partial');
    expect(
      summarizeResults([
        result({}),
        partial,
        failing('golden.text'),
        result({ status: 'not-verified', required: false }),
      ]),
    ).toMatchObject({ passed: 1, partial: 1, failed: 1, notVerified: 1 });
  });
});

describe('expected failures', () => {
  const file = (failures: object[]) => tempFile('expected.json', JSON.stringify({ failures }));

  it('turns a listed failure into an expected one (exit 0) and a listed check that passes into a stale failure (exit 1)', () => {
    const entries = loadExpectedFailures(file([{ scenario: 'single-tool', rule: 'golden.text', reason: '#12' }]));
    const expected = applyExpectedFailures([failing('golden.text')], entries, 'linux');
    expect(expected[0]?.expectedFailure).toBe('#12');
    expect(suiteExit(expected).code).toBe(0);
    const stale = applyExpectedFailures([result({})], entries, 'linux');
    expect(stale[0]?.status).toBe('failed');
    expect(stale[0]?.findings.map((finding) => finding.rule)).toEqual(['expected-failures.stale']);
    expect(suiteExit(stale).code).toBe(1);
  });

  it('does not excuse a failure of another rule, and honours the OS and whole-run entries', () => {
    const entries = loadExpectedFailures(file([{ scenario: 'single-tool', rule: 'golden.text', reason: 'r' }]));
    expect(suiteExit(applyExpectedFailures([failing('workspace.matches')], entries, 'linux')).code).toBe(1);
    const windowsOnly = loadExpectedFailures(file([{ scenario: 'single-tool', os: ['win32'], reason: 'r' }]));
    expect(suiteExit(applyExpectedFailures([failing('golden.text')], windowsOnly, 'linux')).code).toBe(1);
    expect(suiteExit(applyExpectedFailures([failing('golden.text')], windowsOnly, 'win32')).code).toBe(0);
    expect(suiteExit(applyExpectedFailures([result({})], windowsOnly, 'win32')).code).toBe(1);
  });

  it('refuses a scenario listed both as a whole and per rule', () => {
    const clash = file([
      { scenario: 'x', reason: 'a' },
      { scenario: 'x', rule: 'golden.text', reason: 'b' },
    ]);
    expect(() => loadExpectedFailures(clash)).toThrow(
      /lists scenario "x" as a whole, and another entry lists its rule "golden.text"/,
    );
    expect(() => loadExpectedFailures(tempFile('e.json', '{"failures":[{"scenario":"x"}]}'))).toThrow(
      /missing "reason"/,
    );
  });
});

describe('the matrix (R12)', () => {
  const scenarios = loadAllScenarios(transcripts);
  const both = capabilitiesFrom({ providers: ['all'], dialect: 'both', persistent: true }, 't');

  it('representative: every scenario once per provider with the defaults, plus a fixed sample and seeded re-chunkings', () => {
    const runs = buildMatrix({ scenarios, providers: [...PROVIDER_IDS], capabilities: both, full: false, seed: 7 });
    const core = runs.filter(
      (run) =>
        run.invocation.kind === 'spec' && run.profile === 'spec' && run.dialect === 'flat' && run.seed === undefined,
    );
    const applicable = scenarios.reduce(
      (sum, scenario) => sum + (scenario.providers?.length ?? PROVIDER_IDS.length),
      0,
    );
    expect(core).toHaveLength(applicable);
    expect(runs.some((run) => run.invocation.kind === 'yume-app' && run.profile === 'yume-app')).toBe(true);
    expect(runs.some((run) => run.dialect === 'claude')).toBe(true);
    // The yume-app invocation's sample asks for no dialect (R1a).
    expect(runs.filter((run) => run.invocation.kind === 'yume-app').every((run) => run.dialect === undefined)).toBe(
      true,
    );
    expect(new Set(runs.filter((run) => run.seed !== undefined).map((run) => run.seed))).toEqual(new Set([7, 8]));
    expect(runs.length).toBeLessThan(applicable * 1.5);
  });

  it('full: every invocation × profile × dialect × seed; pinned dimensions stay pinned', () => {
    const one = scenarios.filter((scenario) => scenario.id === 'single-tool');
    const full = buildMatrix({ scenarios: one, providers: ['gemini'], capabilities: both, full: true, seed: 1 });
    // (spec × {spec, yume-app} × 2 dialects + yume-app × {yume-app} × no dialect asked) × 4 chunkings (R1a)
    expect(full).toHaveLength((2 * 2 + 1) * 4);
    const app = full.filter((run) => run.invocation.kind === 'yume-app');
    expect(app).toHaveLength(4);
    expect(app.every((run) => run.dialect === undefined)).toBe(true);
    expect(full.filter((run) => run.invocation.kind === 'spec').every((run) => run.dialect !== undefined)).toBe(true);
    const pinned = buildMatrix({
      scenarios: one,
      providers: ['gemini'],
      capabilities: DEFAULT_CAPABILITIES,
      full: true,
      seed: 1,
      invocation: { kind: 'yume-app' },
      profile: 'spec',
    });
    expect(
      pinned.every((run) => run.invocation.kind === 'yume-app' && run.profile === 'spec' && run.dialect === undefined),
    ).toBe(true);
    expect(pinned).toHaveLength(4);
    // A shim with two dialects still gets one run per point under yume-app: the app asks for neither.
    expect(
      buildMatrix({
        scenarios: one,
        providers: ['gemini'],
        capabilities: both,
        full: true,
        seed: 1,
        invocation: { kind: 'yume-app' },
      }),
    ).toHaveLength(4);
    // An id the app has no provider for is left out of the full matrix unless yume-app is pinned.
    expect(
      buildMatrix({
        scenarios: one,
        providers: ['openai-chat'],
        capabilities: DEFAULT_CAPABILITIES,
        full: true,
        seed: 1,
      }).some((run) => run.invocation.kind === 'yume-app'),
    ).toBe(false);
  });

  it('skips providers a scenario does not apply to', () => {
    const gcloud = scenarios.filter((scenario) => scenario.id === 'gcloud-auth');
    expect(
      buildMatrix({
        scenarios: gcloud,
        providers: ['openai-chat'],
        capabilities: DEFAULT_CAPABILITIES,
        full: false,
        seed: 1,
      }),
    ).toEqual([]);
  });
});
