// `--reporter human` (default), like vitest's and Playwright's summaries: every run that did not pass, in full
// and grouped (failed first), then warnings grouped by rule with the runs they hit, one line of counts and one
// verdict line. Passing runs get no paragraph (`--matrix` shows the scenario × provider matrix), INFO notes
// show only with `--verbose`. Colours via chalk, off when NO_COLOR is set or the output is not a terminal.
import { Chalk, type ChalkInstance } from 'chalk';
import { notVerifiedLine } from '../rules/not-verified.js';
import {
  type ConformanceReport,
  notVerifiedByRule,
  type ReportFinding,
  type ReportRun,
  VALIDATE_PROVIDER,
  warningsText,
} from './model.js';
import { findingsByRule, type RuleTally } from './rule-tally.js';
import { printedDialectNote, runLabel } from './run-label.js';
import { matrixLines } from './run-matrix.js';
import { groupRuns, type RunGroup, statusCounts, withRepeats } from './status-groups.js';

/** What the report says of an inconclusive run (R19). */
export const INCONCLUSIVE_ADVICE =
  'the machine could not decide; run again on a quieter machine or with fewer `--jobs`';

export interface HumanOptions {
  /** Use colours (the caller decides: see colorWanted()). */
  color: boolean;
  /** Also show INFO notes, and every run a warning hit. */
  verbose?: boolean;
  /** Also show the scenario × provider matrix of all runs. */
  matrix?: boolean;
}

/** Colours only on a terminal, and never when NO_COLOR is set to anything non-empty (https://no-color.org). */
export function colorWanted(stream: { isTTY?: boolean } | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return stream?.isTTY === true;
}

/** Escapes control characters so text from a capture (ESC sequences, CR) cannot drive the terminal. */
export function printable(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const SEVERITY_ORDER = { MUST: 0, SHOULD: 1, INFO: 2 } as const;
/** Runs a warning lists by name before "and N more" (all of them with --verbose). */
const RUNS_SHOWN = 3;

function badge(c: ChalkInstance, severity: ReportFinding['severity']): string {
  if (severity === 'MUST') return c.red.bold('MUST  ');
  if (severity === 'SHOULD') return c.yellow.bold('SHOULD');
  return c.blue('INFO  ');
}

function paint(c: ChalkInstance, key: string): ChalkInstance {
  if (key === 'passed') return c.green.bold;
  if (key === 'failed' || key === 'flaky') return c.red.bold;
  if (key === 'error') return c.magenta.bold;
  if (key === 'partial' || key === 'inconclusive') return c.yellow.bold;
  return c.gray.bold;
}

function indented(text: string, prefix: string): string[] {
  return printable(text)
    .split('\n')
    .map((line) => `${prefix}${line}`);
}

/** Where a finding points: `file:line` for a validated file (editors open it), else the stdout line. */
function findingLines(c: ChalkInstance, finding: ReportFinding, run: ReportRun): string[] {
  const file = run.provider === VALIDATE_PROVIDER;
  const where =
    finding.line === undefined
      ? file
        ? c.cyan(printable(run.scenario))
        : ''
      : c.cyan(file ? printable(`${run.scenario}:${finding.line}`) : `line ${finding.line}`);
  const out = [`    ${badge(c, finding.severity)} ${c.bold(finding.rule)}  ${where}`.trimEnd()];
  out.push(...indented(finding.message, '           '));
  if (finding.excerpt) out.push(`           ${c.gray('>')} ${c.gray(printable(finding.excerpt))}`);
  if (finding.fix) out.push(`           ${c.green('fix:')} ${printable(finding.fix)}`);
  return out;
}

/** A run that did not pass, in full: its identity, why, and its findings, MUST first. */
function runBlock(c: ChalkInstance, run: ReportRun, group: RunGroup, verbose: boolean): string[] {
  const details = [
    run.lines !== undefined && `${run.lines} lines`,
    run.durationMs !== undefined && run.durationMs > 0 && `${(run.durationMs / 1000).toFixed(1)} s`,
  ]
    .filter(Boolean)
    .join(', ');
  const out = [
    `  ${paint(c, group.key)(group.mark)} ${c.bold(printable(runLabel(run)))}${printedDialectNote(run)}${details ? c.gray(`  (${details})`) : ''}`,
  ];
  if (run.error) out.push(`    ${c.magenta(printable(run.error))}`);
  const replayed = attemptsLine(run);
  if (replayed) out.push(`    ${c.yellow(replayed)}`);
  const skipped = notVerifiedLine(run.notVerified ?? []);
  if (skipped) out.push(`    ${c.gray('not verified:')} ${printable(skipped)}`);
  // A declared limitation is usually the not-verified reason too: said once.
  if (run.limitation && !skipped.includes(String(run.limitation)))
    out.push(`    ${c.gray('declared limitation:')} ${printable(String(run.limitation))}`);
  if (run.expectedFailure) out.push(`    ${c.gray('expected failure:')} ${printable(String(run.expectedFailure))}`);
  if (run.interrupted) out.push(`    ${c.gray('interrupted: the runner was stopped while this run was going')}`);
  const findings = run.findings
    .filter((finding) => verbose || finding.severity !== 'INFO')
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  for (const finding of findings) out.push(...findingLines(c, finding, run));
  return out;
}

/** The runs that failed the same way as the one shown above them, by identity only. */
function repeatLines(c: ChalkInstance, repeats: readonly ReportRun[], group: RunGroup): string[] {
  if (repeats.length === 0) return [];
  return [
    c.gray(`    the same rules on the same lines in ${repeats.length} more run(s):`),
    ...repeats.map(
      (run) => `      ${paint(c, group.key)(group.mark)} ${printable(runLabel(run))}${printedDialectNote(run)}`,
    ),
  ];
}

/** Findings on the suite as a whole (no run is blamed): after the runs, before the counts. */
function suiteBlock(c: ChalkInstance, findings: readonly ReportFinding[]): string[] {
  const out = [c.bold('The suite as a whole')];
  for (const f of findings) {
    out.push(`  ${badge(c, f.severity)} ${c.bold(f.rule)}`);
    out.push(`         ${printable(f.message)}`);
    if (f.fix) out.push(`         ${c.green('fix:')} ${printable(f.fix)}`);
  }
  return out;
}

/** One block per rule: the rule, how often, its first message and fix, and the runs it hit. */
function tallyBlock(c: ChalkInstance, tally: RuleTally, verbose: boolean): string[] {
  const runs = tally.runs.length;
  const count = `×${tally.count}${runs > 1 || tally.count > 1 ? ` in ${runs} run${runs > 1 ? 's' : ''}` : ''}`;
  const out = [`  ${badge(c, tally.severity)} ${c.bold(tally.rule)}  ${count}`];
  const message = indented(tally.message, '           ');
  out.push(...(verbose || message.length <= 3 ? message : [...message.slice(0, 3), '           …']));
  if (tally.fix) out.push(`           ${c.green('fix:')} ${printable(tally.fix)}`);
  const shown = verbose ? tally.runs : tally.runs.slice(0, RUNS_SHOWN);
  for (const run of shown) out.push(`           ${c.gray('·')} ${printable(runLabel(run))}${printedDialectNote(run)}`);
  if (shown.length < runs)
    out.push(c.gray(`           · and ${runs - shown.length} more run(s) (--verbose lists them)`));
  return out;
}

function countsLine(c: ChalkInstance, report: ConformanceReport): string {
  const parts = statusCounts(report.runs).map(({ key, count }) => {
    const text = `${count} ${key.replace(/-/g, ' ')}`;
    return count > 0 ? paint(c, key)(text) : text;
  });
  const warnings = warningsText(report.summary);
  parts.push(report.summary.warnings > 0 ? c.yellow(warnings) : warnings);
  if (report.interrupted) parts.push(c.yellow('interrupted'));
  return `${report.runs.length} run(s): ${parts.join(', ')}`;
}

/** The one verdict line: the suite's verdict and exit code for `run`, conforms or not for `validate`. */
function verdictLine(c: ChalkInstance, report: ConformanceReport): string {
  const failing = report.summary.failed > 0 || (report.summary.errors ?? 0) > 0;
  const verdict = typeof report.verdict === 'string' ? report.verdict : failing ? 'failed' : 'passed';
  const exit = typeof report.exitCode === 'number' ? ` (exit ${report.exitCode})` : '';
  const text: Record<string, string> = {
    passed: '✔ conforms',
    failed: '✘ does not conform',
    partial: '◐ conforms, with declared limitations',
    inconclusive: '? the machine could not decide',
  };
  const word = text[verdict] ?? `? ${verdict}`;
  const color = verdict === 'passed' ? c.green.bold : verdict === 'failed' ? c.red.bold : c.yellow.bold;
  const source = typeof report.verdict === 'string' ? `yume-conformance: ${verdict.toUpperCase()}, ` : '';
  return color(`${source}${word}${exit}`);
}

/** One line for a run played more than once: inconclusive, flaky, or played again. */
function attemptsLine(run: ReportRun): string | undefined {
  const attempts = run.attempts ?? [];
  if (run.status === 'inconclusive') return `inconclusive after ${attempts.length} attempts: ${INCONCLUSIVE_ADVICE}`;
  if (run.status === 'flaky')
    return `flaky: the outcome differed over ${attempts.length} attempts (${attempts.map((attempt) => attempt.status).join(', ')})`;
  return attempts.length > 1
    ? `played ${attempts.length} times (${attempts.map((attempt) => attempt.status).join(', ')})`
    : undefined;
}

export function renderHuman(report: ConformanceReport, options: HumanOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const verbose = options.verbose === true;
  // No run took place: no counts, no verdict, only why.
  if (typeof report.startFailure === 'string')
    return `No run took place: the shim could not be started: ${printable(report.startFailure)}\n`;
  const lines: string[] = [];
  // `validate` (a report with no suite verdict) names each file it judged, one line for a conforming one.
  if (typeof report.verdict !== 'string') {
    for (const run of report.runs.filter((each) => each.status === 'passed'))
      lines.push(
        `${c.green.bold('✔ conforms')}  ${c.bold(printable(runLabel(run)))}${run.lines === undefined ? '' : c.gray(`  (${run.lines} lines)`)}`,
      );
  }
  for (const group of groupRuns(report.runs)) {
    lines.push(
      `${paint(c, group.key)(`${group.label} (${group.runs.length})`)}${group.hint ? c.gray(`: ${group.hint}`) : ''}`,
    );
    const shown = (finding: ReportFinding) => verbose || finding.severity !== 'INFO';
    for (const { run, repeats } of withRepeats(group, shown))
      lines.push(...runBlock(c, run, group, verbose), ...repeatLines(c, repeats, group), '');
  }
  const warnings = findingsByRule(report.runs, 'SHOULD');
  if (warnings.length > 0) {
    lines.push(c.yellow.bold(`Warnings (${warnings.length} rule(s); SHOULD findings do not fail the suite)`));
    for (const tally of warnings) lines.push(...tallyBlock(c, tally, verbose));
    lines.push('');
  }
  const notes = verbose ? findingsByRule(report.runs, 'INFO') : [];
  if (notes.length > 0) {
    lines.push(c.blue.bold(`Notes (${notes.length} rule(s); INFO, shown with --verbose)`));
    for (const tally of notes) lines.push(...tallyBlock(c, tally, verbose));
    lines.push('');
  }
  if (report.suiteFindings && report.suiteFindings.length > 0) lines.push(...suiteBlock(c, report.suiteFindings), '');
  if (options.matrix)
    lines.push(
      c.bold('Scenario × provider (the mark is the worst status; passed/runs)'),
      ...matrixLines(report.runs).map(printable),
      '',
    );
  lines.push(countsLine(c, report));
  const { inconclusive, attempts } = report.summary;
  if (inconclusive) lines.push(c.yellow(`${inconclusive} inconclusive: ${INCONCLUSIVE_ADVICE}`));
  if (attempts !== undefined && attempts > report.runs.length)
    lines.push(c.gray(`${attempts} attempts in all (runs played again or repeated)`));
  const byRule = notVerifiedByRule(report.runs);
  if (byRule.length > 0)
    lines.push(c.gray(`not verified, per rule: ${byRule.map(([rule, count]) => `${rule} ${count}`).join(', ')}`));
  lines.push(verdictLine(c, report));
  return `${lines.join('\n')}\n`;
}
