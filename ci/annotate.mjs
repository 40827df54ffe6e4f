#!/usr/bin/env node
// Turns a yume-conformance JSON report into GitHub annotations (one per finding, `::error` for MUST,
// `::warning` for SHOULD and for runs that were not verified or only partial, `::notice` for INFO)
// and a job summary table that says which operating system the results are for.
//
//   node ci/annotate.mjs --report reports/report.json [--os Linux] [--shim ./my-shim] [--summary-file FILE]
//
// Exit 0 when the report was read (the verdict itself is the suite's exit code), 2 when it could not be.
import { appendFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { classifyStatus, markdownCell, ReportError, readReport, reportVerdict } from './lib/report.mjs';
import { workflowCommand } from './lib/workflow-commands.mjs';

// GitHub shows at most 10 annotations of each level per step; the rest are only in the summary.
const DEFAULT_MAX_PER_LEVEL = 10;
// Keeps the summary well under GitHub's 1 MiB limit for a step summary.
const MAX_FINDING_ROWS = 300;

const LEVEL_OF_SEVERITY = { MUST: 'error', SHOULD: 'warning', INFO: 'notice' };

/** A human name for the OS this job runs on, e.g. "Linux X64". */
function describeOs(env = process.env, platform = process.platform) {
  if (env.RUNNER_OS) return env.RUNNER_ARCH ? `${env.RUNNER_OS} ${env.RUNNER_ARCH}` : env.RUNNER_OS;
  return { linux: 'Linux', darwin: 'macOS', win32: 'Windows' }[platform] ?? platform;
}

/** The file an annotation can point at: the run's captured stdout if the report names it, else the shim. */
function annotationTarget(run, shimFile) {
  if (typeof run.stdoutFile === 'string' && run.stdoutFile) return { file: run.stdoutFile, withLine: true };
  if (shimFile) return { file: shimFile, withLine: false };
  return { file: undefined, withLine: false };
}

/**
 * Only a file inside the repository can carry an annotation in the GitHub UI, named relative to the
 * repository root (GITHUB_WORKSPACE), which differs from the current folder under `working-directory`.
 */
function shimFileInWorkspace(shim, cwd, workspace) {
  if (!shim) return undefined;
  const absolute = path.resolve(cwd, shim);
  const relative = path.relative(workspace, absolute);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  try {
    if (!statSync(absolute).isFile()) return undefined;
  } catch {
    return undefined;
  }
  return relative.split(path.sep).join('/');
}

/**
 * Every annotation the report calls for, in report order.
 * @returns {{ level: 'error' | 'warning' | 'notice', message: string, file?: string, line?: number, title: string }[]}
 */
function annotationsFor(report, options = {}) {
  const annotations = [];
  for (const run of report.runs) {
    const outcome = classifyStatus(run.status);
    const label = `${run.scenario ?? '?'} × ${run.provider ?? '?'}`;
    const target = annotationTarget(run, options.shimFile);
    const findings = Array.isArray(run.findings) ? run.findings : [];
    for (const finding of findings) {
      const level = LEVEL_OF_SEVERITY[finding.severity] ?? 'warning';
      const line = Number.isInteger(finding.line) ? finding.line : undefined;
      const where = line !== undefined ? ` (shim stdout line ${line})` : '';
      const fix = finding.fix ? ` Fix: ${finding.fix}` : '';
      annotations.push({
        level,
        title: `yume-conformance ${label}: ${finding.rule ?? 'finding'}`,
        message: `${finding.message ?? ''}${where}${fix}`,
        file: target.file,
        line: target.withLine ? line : undefined,
      });
    }
    const hasMust = findings.some((finding) => finding.severity === 'MUST');
    if (outcome === 'failed' && !hasMust) {
      annotations.push({
        level: 'error',
        title: `yume-conformance ${label}`,
        message: `run ${run.status}`,
        file: target.file,
      });
    }
    if (outcome === 'not-verified' || outcome === 'partial') {
      const what = outcome === 'partial' ? 'passed only with a declared limitation' : 'was not checked';
      annotations.push({
        level: 'warning',
        title: `yume-conformance ${label}: ${outcome === 'partial' ? 'partial' : 'not verified'}`,
        message: `status "${run.status}": this run ${what} and does not count as a full pass`,
        file: target.file,
      });
    }
  }
  return annotations;
}

/** Markdown for $GITHUB_STEP_SUMMARY. */
function renderSummary(report, { os, reportFile }) {
  const { passed, failed, warnings, notVerified } = report.summary;
  const verdict = reportVerdict(report);
  const lines = [
    `## yume-conformance on ${markdownCell(os)}`,
    '',
    `**Verdict on ${markdownCell(os)}: ${verdict}** — ${passed} passed, ${failed} failed, ${warnings} warnings, ${notVerified} not verified.`,
    '',
    `These results were verified on ${markdownCell(os)} only. Other operating systems are not verified by this job.`,
    '',
    '| scenario | provider | status | MUST | SHOULD | INFO |',
    '|---|---|---|---|---|---|',
  ];
  for (const run of report.runs) {
    const findings = Array.isArray(run.findings) ? run.findings : [];
    const count = (severity) => findings.filter((finding) => finding.severity === severity).length;
    const outcome = classifyStatus(run.status);
    const status =
      outcome === 'not-verified' && run.status !== 'not-verified' ? `${run.status} (not verified)` : run.status;
    lines.push(
      `| ${markdownCell(run.scenario)} | ${markdownCell(run.provider)} | ${markdownCell(status)} | ${count('MUST')} | ${count('SHOULD')} | ${count('INFO')} |`,
    );
  }
  const findingRows = report.runs.flatMap((run) =>
    (Array.isArray(run.findings) ? run.findings : []).map((finding) => ({ run, finding })),
  );
  if (findingRows.length > 0) {
    lines.push(
      '',
      '### Findings',
      '',
      '| scenario | provider | rule | severity | stdout line | message |',
      '|---|---|---|---|---|---|',
    );
    for (const { run, finding } of findingRows.slice(0, MAX_FINDING_ROWS)) {
      lines.push(
        `| ${markdownCell(run.scenario)} | ${markdownCell(run.provider)} | \`${markdownCell(finding.rule)}\` | ${markdownCell(finding.severity)} | ${finding.line ?? ''} | ${markdownCell(finding.message)} |`,
      );
    }
    if (findingRows.length > MAX_FINDING_ROWS) {
      lines.push('', `${findingRows.length - MAX_FINDING_ROWS} more findings are in ${markdownCell(reportFile)}.`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        report: { type: 'string' },
        os: { type: 'string' },
        shim: { type: 'string' },
        'summary-file': { type: 'string' },
        'max-per-level': { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`[yume-conformance] annotate: ${/** @type {Error} */ (error).message}\n`);
    return 2;
  }
  if (!values.report) {
    process.stderr.write('[yume-conformance] annotate: --report FILE is required (the file of --reporter json:FILE)\n');
    return 2;
  }
  const os = values.os || describeOs();
  const summaryFile = values['summary-file'] || process.env.GITHUB_STEP_SUMMARY || undefined;
  const writeSummary = (markdown) => {
    if (summaryFile) appendFileSync(summaryFile, markdown);
    else process.stdout.write(markdown);
  };
  const maxPerLevel = Number(values['max-per-level'] ?? DEFAULT_MAX_PER_LEVEL);

  let report;
  try {
    report = readReport(values.report);
  } catch (error) {
    if (!(error instanceof ReportError)) throw error;
    process.stdout.write(
      `${workflowCommand('error', error.message, { title: `yume-conformance on ${os}: not verified` })}\n`,
    );
    writeSummary(
      `## yume-conformance on ${markdownCell(os)}\n\n**Verdict on ${markdownCell(os)}: not verified** — ${markdownCell(error.message)}\n`,
    );
    return 2;
  }

  const shimFile = shimFileInWorkspace(values.shim, process.cwd(), process.env.GITHUB_WORKSPACE || process.cwd());
  const annotations = annotationsFor(report, { shimFile });
  const emitted = { error: 0, warning: 0, notice: 0 };
  for (const annotation of annotations) {
    if (emitted[annotation.level] >= maxPerLevel) continue;
    emitted[annotation.level] += 1;
    process.stdout.write(`${workflowCommand(annotation.level, annotation.message, annotation)}\n`);
  }
  const left = annotations.length - (emitted.error + emitted.warning + emitted.notice);
  if (left > 0) process.stdout.write(`${left} more findings are listed in the job summary and ${values.report}\n`);
  writeSummary(renderSummary(report, { os, reportFile: values.report }));
  return 0;
}

process.exitCode = main();
