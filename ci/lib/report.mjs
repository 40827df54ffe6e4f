// Reads the runner's JSON report (`--reporter json:FILE`) and turns it into verdicts for CI.
// Only the documented shape is relied on:
//   {"summary":{"passed","failed","warnings","notVerified"},
//    "runs":[{"scenario","provider","status","findings":[{"rule","severity","message","line"}],
//             "notVerified":[{"rule","scope","cause","reason"}]}]}
// (report format 2.0; an older report's prose "notVerified" string is read as no records).
// Anything the harness could not check is "not verified" and never counted as passed; a status this file
// does not know is treated the same way, so a newer runner can never turn a CI job green by accident.
import { readFileSync } from 'node:fs';

export class ReportError extends Error {}

/**
 * @param {string} file
 * @returns {{ summary: { passed: number, failed: number, warnings: number, notVerified: number }, runs: any[] }}
 */
export function readReport(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = /** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT' ? 'it does not exist' : String(error);
    throw new ReportError(
      `[yume-conformance] cannot read the JSON report ${file}: ${reason}. ` +
        'The suite did not write it (it crashed or was not started); run it with --reporter json:FILE.',
    );
  }
  let report;
  try {
    report = JSON.parse(text);
  } catch (error) {
    throw new ReportError(
      `[yume-conformance] ${file} is not JSON (${/** @type {Error} */ (error).message}). ` +
        'Point the report option at the file written by --reporter json:FILE.',
    );
  }
  return checkShape(report, file);
}

function checkShape(report, file) {
  const problem = (what) =>
    new ReportError(`[yume-conformance] ${file} is not a yume-conformance JSON report: ${what}.`);
  if (typeof report !== 'object' || report === null || Array.isArray(report))
    throw problem('the top level is not an object');
  if (typeof report.summary !== 'object' || report.summary === null) throw problem('"summary" is missing');
  if (!Array.isArray(report.runs)) throw problem('"runs" is missing or not a list');
  for (const key of ['passed', 'failed', 'warnings', 'notVerified']) {
    if (typeof report.summary[key] !== 'number') throw problem(`"summary.${key}" is not a number`);
  }
  report.runs.forEach((run, index) => {
    if (typeof run !== 'object' || run === null) throw problem(`runs[${index}] is not an object`);
    if (typeof run.status !== 'string') throw problem(`runs[${index}].status is not a string`);
    if (run.findings !== undefined && !Array.isArray(run.findings))
      throw problem(`runs[${index}].findings is not a list`);
  });
  return report;
}

/**
 * Checks not verified in runs that otherwise ran (records with scope "check"), counted by cause: whole runs
 * not verified are already in summary.notVerified.
 * @param {{ runs: any[] }} report
 * @returns {{ total: number, byCause: Record<string, number> }}
 */
export function uncheckedByCause(report) {
  /** @type {Record<string, number>} */
  const byCause = {};
  let total = 0;
  for (const run of report.runs) {
    if (!Array.isArray(run.notVerified)) continue;
    for (const record of run.notVerified) {
      if (record?.scope !== 'check') continue;
      const cause = typeof record.cause === 'string' ? record.cause : 'unknown';
      byCause[cause] = (byCause[cause] ?? 0) + 1;
      total += 1;
    }
  }
  return { total, byCause };
}

/** "3 (machine 2, platform 1)", or "0". */
export function uncheckedText(report) {
  const { total, byCause } = uncheckedByCause(report);
  if (total === 0) return '0';
  const parts = Object.entries(byCause)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([cause, count]) => `${cause} ${count}`);
  return `${total} (${parts.join(', ')})`;
}

/**
 * Maps a run status (schemas/report.schema.json: passed, failed, partial, not-verified) to an outcome.
 * A status this file does not know is "not-verified", never "passed".
 * @param {string} status
 * @returns {'passed' | 'failed' | 'partial' | 'not-verified'}
 */
export function classifyStatus(status) {
  if (status === 'passed' || status === 'failed' || status === 'partial') return status;
  return 'not-verified';
}

/**
 * The verdict of one report: "failed" if anything failed, "partial" when something was not verified or
 * passed only with a declared limitation,
 * "not verified" when nothing ran at all, else "passed".
 * @param {{ summary: any, runs: any[] }} report
 * @returns {'passed' | 'partial' | 'failed' | 'not verified'}
 */
export function reportVerdict(report) {
  const outcomes = report.runs.map((run) => classifyStatus(run.status));
  if (report.summary.failed > 0 || outcomes.includes('failed')) return 'failed';
  if (report.runs.length === 0) return 'not verified';
  if (report.summary.notVerified > 0 || outcomes.includes('not-verified') || outcomes.includes('partial'))
    return 'partial';
  return 'passed';
}

/** Escapes text for one cell of a GitHub Markdown table. */
export function markdownCell(value) {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ')
    .trim();
}
