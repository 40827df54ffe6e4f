// `--preset claude-code`: the bundled preset validates, lists the run list of real Claude Code (both profiles),
// sets IS_SANDBOX only as root, and its expected failures apply only under their profile and invocation.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAllScenarios } from '../../harness/mock/scenario/scenario-loader.js';
import { runFinding } from '../../harness/rules/finding.js';
import { loadExpectedFailures } from '../../harness/runner/config/expected-failures.js';
import { buildInvocation } from '../../harness/runner/config/invocation.js';
import type { RunResult } from '../../harness/runner/results/run-types.js';
import { applyExpectedFailures, suiteExit } from '../../harness/runner/results/verdict.js';
import { loadPreset, presetInvocation, presetSpecs } from '../../harness/suite/preset.js';
import { resolveSuite } from '../../harness/suite/run-conformance.js';
import { suiteSlots } from '../../harness/suite/schedule.js';
import { SuiteWidth } from '../../harness/suite/suite-width.js';
import { widthLimits } from '../../harness/suite/width-rule.js';
import { root, transcripts } from '../runner/helpers/run-fixture.js';

const preset = loadPreset('claude-code');
const scenarios = loadAllScenarios(transcripts);
const REQUIRED_SPEC = ['plain-text', 'single-tool', 'multi-tool', 'tool-error', 'interrupt'];
const FAULTS_AND_RESUME = ['fault-401', 'fault-500-exhausted', 'fault-429-then-success', 'fault-stream-cut', 'resume'];
/** The compaction scenarios whose claude capture conforms join R13's list (docs/protocol.md#r21-compaction). */
const COMPACTION = ['compact', 'compact-empty', 'fault-context-overflow'];

function run(overrides: Partial<RunResult>): RunResult {
  return {
    scenario: 'fault-401',
    provider: 'anthropic',
    invocation: 'claude-code',
    profile: 'spec',
    dialect: 'claude',
    required: false,
    status: 'failed',
    findings: [],
    durationMs: 1,
    processes: [],
    requests: [],
    timeline: [],
    ...overrides,
  };
}

describe('the claude-code preset', () => {
  it('runs the five required scenarios, four faults, resume and the compaction scenarios claude conforms in under spec; the same under yume-app with its interrupt slot', () => {
    const specs = presetSpecs(preset, scenarios);
    const spec = specs.filter((item) => item.profile === 'spec').map((item) => item.scenario.id);
    expect(spec).toEqual([...REQUIRED_SPEC, ...FAULTS_AND_RESUME, ...COMPACTION]);
    const app = specs.filter((item) => item.profile === 'yume-app').map((item) => item.scenario.id);
    const slot = preset.runs.find((item) => item.profile === 'yume-app')!;
    const interruptSlot = [...slot.scenarios, ...(slot.missing ?? []).map((item) => item.scenario)];
    expect(interruptSlot).toContain('kill-and-resume');
    expect(app).not.toContain('interrupt');
    expect(app).toEqual(
      expect.arrayContaining([
        ...REQUIRED_SPEC.filter((id) => id !== 'interrupt'),
        ...FAULTS_AND_RESUME,
        ...COMPACTION,
      ]),
    );
    // Claude's SIGINT during /compact prints no init and no result: compact-interrupted conforms only as the app's kill.
    expect(app).toContain('compact-interrupted');
    expect(spec).not.toContain('compact-interrupted');
    expect(new Set(specs.map((item) => item.provider))).toEqual(new Set(['anthropic']));
    expect(new Set(specs.map((item) => item.dialect))).toEqual(new Set(['claude']));
    expect(specs.every((item) => item.seed === undefined)).toBe(true);
  });

  it('starts claude -p in stream-json with --verbose, --resume ID on resume, the offline environment and a 60 s timeout', () => {
    const values = {
      providerId: 'anthropic' as const,
      cwd: '/w',
      sessionId: 's',
      prompt: 'hi',
      apiBase: 'http://127.0.0.1:9',
      protocolVersion: '1',
      persistent: false,
    };
    const built = buildInvocation(presetInvocation(preset, false), { ...values, resumeId: 'abc' });
    if ('notVerified' in built) throw new Error(built.notVerified.reason);
    expect(built.args).toEqual([
      '-p',
      'hi',
      '--resume',
      'abc',
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      'claude-sonnet-4-5',
      '--dangerously-skip-permissions',
    ]);
    expect(built.env).toMatchObject({
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_MAX_RETRIES: '1',
    });
    expect(built.env.IS_SANDBOX).toBeUndefined();
    const asRoot = buildInvocation(presetInvocation(preset, true), values);
    if ('notVerified' in asRoot) throw new Error(asRoot.notVerified.reason);
    expect(asRoot.env.IS_SANDBOX).toBe('1');
    expect(asRoot.args).not.toContain('--resume');
    expect(preset.timeoutMs).toBe(60_000);
    expect(preset.timeoutReason.length).toBeGreaterThan(20);
  });

  it('resolves as a suite: the program on PATH, its capabilities and timeout, explicit options winning', () => {
    const suite = resolveSuite({ preset: 'claude-code' });
    expect(suite.shim).toBe('claude');
    expect(suite.timeoutMs).toBe(60_000);
    expect(suite.capabilities.source).toBe('preset claude-code');
    const narrowed = resolveSuite({
      preset: 'claude-code',
      scenarios: ['fault-401'],
      profile: 'yume-app',
      timeoutMs: 5000,
    });
    expect(narrowed.specs.map((item) => `${item.scenario.id}/${item.profile}`)).toEqual(['fault-401/yume-app']);
    expect(narrowed.timeoutMs).toBe(5000);
    expect(() => resolveSuite({ preset: 'nope' })).toThrow(/unknown preset "nope" — fix: use one of claude-code/);
  });

  it('caps the runs at once at one per core (two on 2 cores), with why; --jobs still wins', () => {
    const preset = loadPreset('claude-code');
    expect(preset.maxJobsPerCore).toBe(1);
    expect(preset.maxJobsReason).toMatch(/interrupts/);
    const suite = resolveSuite({ preset: 'claude-code' });
    expect(suite.presetPerCore).toBe(1);
    const slots = suiteSlots({ presetPerCore: suite.presetPerCore, cores: 2 });
    expect(slots.width!.current).toBe(2);
    // Two on 2 cores and no growth past it, however idle the cores.
    const idle = new SuiteWidth({
      limits: widthLimits({ cores: 2, presetPerCore: suite.presetPerCore! }),
      coreUse: () => 0,
      freeMemory: () => 16 * 1024 ** 3,
    });
    for (let sample = 0; sample < 5; sample += 1) idle.sample();
    expect(idle.current).toBe(2);
    expect(suiteSlots({ jobs: 10, presetPerCore: suite.presetPerCore, cores: 2 })).toEqual({ capacity: 10 });
    // Without a preset the default has no such cap.
    expect(resolveSuite({}).presetPerCore).toBeUndefined();
  });

  it("excuses exactly R13's two deviations, each with evidence, and the SIGINT intermittent only with its capture", () => {
    const steady = preset.expectedFailures.filter((entry) => !entry.intermittent);
    expect(steady.map((entry) => `${entry.scenario} ${entry.rule} ${entry.profile ?? 'both'}`).sort()).toEqual([
      'fault-401 app.zero-usage-result yume-app',
      'fault-401 requests.no-retry-after-fatal both',
      'fault-500-exhausted app.zero-usage-result yume-app',
    ]);
    for (const entry of preset.expectedFailures) expect(entry.evidence?.length).toBeGreaterThan(20);
    const intermittent = preset.expectedFailures.filter((entry) => entry.intermittent);
    expect(intermittent.map((entry) => `${entry.scenario} ${entry.profile} ${entry.rule}`).sort()).toEqual([
      'interrupt spec golden.result',
      'interrupt spec interrupt.acknowledged',
      'interrupt spec turn.result-last',
    ]);
    const capture = path.join(root, 'test', 'fixtures', 'claude-code', 'sigint-no-result');
    for (const entry of intermittent) expect(entry.evidence).toContain('test/fixtures/claude-code/sigint-no-result/');
    const lines = readFileSync(path.join(capture, 'stdout.jsonl'), 'utf8').trim().split('\n');
    expect(lines.some((line) => line.includes('"type":"result"'))).toBe(false);
    expect(lines.at(-1)).toContain('[Request interrupted by user]');
    expect(readFileSync(path.join(capture, 'exit.txt'), 'utf8')).toMatch(/^exit 0\/null/);
  });
});

describe('expected failures per profile and invocation', () => {
  const entries = preset.expectedFailures;
  const zeroUsage = (profile: 'spec' | 'yume-app', invocation = 'claude-code') =>
    run({
      profile,
      invocation,
      findings: [runFinding('app.zero-usage-result', 'x'), runFinding('requests.no-retry-after-fatal', 'x')],
    });

  it('apply under their profile and invocation only; elsewhere the failure stands', () => {
    const app = applyExpectedFailures([zeroUsage('yume-app')], entries, 'linux');
    expect(app[0]?.expectedFailure).toBeDefined();
    expect(suiteExit(app).code).toBe(0);
    expect(suiteExit(applyExpectedFailures([zeroUsage('yume-app', 'spec')], entries, 'linux')).code).toBe(1);
  });

  it('an intermittent entry is not stale in a run where its check passes; a steady one is', () => {
    const passed = () => run({ scenario: 'interrupt', status: 'passed', required: true });
    expect(applyExpectedFailures([passed()], entries, 'linux')[0]?.status).toBe('passed');
    const steady = entries.map((entry) => ({ ...entry, scenario: 'interrupt', intermittent: false }));
    expect(applyExpectedFailures([passed()], steady, 'linux')[0]?.status).toBe('failed');
  });

  it('are not stale under the other profile, where their check does not run', () => {
    const passed = run({ scenario: 'fault-500-exhausted', status: 'passed' });
    const results = applyExpectedFailures([passed], entries, 'linux');
    expect(results[0]?.status).toBe('passed');
  });

  it('load from a file with profile, invocation and evidence, and refuse an unknown profile', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'yc-preset-'));
    const good = path.join(dir, 'good.json');
    writeFileSync(
      good,
      JSON.stringify({
        failures: [
          { scenario: 'x', rule: 'r', profile: 'yume-app', invocation: 'claude-code', reason: 'y', evidence: 'z' },
        ],
      }),
    );
    expect(loadExpectedFailures(good)[0]).toMatchObject({ profile: 'yume-app', invocation: 'claude-code' });
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ failures: [{ scenario: 'x', profile: 'app', reason: 'y' }] }, null, 2));
    expect(() => loadExpectedFailures(bad)).toThrow(/bad\.json:\d+ \/failures\/0\/profile/);
  });
});
