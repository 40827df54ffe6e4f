// runConformance(): the programmatic form of `yume-conformance run`, above the runner and the reports: it
// resolves the suite (suite/resolve-suite.ts), runs it `jobs` at a time, applies expected failures and returns the
// report (schemas/report.schema.json) with the exit code. runConformanceWithResults() also returns the full
// result of each run (whole transcripts, requests, timelines), which the caller hands to the reporters.

import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { PROTOCOL_VERSION, REPORT_VERSION } from '../../generated/protocol.js';
import { SuiteCgroup } from '../process/cgroup.js';
import { exitWatcher } from '../process/exit-watcher.js';
import { loopStalls } from '../process/loop-stalls.js';
import { isWindows, type PlatformName, runnerPlatform } from '../process/platform.js';
import { writeArtifacts } from '../report/artifacts.js';
import type { ConformanceReport, ReportRun } from '../report/model.js';
import { toReportFinding } from '../report/model.js';
import { reportProcess, reportRequest } from '../report/run-output.js';
import { runNotVerified } from '../rules/not-verified.js';
import { Redactor } from '../runner/redact.js';
import { redactResult } from '../runner/redact-result.js';
import type { RunResult, RunSpec, SuiteSettings } from '../runner/results/run-types.js';
import {
  applyExpectedFailures,
  type SuiteSummary,
  suiteExit,
  suiteVerdict,
  summarizeResults,
} from '../runner/results/verdict.js';
import { notVerifiedResult, runScenario } from '../runner/run-scenario.js';
import { WorkspaceTemplates } from '../runner/setup/git-workspace.js';
import { suiteScratchDirectory } from '../runner/setup/scratch-dir.js';
import { defaultWatchedRoots, HomeTempWatch } from './home-temp-watch.js';
import { playRun } from './replay.js';
import {
  bundledReferenceShim,
  DEFAULT_TIMEOUT_MS,
  type ResolvedSuite,
  type RunOptions,
  resolveSuite,
  suiteVersion,
} from './resolve-suite.js';
import { runWeight, startOrder, suiteSlots, weightedPool } from './schedule.js';
import type { Shard } from './shard.js';
import { SuiteStop } from './stop-signals.js';

export type { RunOptions };
export { bundledReferenceShim, DEFAULT_TIMEOUT_MS, resolveSuite, suiteVersion };

export interface ConformanceRunReport extends ConformanceReport {
  summary: SuiteSummary;
  runs: ReportRun[];
  verdict: 'passed' | 'partial' | 'failed' | 'inconclusive';
  exitCode: 0 | 1 | 2 | 3;
  /** Set with exit code 2. */
  error?: string;
  /** Set when the shim could not be started: no run took place (runs is empty). */
  startFailure?: string;
  shim: string;
  capabilities: string;
  seed: number;
  platform: string;
  suiteVersion: string;
  selection: { fingerprint: string; runs: number };
  shard?: Shard;
}

function toReportRun(result: RunResult, position: number): ReportRun {
  const run: ReportRun = {
    index: position,
    scenario: result.scenario,
    provider: result.provider,
    status: result.status,
    findings: result.findings.map(toReportFinding),
    profile: result.profile,
    durationMs: result.durationMs,
    invocation: result.invocation,
    required: result.required,
  };
  if (result.dialect !== undefined) run.dialect = result.dialect;
  if (result.dialectSeen !== undefined) run.dialectSeen = result.dialectSeen;
  if (result.seed !== undefined) run.seed = result.seed;
  if (result.notVerified) run.notVerified = result.notVerified.map((record) => ({ ...record }));
  if (result.limitation) run.limitation = result.limitation;
  if (result.expectedFailure) run.expectedFailure = result.expectedFailure;
  if (result.error) run.error = result.error;
  if (result.interrupted) run.interrupted = true;
  if (result.attempts) run.attempts = result.attempts;
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

/** Where the suite's report comes from: the suite resolved from the options, on this platform. */
interface SuiteContext {
  suite: ResolvedSuite;
  options: RunOptions;
  platform: PlatformName;
}

/** What a report says beyond the suite's identity: its runs, its verdict and what went wrong. */
type SuiteOutcome = Pick<ConformanceRunReport, 'summary' | 'runs' | 'verdict' | 'exitCode'> &
  Partial<
    Pick<
      ConformanceRunReport,
      'reportVersion' | 'error' | 'startFailure' | 'interrupted' | 'isolation' | 'suiteFindings'
    >
  >;

/** The suite's report: `outcome` with what every report says of the suite (shim, capabilities, seed, selection). */
function suiteReport(context: SuiteContext, outcome: SuiteOutcome): ConformanceRunReport {
  const { suite, options, platform } = context;
  const { summary, runs, reportVersion, suiteFindings, ...verdict } = outcome;
  return {
    summary,
    runs,
    protocolVersion: PROTOCOL_VERSION,
    ...(reportVersion === undefined ? {} : { reportVersion }),
    generatedAt: new Date().toISOString(),
    ...verdict,
    shim: suite.shim,
    capabilities: suite.capabilities.source,
    seed: suite.seed,
    platform,
    suiteVersion: suiteVersion(),
    selection: suite.selection,
    ...(options.shard ? { shard: options.shard } : {}),
    ...(suiteFindings === undefined ? {} : { suiteFindings }),
  };
}

/**
 * The outcome of a suite whose shim could not be started: no run took place, so there are no runs and nothing
 * is counted; `startFailure` says why, and the exit code is 2.
 */
function notStartedOutcome(reason: string): SuiteOutcome {
  return {
    summary: summarizeResults([]),
    runs: [],
    verdict: 'failed',
    exitCode: 2,
    error: `the shim could not be started: ${reason}`,
    startFailure: reason,
  };
}

/** A run the suite never started because it was stopped first. */
function notStartedResult(spec: RunSpec, signal: NodeJS.Signals): RunResult {
  return notVerifiedResult(spec, {
    persistent: false,
    notVerified: runNotVerified('harness', `not started: the runner was stopped by ${signal}`),
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
  const context: SuiteContext = { suite, options, platform: options.platform ?? runnerPlatform() };
  if (suite.startProblem) return { report: suiteReport(context, notStartedOutcome(suite.startProblem)), results: [] };
  const prepared = await prepareSuite(context);
  const { results, stop, suiteFindings } = await playSuite(context, prepared);
  applyExpectedFailures(results, suite.expected, context.platform);
  const exit = suiteExit(results, { flakyOk: options.flakyOk === true });
  // Every run that was attempted failed to start (a start failure no check before the suite could foresee).
  if (exit.code === 2 && !stop.stopped) {
    const reason = results.find((result) => result.startFailure)?.startFailure ?? String(exit.reason);
    return { report: suiteReport(context, notStartedOutcome(reason)), results: [] };
  }
  const { isolation, suiteCgroup } = prepared;
  const report = suiteReport(context, {
    summary: summarizeResults(results),
    runs: results.map((result, index) => toReportRun(result, suite.positions[index]!)),
    reportVersion: REPORT_VERSION,
    verdict: suiteVerdict(results, { flakyOk: options.flakyOk === true }),
    exitCode: stop.stopped ? (exit.code === 2 ? 2 : 1) : exit.code,
    ...(exit.reason ? { error: exit.reason } : stop.stopped ? { error: `stopped by ${stop.signal}` } : {}),
    ...(stop.stopped ? { interrupted: true, verdict: 'failed' as const } : {}),
    isolation: {
      mechanism: isolation.mechanism,
      ...('detail' in isolation
        ? { detail: isolation.detail }
        : { detail: `one cgroup v2 leaf per run under ${suiteCgroup!.directory}` }),
    },
    ...(suiteFindings.length > 0 ? { suiteFindings } : {}),
  });
  if (options.artifactsDir) writeArtifacts(options.artifactsDir, report.runs, results);
  return { report, results };
}

/** What a suite's runs share, made before the first starts and closed after the last. */
interface PreparedSuite {
  settings: SuiteSettings;
  workspaces: WorkspaceTemplates;
  scratchDir: string;
  cacheDir: string;
  isolation: ReturnType<typeof SuiteCgroup.create>;
  suiteCgroup: SuiteCgroup | undefined;
}

async function prepareSuite({ suite, options, platform }: SuiteContext): Promise<PreparedSuite> {
  const scratch = suiteScratchDirectory(options.officialCli?.mode);
  const workspaces = new WorkspaceTemplates({
    ...(options.git ? { git: options.git } : {}),
    keep: options.keepDirectories === true,
    base: scratch.directory,
  });
  // One XDG_CACHE_HOME for every run of this invocation: caches (the reference shim's compile cache) stay warm
  // from run to run while HOME and TMPDIR are each run's own. Removed with the suite.
  const cacheDir = await mkdtemp(path.join(scratch.directory, 'yume-conformance-cache-'));
  const isolation = SuiteCgroup.create(platform);
  const suiteCgroup = 'cgroup' in isolation ? isolation.cgroup : undefined;
  const settings: SuiteSettings = {
    workspaces,
    scratchDir: scratch.directory,
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
  return { settings, workspaces, scratchDir: scratch.directory, cacheDir, isolation, suiteCgroup };
}

/** Plays every run of the suite, `jobs` at a time, and closes what the runs shared. */
async function playSuite(
  { suite, options, platform }: SuiteContext,
  { settings, workspaces, scratchDir, cacheDir, suiteCgroup }: PreparedSuite,
): Promise<{ results: RunResult[]; stop: SuiteStop; suiteFindings: ReturnType<typeof toReportFinding>[] }> {
  let finished = 0;
  const slots = suiteSlots({ jobs: options.jobs, presetPerCore: suite.presetPerCore, onChange: options.onWidth });
  const redactor = Redactor.forRunner();
  // Stopped by a signal: no new run starts, running ones are ended and judged on what they did so far.
  const stop = new SuiteStop(options.signals ?? process, platform);
  // Each attempt redacted as it ends, so nothing after (attempts, progress lines) sees a secret.
  const playOnce = async (spec: RunSpec): Promise<RunResult> => {
    const result = await runScenario(spec, settings);
    if (stop.stopped) result.interrupted = true;
    return redactResult(result, redactor);
  };
  const replay = {
    expected: suite.expected,
    os: platform,
    deadlinesUnmeasured: isWindows(platform),
    stopped: () => stop.stopped,
  };
  const runOne = async (spec: RunSpec): Promise<RunResult> => {
    if (stop.stopped) return { ...notStartedResult(spec, stop.signal!), interrupted: true };
    return playRun(() => playOnce(spec), replay, options.repeat ?? 1);
  };
  // Shims that ignore HOME or TMPDIR write into the real home or the system temp folder: listed before and after.
  const homeTemp = HomeTempWatch.start(options.watchedRoots ?? defaultWatchedRoots(platform), [scratchDir, cacheDir]);
  // The runner's heartbeat (when its own loop could not run) and its exit watcher (exits timed off that loop).
  loopStalls.acquire();
  exitWatcher.acquire();
  const results = await weightedPool(
    suite.specs,
    { ...slots, order: startOrder(suite.specs), weight: (spec) => runWeight(spec, slots.capacity) },
    runOne,
    (result) => {
      finished += 1;
      options.onProgress?.(result, finished, suite.specs.length);
    },
  ).finally(async () => {
    loopStalls.release();
    exitWatcher.release();
    stop.close();
    suiteCgroup?.close();
    await workspaces.close();
    if (!options.keepDirectories) await rm(cacheDir, { recursive: true, force: true, maxRetries: 3 });
  });
  return { results, stop, suiteFindings: homeTemp.finish().map(toReportFinding) };
}
