// `yume-conformance merge-reports --shards a.json b.json ...`: one verdict, exit code and set of reports
// (human, json, junit, html) from the JSON reports of `run --shard i/n` on several machines.
// `yume-conformance merge-reports --interop a.json b.json ... --out-dir DIR`: reports of different shims side
// by side, an HTML matrix scenario × shim whose cells link to each run's section in that shim's own page.
// Exit codes: the merged suite's (0, 1, 2) with --shards; 0 with --interop; 2 on bad input.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { writeInteropPages } from '../report/interop.js';
import { type LoadedReport, MergeError, mergeShardReports } from '../report/merge-shards.js';
import type { ConformanceReport } from '../report/model.js';
import { emitReports, parseReporterSpec, type ReporterSpec } from '../report/reporters.js';
import { failureOf } from './exit-codes.js';

interface MergeFlags {
  shards?: boolean;
  interop?: boolean;
  reporter?: string[];
  out?: string;
  outDir?: string;
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** Reads one JSON report; a missing or malformed file is a MergeError naming it. */
export function loadReport(file: string): LoadedReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new MergeError(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let report: ConformanceReport;
  try {
    report = JSON.parse(text) as ConformanceReport;
  } catch (error) {
    throw new MergeError(
      `${file} is not JSON (${(error as Error).message}): give the files --reporter json:FILE wrote`,
    );
  }
  if (typeof report !== 'object' || report === null || !Array.isArray(report.runs) || !report.summary)
    throw new MergeError(`${file} is not a yume-conformance JSON report (no "runs" or "summary")`);
  return { file, report };
}

function mergeAction(files: string[], flags: MergeFlags): void {
  try {
    if (flags.shards === flags.interop) throw new MergeError('say what to merge: --shards or --interop');
    if (files.length === 0) throw new MergeError('give the JSON reports to merge');
    const inputs = files.map(loadReport);
    if (flags.interop) {
      if (!flags.outDir) throw new MergeError('--interop needs --out-dir DIR (the matrix and one page per shim)');
      const index = writeInteropPages(inputs, flags.outDir);
      process.stderr.write(`yume-conformance merge-reports: interop matrix of ${inputs.length} shim(s) in ${index}\n`);
      process.exitCode = 0;
      return;
    }
    const reporters: ReporterSpec[] = (flags.reporter?.length ? flags.reporter : ['human']).map(parseReporterSpec);
    if (flags.out) reporters.push({ name: 'json', file: flags.out });
    const merged = mergeShardReports(inputs);
    emitReports(merged, reporters);
    const { summary } = merged;
    process.stderr.write(
      `yume-conformance merge-reports: ${String(merged.verdict).toUpperCase()} — ${inputs.length} shards, ${merged.runs.length} runs: ${summary.passed} passed, ${summary.failed} failed, ${summary.notVerified} not verified (exit ${String(merged.exitCode)})\n`,
    );
    process.exitCode = Number(merged.exitCode ?? 1);
  } catch (error) {
    const failure = failureOf('yume-conformance merge-reports', error);
    process.stderr.write(failure.line);
    process.exitCode = failure.exitCode;
  }
}

export function registerMergeCommand(program: Command): void {
  program
    .command('merge-reports')
    .description('join the JSON reports of --shard runs (--shards), or of several shims side by side (--interop)')
    .argument('<reports...>', 'JSON reports written by `run --reporter json:FILE` (or --out FILE)')
    .option('--shards', 'the reports are the shards of one suite run: one verdict, exit code and set of reports')
    .option('--interop', 'the reports are of different shims: an HTML matrix scenario × shim (needs --out-dir)')
    .option(
      '--reporter <name[:file]>',
      'with --shards: human, json, junit or html; repeatable (default human; naming one replaces the human report unless human is named too)',
      collect,
    )
    .option('--out <file>', 'with --shards: also write the merged JSON report to this file')
    .option('--out-dir <dir>', 'with --interop: folder for index.html and one page per shim')
    .action(mergeAction);
}
