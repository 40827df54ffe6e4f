// `--reporter junit`: one <testcase> per run, a <failure> listing its MUST findings, <skipped> when not
// verified, each not-verified check as a `not-verified` property (rule, cause, reason), and warnings in
// <system-out>. CI systems read this format.
import { notVerifiedLine } from '../rules/not-verified.js';
import type { ConformanceReport, ReportFinding, ReportRun } from './model.js';
import { runLabel } from './run-label.js';

/** Escapes text for XML and drops characters XML 1.0 cannot carry at all (control bytes, lone surrogates). */
export function xmlEscape(text: string): string {
  return text
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '\ufffd',
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function findingText(f: ReportFinding): string {
  const where = f.line !== undefined ? ` (line ${f.line})` : '';
  const excerpt = f.excerpt ? `\n    > ${f.excerpt}` : '';
  const fix = f.fix ? `\n    fix: ${f.fix}` : '';
  return `${f.severity} ${f.rule}${where}: ${f.message}${excerpt}${fix}`;
}

function testcase(run: ReportRun): string {
  const name = runLabel(run);
  const classname = `yume-conformance.${run.provider || 'validate'}`;
  const open = `    <testcase name="${xmlEscape(name)}" classname="${xmlEscape(classname)}"${run.durationMs !== undefined ? ` time="${(run.durationMs / 1000).toFixed(3)}"` : ''}>`;
  const parts: string[] = [open];
  const skipped = run.notVerified ?? [];
  if (skipped.length > 0) {
    const properties = skipped.map(
      (record) =>
        `        <property name="not-verified" value="${xmlEscape(`${record.rule ?? `(${record.scope})`} [${record.cause}]: ${record.reason}`)}"/>`,
    );
    parts.push('      <properties>', ...properties, '      </properties>');
  }
  const must = run.findings.filter((f) => f.severity === 'MUST');
  const other = run.findings.filter((f) => f.severity !== 'MUST');
  if (run.status === 'failed') {
    const first = must[0];
    const message = first ? `${first.rule}: ${first.message}` : 'failed';
    parts.push(
      `      <failure message="${xmlEscape(message)}" type="${xmlEscape(first?.rule ?? 'failed')}">${xmlEscape(must.map(findingText).join('\n'))}</failure>`,
    );
  } else if (run.status === 'error') {
    const message = run.error ?? 'internal error in the harness';
    parts.push(`      <error message="${xmlEscape(message)}" type="harness-error">${xmlEscape(message)}</error>`);
  } else if (run.status === 'not-verified') {
    const why = skipped.length > 0 ? notVerifiedLine(skipped) : run.findings[0]?.message;
    parts.push(`      <skipped message="${xmlEscape(why ?? 'not verified')}"/>`);
  } else if (run.status === 'inconclusive') {
    const message = `inconclusive after ${run.attempts?.length ?? 1} attempts: the machine could not decide (${notVerifiedLine(run.notVerified ?? [])})`;
    parts.push(`      <skipped message="${xmlEscape(message)}"/>`);
  } else if (run.status === 'flaky') {
    const outcomes = (run.attempts ?? []).map((attempt) => attempt.status).join(', ');
    parts.push(
      `      <failure message="${xmlEscape(`flaky: the outcome differed over the attempts (${outcomes})`)}" type="flaky">${xmlEscape(outcomes)}</failure>`,
    );
  }
  if (other.length > 0) parts.push(`      <system-out>${xmlEscape(other.map(findingText).join('\n'))}</system-out>`);
  parts.push('    </testcase>');
  return parts.join('\n');
}

export function renderJunit(report: ConformanceReport): string {
  const { summary, runs } = report;
  const failures = runs.filter((r) => r.status === 'failed' || r.status === 'flaky').length;
  const skipped = runs.filter((r) => r.status === 'not-verified' || r.status === 'inconclusive').length;
  const errors = runs.filter((r) => r.status === 'error').length;
  // No run took place (the shim could not be started): said as a property of the empty suite.
  const startFailure =
    typeof report.startFailure === 'string'
      ? `<property name="startFailure" value="${xmlEscape(report.startFailure)}"/>`
      : '';
  // Findings on the suite as a whole (no run is blamed), as the suite's own output.
  const suiteNotes = (report.suiteFindings ?? []).map(findingText).join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="yume-conformance" tests="${runs.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
    `  <testsuite name="yume-conformance" tests="${runs.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
    `    <properties><property name="warnings" value="${summary.warnings}"/><property name="runsWithWarnings" value="${summary.runsWithWarnings ?? 0}"/>${startFailure}</properties>`,
    ...runs.map(testcase),
    ...(suiteNotes ? [`    <system-out>${xmlEscape(suiteNotes)}</system-out>`] : []),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
