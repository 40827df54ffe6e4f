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
import { isWindows, runnerPlatform } from '../process/platform.js';
import { writeArtifacts } from '../report/artifacts.js';
import type { ConformanceReport, ReportRun } from '../report/model.js';
import { toReportFinding } from '../report/model.js';
import { reportProcess, reportRequest } from '../report/run-output.js';
import { runNotVerified } from '../rules/not-verified.js';
import { Redactor } from '../runner/redact.js';
import { redactResult } from '../runner/redact-result.js';
import type { RunResult, RunSpec } from '../runner/results/run-types.js';
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

/**
 * The report of a suite whose shim could not be started: no run took place, so there are no runs and nothing
 * is counted; `startFailure` says why, and the exit code is 2.
 */
function notStartedReport(
  suite: ResolvedSuite,
  options: RunOptions,
  platform: string,
  reason: string,
): ConformanceRunReport {
  return {
    summary: summarizeResults([]),
    runs: [],
    protocolVersion: PROTOCOL_VERSION,
    generatedAt: new Date().toISOString(),
    verdict: 'failed',
    exitCode: 2,
    error: `the shim could not be started: ${reason}`,
    startFailure: reason,
    shim: suite.shim,
    capabilities: suite.capabilities.source,
    seed: suite.seed,
    platform,
    suiteVersion: suiteVersion(),
    selection: suite.selection,
    ...(options.shard ? { shard: options.shard } : {}),
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
  const platform = options.platform ?? runnerPlatform();
  if (suite.startProblem)
    return { report: notStartedReport(suite, options, platform, suite.startProblem), results: [] };
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
  const settings = {
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
  const homeTemp = HomeTempWatch.start(options.watchedRoots ?? defaultWatchedRoots(platform), [
    scratch.directory,
    cacheDir,
  ]);
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
  const suiteFindings = homeTemp.finish().map(toReportFinding);
  applyExpectedFailures(results, suite.expected, platform);
  const exit = suiteExit(results, { flakyOk: options.flakyOk === true });
  // Every run that was attempted failed to start (a start failure no check before the suite could foresee).
  if (exit.code === 2 && !stop.stopped) {
    const reason = results.find((result) => result.startFailure)?.startFailure ?? String(exit.reason);
    return { report: notStartedReport(suite, options, platform, reason), results: [] };
  }
  const report: ConformanceRunReport = {
    summary: summarizeResults(results),
    runs: results.map((result, index) => toReportRun(result, suite.positions[index]!)),
    protocolVersion: PROTOCOL_VERSION,
    reportVersion: REPORT_VERSION,
    generatedAt: new Date().toISOString(),
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
    shim: suite.shim,
    capabilities: suite.capabilities.source,
    seed: suite.seed,
    platform,
    suiteVersion: suiteVersion(),
    selection: suite.selection,
    ...(options.shard ? { shard: options.shard } : {}),
    ...(suiteFindings.length > 0 ? { suiteFindings } : {}),
  };
  if (options.artifactsDir) writeArtifacts(options.artifactsDir, report.runs, results);
  return { report, results };
}
