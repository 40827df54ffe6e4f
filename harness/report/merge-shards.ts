// `merge-reports --shards`: joins the JSON reports of `--shard 1/n` … `--shard n/n` into the report the
// unsharded run would have written — its runs in selection order, the summary, verdict and exit code computed
// again from them. Refuses what cannot be one suite run: reports of different suite versions, shims,
// platforms, report formats or selections, a shard missing or given twice, a run in two shards, and a shard that was
// interrupted (its runs are incomplete, so the verdict would be a guess).

import { YumeError, type YumeErrorOptions } from '../../common/errors.js';
import { REPORT_VERSION } from '../../generated/protocol.js';
import { runKey } from '../runner/results/run-identity.js';
import { suiteExit, suiteVerdict, summarizeResults } from '../runner/results/verdict.js';
import type { ConformanceReport, ReportRun } from './model.js';

/** Reports that cannot be merged, or cannot be read (code MERGE): the message names the file and why. */
export class MergeError extends YumeError {
  override name = 'MergeError';
  constructor(message: string, options?: YumeErrorOptions) {
    super('MERGE', message, options);
  }
}

export interface LoadedReport {
  file: string;
  report: ConformanceReport;
}

/** The one value every report has for `field`, or an error naming the two files that disagree. */
function same(inputs: readonly LoadedReport[], what: string, read: (report: ConformanceReport) => unknown): unknown {
  const first = read(inputs[0]!.report);
  for (const input of inputs.slice(1)) {
    const value = read(input.report);
    if (JSON.stringify(value) !== JSON.stringify(first)) {
      throw new MergeError(
        `${input.file} and ${inputs[0]!.file} are not shards of one suite run: different ${what} (${JSON.stringify(value)} vs ${JSON.stringify(first)})`,
      );
    }
  }
  return first;
}

function checkShards(inputs: readonly LoadedReport[]): number {
  for (const { file, report } of inputs) {
    if (!report.shard || !report.selection)
      throw new MergeError(`${file} is not a shard report: it has no "shard" (run the suite with --shard i/n)`);
  }
  const count = inputs[0]!.report.shard!.count;
  same(inputs, 'shard counts', (report) => report.shard!.count);
  const seen = new Map<number, string>();
  for (const { file, report } of inputs) {
    const other = seen.get(report.shard!.index);
    if (other) throw new MergeError(`${file} and ${other} are both shard ${report.shard!.index}/${count}`);
    seen.set(report.shard!.index, file);
  }
  const missing = Array.from({ length: count }, (_, index) => index + 1).filter((index) => !seen.has(index));
  if (missing.length > 0)
    throw new MergeError(`shard ${missing.map((index) => `${index}/${count}`).join(', ')} missing: give all ${count}`);
  return count;
}

/** Runs of another report format (their not-verified lists were prose before 2.0) cannot be joined. */
function checkReportVersion(inputs: readonly LoadedReport[]): void {
  for (const { file, report } of inputs) {
    if (report.reportVersion !== REPORT_VERSION)
      throw new MergeError(
        `${file} is in report format ${report.reportVersion ?? 'before 2.0 (no reportVersion)'}, but this merge-reports reads ${REPORT_VERSION}: run that shard again with this version`,
      );
  }
}

function checkInterrupted(inputs: readonly LoadedReport[]): void {
  for (const { file, report } of inputs) {
    const runs = report.runs.filter((run) => run.interrupted === true);
    if (report.interrupted === true || runs.length > 0) {
      throw new MergeError(
        `${file} (shard ${report.shard!.index}/${report.shard!.count}) was interrupted${runs.length ? ` during ${runs.length} run(s)` : ''}: run that shard again`,
      );
    }
  }
}

function joinRuns(inputs: readonly LoadedReport[], expected: number): ReportRun[] {
  const byKey = new Map<string, string>();
  const runs: ReportRun[] = [];
  for (const { file, report } of inputs) {
    for (const run of report.runs) {
      const key = runKey(run);
      const other = byKey.get(key);
      if (other) throw new MergeError(`run ${key.replaceAll('|', ' · ')} is in both ${other} and ${file}`);
      byKey.set(key, file);
      runs.push(run);
    }
  }
  if (runs.length !== expected)
    throw new MergeError(`the shards hold ${runs.length} runs but their selection has ${expected}`);
  return runs.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
}

export function mergeShardReports(inputs: readonly LoadedReport[]): ConformanceReport {
  if (inputs.length === 0) throw new MergeError('no reports given');
  const count = checkShards(inputs);
  same(inputs, 'suite versions', (report) => report.suiteVersion);
  same(inputs, 'protocol versions', (report) => report.protocolVersion);
  checkReportVersion(inputs);
  same(inputs, 'shims', (report) => report.shim);
  same(inputs, 'platforms', (report) => report.platform);
  same(inputs, 'capabilities', (report) => report.capabilities);
  same(inputs, 'selections (scenarios, providers, matrix options or seed)', (report) => report.selection);
  checkInterrupted(inputs);
  const first = inputs[0]!.report;
  // A shard whose shim could not be started ran nothing: neither does the merged suite, for the same reason.
  const notStarted = inputs.find(({ report }) => typeof report.startFailure === 'string');
  const runs = notStarted ? [] : joinRuns(inputs, first.selection!.runs);
  // A shard whose shim could not start at all makes the merged run a usage failure, as it would have been.
  const unstartable = notStarted ?? inputs.find(({ report }) => report.exitCode === 2);
  const exit = unstartable
    ? { code: 2 as const, reason: String(unstartable.report.error ?? 'a shard exited with code 2') }
    : suiteExit(runs);
  const merged: ConformanceReport = {
    summary: summarizeResults(runs),
    runs,
    protocolVersion: first.protocolVersion,
    reportVersion: REPORT_VERSION,
    generatedAt: new Date().toISOString(),
    verdict: unstartable ? 'failed' : suiteVerdict(runs),
    exitCode: exit.code,
    ...(exit.reason ? { error: exit.reason } : {}),
    ...(notStarted ? { startFailure: notStarted.report.startFailure } : {}),
  };
  // Notes on each shard's suite (a shard ran on its own machine): each distinct note once.
  const notes = new Map(
    inputs.flatMap(({ report }) => report.suiteFindings ?? []).map((note) => [JSON.stringify(note), note]),
  );
  if (notes.size > 0) merged.suiteFindings = [...notes.values()];
  for (const field of ['shim', 'capabilities', 'seed', 'platform', 'isolation', 'suiteVersion', 'selection'] as const)
    if (first[field] !== undefined) (merged as Record<string, unknown>)[field] = first[field];
  merged.mergedShards = count;
  return merged;
}
