// runConformance(): the programmatic form of `yume-conformance run`. Resolves the shim, capabilities,
// scenarios and matrix, runs them `jobs` at a time, applies expected failures and returns the report
// (schemas/report.schema.json) with the exit code. runConformanceWithResults() also returns the full result of
// each run (whole transcripts, requests, timelines), which the caller hands to the reporters explicitly.
import type { OfficialCliSettings } from '../official-cli/backend.js';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PROTOCOL_VERSION } from '../../generated/protocol.js';
import { UsageError } from '../errors.js';
import { loadAllScenarios } from '../mock/scenario-loader.js';
import { defaultTranscriptsDir, findPackageRoot } from '../mock/package-paths.js';
import type { LoadedScenario } from '../mock/scenario-types.js';
import type { PlatformName } from '../process/platform.js';
import type { ConformanceReport, ReportRun } from '../report/model.js';
import { toReportFinding } from '../report/model.js';
import type { Profile } from '../rules/types.js';
import {
  capabilitiesFrom,
  DEFAULT_CAPABILITIES,
  loadCapabilities,
  REFERENCE_SHIM_CAPABILITIES,
  type Capabilities,
  type CapabilitiesFile,
} from './capabilities.js';
import { loadExpectedFailures, type ExpectedFailure } from './expected-failures.js';
import { resolveInvocation, type Invocation } from './invocation.js';
import { buildMatrix } from './matrix.js';
import { loadPreset, type Preset, PresetError, presetCapabilities, presetInvocation, presetSpecs } from './preset.js';
import { PROVIDER_IDS, type ProviderId } from './providers.js';
import { WorkspaceTemplates } from './git-workspace.js';
import { notVerifiedResult, runScenario } from './run-scenario.js';
import { shimStartProblem } from './shim-check.js';
import { type SignalSource, SuiteStop } from './stop-signals.js';
import { SuiteCgroup } from '../process/cgroup.js';
import type { RunResult, RunSpec } from './run-types.js';
import { defaultJobs, runWeight, startOrder, weightedPool } from './schedule.js';
import { writeArtifacts } from '../report/artifacts.js';
import { Redactor } from '../report/redact.js';
import { reportProcess, reportRequest } from '../report/run-output.js';
import { redactResult } from './redact-result.js';
import { assignShards, runKey, selectionFingerprint, specIdentity, type Shard } from './shard.js';
import { applyExpectedFailures, suiteExit, suiteVerdict, summarizeResults, type SuiteSummary } from './verdict.js';

export interface RunOptions {
  /** The shim (path or command). Default: the bundled reference shim (dist/yume-shim.cjs). */
  shim?: string;
  shimArgs?: string[];
  /** Extra environment for the shim (--env K=V). */
  env?: Record<string, string>;
  /** Provider ids, or ['all']. Default: the declared providers. */
  providers?: string[];
  /** Scenario ids. Default: all. */
  scenarios?: string[];
  profile?: Profile;
  /** 'spec' | 'yume-app' | a template file. */
  invocation?: string;
  /** Capabilities file, or the declarations themselves (schemas/capabilities.schema.json). */
  capabilities?: string | CapabilitiesFile;
  /** Expected-failures file. */
  expectedFailures?: string;
  /**
   * A preset the package ships (`claude-code`): the program to run when no shim is given, its invocation,
   * capabilities, run list, timeout and expected failures. Explicit options still win.
   */
  preset?: string;
  /** Runs at a time. Default: defaultJobs() (schedule.ts). */
  jobs?: number;
  /** Run only this part of the selection (--shard i/n). */
  shard?: Shard;
  /** Per process. Default 30 s. */
  timeoutMs?: number;
  /** Base seed of the re-chunked variants. Default 1. */
  seed?: number;
  /** The full matrix (R12). */
  full?: boolean;
  /** Where the scenarios live. Default: the package's transcripts/. */
  transcriptsDir?: string;
  platform?: PlatformName;
  /** Called as each run finishes (the CLI prints a progress line). */
  onProgress?: (result: RunResult, done: number, total: number) => void;
  /** Goldens mode: no golden comparison. */
  recordOnly?: boolean;
  keepDirectories?: boolean;
  /** Write each run's full stdout, stderr, requests and golden diff under this folder (--artifacts). */
  artifactsDir?: string;
  /** Fake official CLIs (default) or the real ones. */
  officialCli?: OfficialCliSettings;
  /** The git command that makes the scenario workspaces (default `git` on PATH). */
  git?: string;
  /** Stdout capture limit per process (default 64 MB). */
  maxStdoutBytes?: number;
  /** Request body limit of the mocks (default 64 MB). */
  maxRequestBodyBytes?: number;
  /** Where stop signals come from (default: the process; tests pass an emitter). */
  signals?: SignalSource;
}

export interface ConformanceRunReport extends ConformanceReport {
  summary: SuiteSummary;
  runs: ReportRun[];
  verdict: 'passed' | 'partial' | 'failed';
  exitCode: 0 | 1 | 2;
  /** Set with exit code 2. */
  error?: string;
  shim: string;
  capabilities: string;
  seed: number;
  platform: string;
  suiteVersion: string;
  selection: { fingerprint: string; runs: number };
  shard?: Shard;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_SEED = 1;

/** dist/yume-shim.cjs of this package. */
export function bundledReferenceShim(): string {
  return path.join(findPackageRoot(), 'dist', 'yume-shim.cjs');
}

function resolveCapabilities(options: RunOptions, usingReference: boolean): Capabilities {
  if (typeof options.capabilities === 'string') return loadCapabilities(options.capabilities);
  if (options.capabilities) return capabilitiesFrom(options.capabilities, 'capabilities given to runConformance()');
  return usingReference ? REFERENCE_SHIM_CAPABILITIES : DEFAULT_CAPABILITIES;
}

function resolveProviders(requested: string[] | undefined, capabilities: Capabilities): ProviderId[] {
  if (!requested || requested.length === 0) return capabilities.providers;
  if (requested.includes('all')) return [...PROVIDER_IDS];
  for (const id of requested) {
    if (!(PROVIDER_IDS as readonly string[]).includes(id)) {
      throw new UsageError(`unknown provider "${id}" (choose from ${PROVIDER_IDS.join(', ')}, or all)`);
    }
  }
  return [...new Set(requested)] as ProviderId[];
}

function resolveScenarios(all: LoadedScenario[], requested: string[] | undefined): LoadedScenario[] {
  if (!requested || requested.length === 0) return all;
  const byId = new Map(all.map((scenario) => [scenario.id, scenario]));
  return requested.map((id) => {
    const scenario = byId.get(id);
    if (!scenario) throw new UsageError(`unknown scenario "${id}" (see \`yume-conformance run --list\`)`);
    return scenario;
  });
}

/** The version of this package (reports of different versions are not merged). */
export function suiteVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(findPackageRoot(), 'package.json'), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? '0.0.0';
}

export interface ResolvedSuite {
  shim: string;
  usingReference: boolean;
  capabilities: Capabilities;
  invocation?: Invocation;
  scenarios: LoadedScenario[];
  providers: ProviderId[];
  /** The runs this process makes (the shard's, with --shard). */
  specs: RunSpec[];
  /** Position of each spec in the whole selection. */
  positions: number[];
  /** Fingerprint and size of the whole selection (before --shard). */
  selection: { fingerprint: string; runs: number };
  expected: ExpectedFailure[];
  seed: number;
  /** Per-process timeout: --timeout, else the preset's, else the default. */
  timeoutMs: number;
}

/** The runs of this process (the shard's, with --shard), their positions and the whole selection's fingerprint. */
function sharded(
  selected: RunSpec[],
  shard: Shard | undefined,
): Pick<ResolvedSuite, 'specs' | 'positions' | 'selection'> {
  const selection = {
    fingerprint: selectionFingerprint(selected.map((spec) => runKey(specIdentity(spec)))),
    runs: selected.length,
  };
  const shards = shard ? assignShards(selected, shard.count) : undefined;
  const positions = selected.flatMap((_, index) => (!shards || shards[index] === shard!.index ? [index] : []));
  return { specs: positions.map((index) => selected[index]!), positions, selection };
}

/** Everything but running: the CLI's --list uses it too. Throws UsageError / ConfigFileError. */
export function resolveSuite(options: RunOptions): ResolvedSuite {
  if (options.preset !== undefined) return resolvePresetSuite(options, options.preset);
  const usingReference = options.shim === undefined;
  const shim = usingReference ? bundledReferenceShim() : path.resolve(options.shim!);
  if (usingReference && !existsSync(shim))
    throw new UsageError(`the bundled reference shim ${shim} is missing: run \`npm run build\``);
  // A shim given as a bare command name (on PATH) is left to the spawner; a path must exist.
  if (!usingReference && /[\\/]/.test(options.shim!)) {
    const problem = shimStartProblem(shim, options.shim!, options.platform ?? process.platform);
    if (problem) throw new UsageError(problem);
  }
  const capabilities = resolveCapabilities(options, usingReference);
  const invocation = options.invocation === undefined ? undefined : resolveInvocation(options.invocation);
  const scenarios = resolveScenarios(
    loadAllScenarios(options.transcriptsDir ?? defaultTranscriptsDir()),
    options.scenarios,
  );
  const providers = resolveProviders(options.providers, capabilities);
  const seed = options.seed ?? DEFAULT_SEED;
  const selected = buildMatrix({
    scenarios,
    providers,
    ...(invocation ? { invocation } : {}),
    ...(options.profile ? { profile: options.profile } : {}),
    capabilities,
    full: options.full === true,
    seed,
  });
  const expected = options.expectedFailures ? loadExpectedFailures(options.expectedFailures) : [];
  const { specs, positions, selection } = sharded(selected, options.shard);
  return {
    shim: usingReference ? shim : /[\\/]/.test(options.shim!) ? shim : options.shim!,
    usingReference,
    capabilities,
    ...(invocation ? { invocation } : {}),
    scenarios,
    providers,
    specs,
    positions,
    selection,
    expected,
    seed,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
}

/** `--preset NAME`: the preset's program, invocation, capabilities and run list (explicit options win). */
function resolvePresetSuite(options: RunOptions, name: string): ResolvedSuite {
  let preset: Preset;
  try {
    preset = loadPreset(name);
  } catch (error) {
    if (error instanceof PresetError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
  const given = options.shim ?? preset.program;
  const shim = /[\\/]/.test(given) ? path.resolve(given) : given;
  if (/[\\/]/.test(given) && !existsSync(shim)) throw new UsageError(`shim ${given} does not exist`);
  const capabilities = options.capabilities ? resolveCapabilities(options, false) : presetCapabilities(preset);
  const invocation =
    options.invocation === undefined ? presetInvocation(preset) : resolveInvocation(options.invocation);
  const scenarios = loadAllScenarios(options.transcriptsDir ?? defaultTranscriptsDir());
  let selected: RunSpec[];
  try {
    selected = presetSpecs(preset, scenarios, {
      ...(options.scenarios ? { scenarios: options.scenarios } : {}),
      ...(options.profile ? { profile: options.profile } : {}),
    }).map((spec) => ({ ...spec, invocation }));
  } catch (error) {
    if (error instanceof PresetError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
  const expected = [
    ...preset.expectedFailures,
    ...(options.expectedFailures ? loadExpectedFailures(options.expectedFailures) : []),
  ];
  return {
    shim,
    usingReference: false,
    capabilities,
    invocation,
    scenarios: selected.map((spec) => spec.scenario),
    providers: capabilities.providers,
    ...sharded(selected, options.shard),
    expected,
    seed: options.seed ?? DEFAULT_SEED,
    timeoutMs: options.timeoutMs ?? preset.timeoutMs,
  };
}

function toReportRun(result: RunResult, position: number): ReportRun {
  const run: ReportRun = {
    index: position,
    scenario: result.scenario,
    provider: result.provider,
    status: result.status,
    findings: result.findings.map(toReportFinding),
    profile: result.profile,
    dialect: result.dialect,
    durationMs: result.durationMs,
    invocation: result.invocation,
    required: result.required,
  };
  if (result.seed !== undefined) run.seed = result.seed;
  if (result.notVerified) run.notVerified = result.notVerified;
  if (result.limitation) run.limitation = result.limitation;
  if (result.expectedFailure) run.expectedFailure = result.expectedFailure;
  if (result.error) run.error = result.error;
  if (result.interrupted) run.interrupted = true;
  const lines = result.processes.reduce((sum, process) => sum + nonEmptyLineCount(process.stdout), 0);
  if (result.processes.length > 0) {
    run.lines = lines;
    run.processes = result.processes.map(reportProcess);
  }
  if (result.requests.length > 0) run.requests = result.requests.map(reportRequest);
  return run;
}

/** Lines with at least one byte, counted without splitting (a stdout may hold millions of lines). */
function nonEmptyLineCount(bytes: Buffer): number {
  let count = 0;
  let start = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    if (end > start) count += 1;
    start = end + 1;
  }
  return count;
}

/** A run the suite never started because it was stopped first. */
function notStartedResult(spec: RunSpec, signal: NodeJS.Signals): RunResult {
  return notVerifiedResult(spec, {
    persistent: false,
    notVerified: `not started: the runner was stopped by ${signal}`,
  });
}

export async function runConformance(options: RunOptions = {}): Promise<ConformanceRunReport> {
  return (await runConformanceWithResults(options)).report;
}

/** A suite run's report, and the full result of each of its runs in the order of `report.runs`. */
export interface ConformanceRunOutcome {
  report: ConformanceRunReport;
  results: RunResult[];
}

/** Like runConformance(), and also returns each run's full result for reporters that show more (html). */
export async function runConformanceWithResults(options: RunOptions = {}): Promise<ConformanceRunOutcome> {
  const suite = resolveSuite(options);
  const platform = options.platform ?? process.platform;
  const workspaces = new WorkspaceTemplates({
    ...(options.git ? { git: options.git } : {}),
    keep: options.keepDirectories === true,
  });
  // One XDG_CACHE_HOME for every run of this invocation: caches (the reference shim's compile cache) stay warm
  // from run to run while HOME and TMPDIR are each run's own. Removed with the suite.
  const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'yume-conformance-cache-'));
  const isolation = SuiteCgroup.create(platform);
  const suiteCgroup = 'cgroup' in isolation ? isolation.cgroup : undefined;
  const settings = {
    workspaces,
    cacheDir,
    ...(suiteCgroup ? { suiteCgroup } : {}),
    shim: suite.shim,
    shimArgs: options.shimArgs ?? [],
    userEnv: options.env ?? {},
    timeoutMs: suite.timeoutMs,
    platform,
    capabilities: suite.capabilities,
    protocolVersion: PROTOCOL_VERSION,
    ...(options.recordOnly ? { recordOnly: true } : {}),
    ...(options.keepDirectories ? { keepDirectories: true } : {}),
    ...(options.officialCli ? { officialCli: options.officialCli } : {}),
    ...(options.maxStdoutBytes ? { maxStdoutBytes: options.maxStdoutBytes } : {}),
    ...(options.maxRequestBodyBytes ? { maxRequestBodyBytes: options.maxRequestBodyBytes } : {}),
  };
  let finished = 0;
  const jobs = options.jobs ?? defaultJobs();
  const redactor = Redactor.forRunner();
  // Stopped by a signal: no new run starts, running ones are ended and judged on what they did so far.
  const stop = new SuiteStop(options.signals ?? process, platform);
  const runOne = async (spec: RunSpec): Promise<RunResult> => {
    if (stop.stopped) return { ...notStartedResult(spec, stop.signal!), interrupted: true };
    const result = await runScenario(spec, settings);
    if (stop.stopped) result.interrupted = true;
    return result;
  };
  const results = await weightedPool(
    suite.specs,
    { capacity: jobs, order: startOrder(suite.specs), weight: (spec) => runWeight(spec, jobs) },
    // Redacted as each run ends, so nothing after (progress lines included) sees a secret.
    async (spec) => redactResult(await runOne(spec), redactor),
    (result) => {
      finished += 1;
      options.onProgress?.(result, finished, suite.specs.length);
    },
  ).finally(async () => {
    stop.close();
    suiteCgroup?.close();
    workspaces.close();
    if (!options.keepDirectories) await rm(cacheDir, { recursive: true, force: true, maxRetries: 3 });
  });
  applyExpectedFailures(results, suite.expected, platform);
  const exit = suiteExit(results);
  const report: ConformanceRunReport = {
    summary: summarizeResults(results),
    runs: results.map((result, index) => toReportRun(result, suite.positions[index]!)),
    protocolVersion: PROTOCOL_VERSION,
    generatedAt: new Date().toISOString(),
    verdict: suiteVerdict(results),
    exitCode: stop.stopped ? (Math.max(exit.code, 1) as 1 | 2) : exit.code,
    ...(exit.reason ? { error: exit.reason } : stop.stopped ? { error: `stopped by ${stop.signal}` } : {}),
    ...(stop.stopped ? { interrupted: true, verdict: 'failed' as const } : {}),
    isolation: {
      mechanism: isolation.mechanism,
      ...('detail' in isolation
        ? { detail: isolation.detail }
        : { detail: `one cgroup v2 leaf per run under ${suiteCgroup!.directory}` }),
    },
    shim: suite.shim,
    capabilities: suite.capabilities.source,
    seed: suite.seed,
    platform,
    suiteVersion: suiteVersion(),
    selection: suite.selection,
    ...(options.shard ? { shard: options.shard } : {}),
  };
  if (options.artifactsDir) writeArtifacts(options.artifactsDir, report.runs, results);
  return { report, results };
}
