#!/usr/bin/env node
// Joins the per-OS results of a workflow into one verdict. Reads every run-info.json (written by
// ci/run-suite.mjs, or by ci/merge-shards.mjs for an OS whose matrix ran in shards: run that first; the
// shards' own run-info.json files are skipped) under --dir, with the JSON report next to it, and prints one
// row per result.
// An operating system in --expect that has no result is "not verified": never passed.
//
//   node ci/aggregate.mjs --dir downloaded-artifacts --expect Linux,macOS,Windows [--summary-file FILE]
//
// Exit 0 when every expected OS has a result whose suite exited 0 (passed, or partial with declared
// limitations); 1 when an OS failed or is not verified; 2 on usage errors.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { markdownCell, ReportError, readReport, reportVerdict, uncheckedText } from './lib/report.mjs';

const OS_ALIASES = new Map([
  ['linux', 'Linux'],
  ['ubuntu', 'Linux'],
  ['ubuntu-latest', 'Linux'],
  ['macos', 'macOS'],
  ['macos-latest', 'macOS'],
  ['darwin', 'macOS'],
  ['windows', 'Windows'],
  ['windows-latest', 'Windows'],
  ['win32', 'Windows'],
]);

/** "ubuntu-latest", "linux" and "Linux" all name RUNNER_OS "Linux". */
function canonicalOs(name) {
  const key = name.trim().toLowerCase();
  return OS_ALIASES.get(key) ?? OS_ALIASES.get(key.replace(/-[\d.]+$/, '')) ?? name.trim();
}

/** A shard's own result: ci/merge-shards.mjs has joined it into its OS's merged-<OS>/ result. */
function isShard(file) {
  try {
    return typeof JSON.parse(readFileSync(file, 'utf8')).shard === 'string';
  } catch {
    return false;
  }
}

function findRunInfos(dir) {
  const found = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'run-info.json' && !isShard(full)) found.push(full);
    }
  };
  walk(dir);
  return found.sort();
}

/** One row per result found: its OS, the suite's exit code, and the report's counts when there is one. */
function loadResult(infoFile) {
  const folder = path.dirname(infoFile);
  let info;
  try {
    info = JSON.parse(readFileSync(infoFile, 'utf8'));
  } catch (error) {
    return {
      os: '?',
      source: folder,
      verdict: 'not verified',
      note: `${infoFile} is not JSON: ${/** @type {Error} */ (error).message}`,
    };
  }
  const os = canonicalOs(String(info.os ?? '?'));
  const base = { os, source: folder, node: info.node, exitCode: info.exitCode };
  let report;
  try {
    report = readReport(path.join(folder, info.reports?.json ?? 'report.json'));
  } catch (error) {
    if (!(error instanceof ReportError)) throw error;
    const why = info.error ? `${info.error}; ` : '';
    return { ...base, verdict: 'not verified', note: `${why}no JSON report (suite exit code ${info.exitCode})` };
  }
  let verdict = reportVerdict(report);
  // The suite's exit code is the verdict of record (e.g. a stale expected failure fails with clean runs).
  // Exit 3: no run failed, but the machine could not decide some run (run again on a quieter machine).
  if (info.exitCode === 3 && verdict !== 'failed') verdict = 'inconclusive';
  else if (info.exitCode !== 0 && verdict !== 'failed') verdict = 'failed';
  // Exit 0 with failures in the report: every failure was listed in the expected-failures file.
  if (info.exitCode === 0 && verdict === 'failed') verdict = 'known failures';
  return { ...base, verdict, summary: report.summary, unchecked: uncheckedText(report), note: info.error ?? '' };
}

function renderTable(rows, missing) {
  const lines = [
    '## yume-conformance across operating systems',
    '',
    '| OS | Node | verdict | passed | failed | warnings | not verified | checks not verified (by cause) | exit code | note |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const s = row.summary ?? {};
    lines.push(
      `| ${markdownCell(row.os)} | ${markdownCell(row.node ?? '')} | **${row.verdict}** | ${s.passed ?? ''} | ${s.failed ?? ''} | ${s.warnings ?? ''} | ${s.notVerified ?? ''} | ${markdownCell(row.unchecked ?? '')} | ${row.exitCode ?? ''} | ${markdownCell(row.note ?? '')} |`,
    );
  }
  for (const os of missing) {
    lines.push(
      `| ${markdownCell(os)} | | **not verified** | | | | | | | no results: the job was skipped, cancelled, or failed before the suite ran |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: { dir: { type: 'string' }, expect: { type: 'string' }, 'summary-file': { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`[yume-conformance] aggregate: ${/** @type {Error} */ (error).message}\n`);
    return 2;
  }
  if (!values.dir || !values.expect) {
    process.stderr.write('[yume-conformance] aggregate: --dir DIR and --expect Linux,macOS,Windows are required\n');
    return 2;
  }
  let infoFiles;
  try {
    infoFiles = findRunInfos(values.dir);
  } catch (error) {
    process.stderr.write(
      `[yume-conformance] aggregate: cannot read ${values.dir}: ${/** @type {Error} */ (error).message}\n`,
    );
    infoFiles = [];
  }
  const expected = [
    ...new Set(
      values.expect
        .split(/[\s,]+/)
        .filter(Boolean)
        .map(canonicalOs),
    ),
  ];
  const rows = infoFiles.map(loadResult);
  const covered = new Set(rows.filter((row) => row.verdict !== 'not verified').map((row) => row.os));
  const missing = expected.filter((os) => !rows.some((row) => row.os === os));

  const markdown = renderTable(rows, missing);
  const summaryFile = values['summary-file'] || process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) appendFileSync(summaryFile, markdown);
  process.stdout.write(markdown);

  const failedOs = [...new Set(rows.filter((row) => row.verdict === 'failed').map((row) => row.os))];
  const notVerifiedOs = expected.filter((os) => !covered.has(os));
  for (const os of failedOs) process.stdout.write(`::error title=yume-conformance::failed on ${os}\n`);
  for (const os of notVerifiedOs) {
    process.stdout.write(
      `::error title=yume-conformance::not verified on ${os}: no usable results; this is not a pass\n`,
    );
  }
  const verified = expected.filter((os) => covered.has(os) && !failedOs.includes(os));
  process.stdout.write(
    `verified on: ${verified.join(', ') || 'none'}; failed on: ${failedOs.join(', ') || 'none'}; not verified on: ${notVerifiedOs.join(', ') || 'none'}\n`,
  );
  return failedOs.length > 0 || notVerifiedOs.length > 0 ? 1 : 0;
}

process.exitCode = main();
