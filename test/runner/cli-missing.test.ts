// Scenario cli-missing (R5, "binary or CLI missing"): the runner installs no fake official CLI and hides any
// real one, the reference shim's CLI translators report the absence as a `system` error and an error result,
// and a translator that shows the spawn error as assistant text with a success result fails error.fault-outcome.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAllScenarios, loadScenario, validateScenario } from '../../harness/mock/scenario/scenario-loader.js';
import { capabilitiesFrom } from '../../harness/runner/config/capabilities.js';
import { PROVIDER_IDS, type ProviderId } from '../../harness/runner/config/providers.js';
import type { RunResult, SuiteSettings } from '../../harness/runner/results/run-types.js';
import { preflight, runScenario } from '../../harness/runner/run-scenario.js';
import { hideProgramsFromPath, keepNodeReachable, programsOnPath } from '../../harness/runner/setup/missing-cli.js';
import { buildMatrix } from '../../harness/suite/matrix.js';
import { describeFindings, referenceShim, root, rules, transcripts } from './helpers/run-fixture.js';

const CLI_IDS: ProviderId[] = ['gemini-cli', 'codex-cli', 'claude-cli', 'copilot-cli'];
const brokenTranslator = path.join(root, 'test', 'fixtures', 'translators', 'spawn-error-as-text.mjs');
const scenario = () => loadScenario(path.join(transcripts, 'cli-missing'));

function settings(shim: string, userEnv: Record<string, string> = {}): SuiteSettings {
  return {
    shim,
    shimArgs: [],
    userEnv,
    timeoutMs: 15_000,
    platform: process.platform,
    capabilities: capabilitiesFrom(
      {
        providers: ['all'],
        persistent: true,
        dialect: 'both',
        features: ['bash', 'resume', 'permission-modes', 'interactive', 'gcloud'],
      },
      'test',
    ),
    protocolVersion: '1.0',
  };
}

function run(shim: string, provider: ProviderId, userEnv: Record<string, string> = {}): Promise<RunResult> {
  return runScenario(
    { scenario: scenario(), provider, invocation: { kind: 'spec' }, profile: 'spec', dialect: 'flat' },
    settings(shim, userEnv),
  );
}

const linesOf = (result: RunResult) =>
  result.processes.flatMap((process) =>
    process.stdout
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>),
  );

/** A folder holding programs named like the official CLIs; running any of them creates `marker`. */
function plantedClis(marker: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'yc-planted-cli-'));
  for (const name of ['gemini', 'codex', 'claude']) {
    writeFileSync(path.join(dir, name), `#!/bin/sh\necho ran > '${marker}'\n`);
    chmodSync(path.join(dir, name), 0o755);
    writeFileSync(path.join(dir, `${name}.cmd`), `@echo ran> "${marker}"\r\n`);
  }
  return dir;
}

const cleanup: string[] = [];
const savedPath = {
  key: Object.keys(process.env).find((key) => key.toUpperCase() === 'PATH') ?? 'PATH',
  value: process.env.PATH ?? process.env.Path,
};
afterEach(() => {
  process.env[savedPath.key] = savedPath.value;
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('scenario cli-missing', () => {
  it('applies only to the CLI provider ids, and the schema refuses it for a REST id', () => {
    const loaded = scenario();
    expect(loaded.cli).toBe('missing');
    const runs = buildMatrix({
      scenarios: loadAllScenarios(transcripts),
      providers: [...PROVIDER_IDS],
      capabilities: settings(referenceShim).capabilities,
      full: true,
      seed: 1,
    });
    const providers = new Set(runs.filter((spec) => spec.scenario.id === 'cli-missing').map((spec) => spec.provider));
    expect([...providers].sort()).toEqual([...CLI_IDS].sort());

    const { dir: _dir, workspaceDir: _workspace, workspaceAfterDir: _after, ...raw } = loaded;
    expect(() =>
      validateScenario({ ...raw, providers: ['gemini-cli', 'openai-chat'] }, 'cli-missing/scenario.json'),
    ).toThrow(/providers/);
    const { providers: _providers, ...withoutProviders } = raw;
    expect(() => validateScenario(withoutProviders, 'cli-missing/scenario.json')).toThrow(/providers/);
    expect(() => validateScenario(raw, 'cli-missing/scenario.json')).not.toThrow();
  });

  it('is not verified under yume-app, whose gemini/openai ids also offer the REST backend (R7)', () => {
    const check = preflight(
      {
        scenario: scenario(),
        provider: 'gemini-cli',
        invocation: { kind: 'yume-app' },
        profile: 'yume-app',
        dialect: 'flat',
      },
      settings(referenceShim),
    );
    expect(check.notVerified).toMatchObject({ scope: 'run', cause: 'capability' });
    expect(check.notVerified?.reason).toMatch(/REST backend/);
  });

  for (const provider of CLI_IDS) {
    it(`the reference shim passes for ${provider}: system error, then an error result`, async () => {
      const result = await run(referenceShim, provider);
      expect(result.status, describeFindings(result)).toBe('passed');
      const lines = linesOf(result);
      const systemError = lines.findIndex((line) => line.type === 'system' && line.subtype === 'error');
      const resultLine = lines.findIndex((line) => line.type === 'result');
      expect(systemError).toBeGreaterThan(0);
      expect(String(lines[systemError]!.message)).toMatch(/not found/);
      expect(resultLine).toBeGreaterThan(systemError);
      expect(lines[resultLine]!.is_error).toBe(true);
      expect(lines.some((line) => line.type === 'tool_use')).toBe(false);
    });
  }

  it('a translator that shows the spawn error as assistant text with a success result fails error.fault-outcome', async () => {
    for (const provider of ['gemini-cli', 'claude-cli'] as const) {
      const result = await run(brokenTranslator, provider);
      expect(result.status).toBe('failed');
      expect(rules(result), describeFindings(result)).toContain('error.fault-outcome');
      const finding = result.findings.find((entry) => entry.rule === 'error.fault-outcome')!;
      expect(finding.message).toMatch(/not installed.*success result/);
    }
  });

  it('leaves out parent PATH folders holding a real CLI, so the shim cannot start it', async () => {
    const marker = path.join(mkdtempSync(path.join(os.tmpdir(), 'yc-marker-')), 'ran');
    const planted = plantedClis(marker);
    cleanup.push(planted, path.dirname(marker));
    process.env[savedPath.key] = [planted, savedPath.value].join(path.delimiter);
    const result = await run(referenceShim, 'codex-cli');
    expect(result.status, describeFindings(result)).toBe('passed');
    expect(existsSync(marker)).toBe(false);
    expect(result.timeline.map((entry) => entry.text).join('\n')).toContain(planted);
  });

  it('is not verified, never passed, when --env puts a CLI back on PATH', async () => {
    const marker = path.join(os.tmpdir(), `yc-never-${process.pid}`);
    const planted = plantedClis(marker);
    cleanup.push(planted);
    const result = await run(referenceShim, 'gemini-cli', { PATH: [planted, savedPath.value].join(path.delimiter) });
    expect(result.status).toBe('not-verified');
    expect(result.notVerified).toEqual([
      { scope: 'run', cause: 'platform', reason: expect.stringContaining(path.join(planted, 'gemini')) },
    ]);
    expect(result.processes).toEqual([]);
  });
});

describe('missing-cli helpers', () => {
  it('drops exactly the folders holding one of the names, relative ones resolved against the cwd', () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'yc-path-'));
    cleanup.push(base);
    for (const name of ['with', 'without', path.join('cwd', 'rel')])
      mkdirSync(path.join(base, name), { recursive: true });
    writeFileSync(path.join(base, 'with', 'claude'), '');
    writeFileSync(path.join(base, 'cwd', 'rel', 'gemini'), '');
    mkdirSync(path.join(base, 'without', 'codex')); // a folder named like a CLI is not a program
    const parent = {
      PATH: [path.join(base, 'with'), path.join(base, 'without'), 'rel'].join(path.delimiter),
      HOME: '/h',
    };
    const hidden = hideProgramsFromPath(parent, process.platform, path.join(base, 'cwd'));
    expect(hidden.dropped).toEqual([path.join(base, 'with'), 'rel']);
    expect(hidden.parent.PATH).toBe(path.join(base, 'without'));
    expect(hidden.parent.HOME).toBe('/h');
    expect(programsOnPath({ PATH: parent.PATH }, process.platform, path.join(base, 'cwd'))).toEqual([
      path.join(base, 'with', 'claude'),
      path.join(base, 'cwd', 'rel', 'gemini'),
    ]);
    expect(programsOnPath({ PATH: hidden.parent.PATH! }, process.platform, path.join(base, 'cwd'))).toEqual([]);
  });

  it("links node into the bin folder only when node's own folder was dropped", () => {
    const bin = mkdtempSync(path.join(os.tmpdir(), 'yc-bin-'));
    cleanup.push(bin);
    const windows = process.platform === 'win32';
    const link = path.join(bin, windows ? 'node.cmd' : 'node');
    expect(
      keepNodeReachable([path.join(bin, 'elsewhere')], {
        nodePath: process.execPath,
        binDir: bin,
        platform: process.platform,
        cwd: bin,
      }),
    ).toBe(false);
    expect(existsSync(link)).toBe(false);
    expect(
      keepNodeReachable([path.dirname(process.execPath)], {
        nodePath: process.execPath,
        binDir: bin,
        platform: process.platform,
        cwd: bin,
      }),
    ).toBe(true);
    if (windows) expect(readFileSync(link, 'utf8')).toContain(process.execPath);
    else expect(readlinkSync(link)).toBe(process.execPath);
  });
});
