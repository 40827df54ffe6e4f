// `--reporter human` (default): per run a verdict line, then each finding with its rule id, line, the offending
// excerpt and how to fix it. Colours via chalk, off when NO_COLOR is set or the output is not a terminal.
import { Chalk, type ChalkInstance } from 'chalk';
import type { ConformanceReport, ReportFinding, ReportRun } from './model.js';

export interface HumanOptions {
  /** Use colours (the caller decides: see colorWanted()). */
  color: boolean;
}

/** Colours only on a terminal, and never when NO_COLOR is set to anything non-empty (https://no-color.org). */
export function colorWanted(stream: { isTTY?: boolean } | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return stream?.isTTY === true;
}

/** Escapes control characters so text from a capture (ESC sequences, CR) cannot drive the terminal. */
function printable(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const SEVERITY_ORDER = { MUST: 0, SHOULD: 1, INFO: 2 } as const;

function badge(c: ChalkInstance, severity: ReportFinding['severity']): string {
  if (severity === 'MUST') return c.red.bold('MUST  ');
  if (severity === 'SHOULD') return c.yellow.bold('SHOULD');
  return c.blue('INFO  ');
}

function verdict(c: ChalkInstance, run: ReportRun): string {
  switch (run.status) {
    case 'passed':
      return c.green.bold('✔ conforms');
    case 'failed':
      return c.red.bold('✘ does not conform');
    case 'partial':
      return c.yellow.bold('◐ partial');
    case 'error':
      return c.magenta.bold('⚠ harness error');
    default:
      return c.gray.bold('○ not verified');
  }
}

function runBlock(c: ChalkInstance, run: ReportRun): string[] {
  const label = printable(run.provider && run.provider !== 'n/a' ? `${run.scenario} [${run.provider}]` : run.scenario);
  const details = [
    run.profile && `profile ${run.profile}`,
    run.dialect && `dialect ${run.dialect}`,
    run.lines !== undefined && `${run.lines} lines`,
  ]
    .filter(Boolean)
    .join(', ');
  const out = [`${verdict(c, run)}  ${c.bold(label)}${details ? c.gray(`  (${details})`) : ''}`];
  if (run.error) out.push(`  ${c.magenta(printable(run.error))}`);
  if (run.interrupted) out.push(`  ${c.gray('interrupted: the runner was stopped while this run was going')}`);
  const findings = [...run.findings].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  for (const f of findings) {
    const where = c.cyan(printable(f.line !== undefined ? `${run.scenario}:${f.line}` : run.scenario));
    out.push(`  ${badge(c, f.severity)} ${c.bold(f.rule)}  ${where}`);
    out.push(`         ${printable(f.message)}`);
    if (f.excerpt) out.push(`         ${c.gray('>')} ${c.gray(printable(f.excerpt))}`);
    if (f.fix) out.push(`         ${c.green('fix:')} ${printable(f.fix)}`);
  }
  return out;
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

export function renderHuman(report: ConformanceReport, options: HumanOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  // No run took place: no counts, no verdict, only why.
  if (typeof report.startFailure === 'string')
    return `No run took place: the shim could not be started: ${printable(report.startFailure)}\n`;
  const lines: string[] = [];
  for (const run of report.runs) lines.push(...runBlock(c, run), '');
  if (report.suiteFindings && report.suiteFindings.length > 0) lines.push(...suiteBlock(c, report.suiteFindings), '');
  const { passed, failed, warnings, notVerified, partial, errors } = report.summary;
  const parts = [
    c.green(`${passed} passed`),
    failed > 0 ? c.red(`${failed} failed`) : `${failed} failed`,
    `${warnings} warnings`,
    `${notVerified} not verified`,
  ];
  if (partial) parts.push(`${partial} partial`);
  if (errors) parts.push(c.magenta(`${errors} harness error${errors > 1 ? 's' : ''}`));
  if (report.interrupted) parts.push(c.yellow('interrupted'));
  lines.push(parts.join(', '));
  return `${lines.join('\n')}\n`;
}
