// `--reporter html`: one self-contained page (no scripts, no external files). Per run a collapsible section
// (failed runs open): the verdict and findings, each process's whole transcript with the golden side by side
// and the lines findings point at highlighted, the requests the shim sent to the mocked provider, stderr,
// and a timeline. A link to #run-N opens that run's section (the browser reveals a closed <details> that
// holds the target), so other pages (the interop matrix) can point at a run.
import type { ProcessRecord, RequestRecord, RunResult } from '../runner/results/run-types.js';
import { escapeHtml, type TranscriptView, transcriptTable, viewFromReport, visible } from './html-transcript.js';
import {
  type ConformanceReport,
  type ReportFinding,
  type ReportNotVerified,
  type ReportRequest,
  type ReportRun,
  warningsText,
} from './model.js';
import { runLabel } from './run-label.js';
import { matrixHtml } from './run-matrix.js';
import { REQUEST_BODY_CHARS } from './run-output.js';

export { escapeHtml };

function viewFromRecord(process: ProcessRecord): TranscriptView {
  return {
    label: process.label,
    argv: process.argv,
    exit: process.signal ? `signal ${process.signal}` : `exit ${String(process.exitCode)}`,
    stdout: { head: process.stdout.toString('utf8'), gap: 0 },
    ...(process.goldenText === undefined ? {} : { golden: { name: process.golden ?? '', text: process.goldenText } }),
    stderr: { text: process.stderr, chars: process.stderr.length },
  };
}

function findingsList(findings: readonly ReportFinding[], anchor: string): string {
  if (findings.length === 0) return '<p class="muted">No findings.</p>';
  return `<ul class="findings">${findings
    .map(
      (finding) =>
        `<li class="${finding.severity.toLowerCase()}"><b>${finding.severity}</b> <code>${escapeHtml(finding.rule)}</code>${finding.line === undefined ? '' : ` <a href="#${anchor}-line-${finding.line}">line ${finding.line}</a>`}` +
        `<pre>${escapeHtml(visible(finding.message))}</pre>${finding.excerpt ? `<pre class="excerpt">${escapeHtml(visible(finding.excerpt))}</pre>` : ''}` +
        `${finding.fix ? `<p class="fix">fix: ${escapeHtml(finding.fix)}</p>` : ''}</li>`,
    )
    .join('')}</ul>`;
}

function requestsTable(requests: readonly (RequestRecord | ReportRequest)[]): string {
  if (requests.length === 0) return '<p class="muted">No requests reached the mocked provider.</p>';
  const rows = requests
    .map(
      (request) =>
        `<tr><td>#${request.index + 1}</td><td>${request.turn + 1}</td><td>${escapeHtml(request.method)} ${escapeHtml(request.path)}</td><td>${request.status}</td>` +
        `<td>${escapeHtml(String(request.outcome ?? ''))}${request.closedByClient ? ' (closed by the shim)' : ''}</td><td>${String(request.elapsedMs ?? '')} ms</td>` +
        `<td><details><summary>body</summary><pre>${escapeHtml(visible(prettyJson(cutBody(request.body))))}</pre></details></td></tr>`,
    )
    .join('');
  return `<table class="r"><thead><tr><th>request</th><th>turn</th><th>endpoint</th><th>status</th><th>outcome</th><th>at</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** A body as the JSON report keeps it: the page links to the artifacts for the rest. */
function cutBody(body: string): string {
  return body.length > REQUEST_BODY_CHARS
    ? `${body.slice(0, REQUEST_BODY_CHARS)}… (${body.length} characters; the whole body is in the --artifacts folder)`
    : body;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function timelineList(result: RunResult): string {
  if (result.timeline.length === 0) return '';
  return `<ol class="timeline">${result.timeline.map((entry) => `<li><span class="at">${entry.atMs} ms</span> <span class="src ${entry.source}">${entry.source}</span> ${escapeHtml(visible(entry.text))}</li>`).join('')}</ol>`;
}

/** One line per check (or for the whole run) that was not verified, with its rule and cause. */
function notVerifiedList(records: readonly ReportNotVerified[]): string {
  const items = records.map(
    (record) =>
      `<li>${record.rule ? `<code>${escapeHtml(record.rule)}</code> ` : ''}<span class="muted">(${escapeHtml(record.cause)}${record.scope === 'run' ? ', whole run' : ''})</span> ${escapeHtml(record.reason)}</li>`,
  );
  return `<div class="nv">Not verified:<ul>${items.join('')}</ul></div>`;
}

function runSection(run: ReportRun, result: RunResult | undefined, index: number): string {
  const status = run.expectedFailure ? 'expected failure' : run.status;
  const title = escapeHtml(runLabel(run));
  const failing = (run.status === 'failed' && !run.expectedFailure) || run.status === 'flaky';
  const anchor = `run-${index}`;
  const parts = [
    `<details class="run ${escapeHtml(run.status)}"${failing || run.status === 'error' ? ' open' : ''}><summary><span class="badge">${escapeHtml(status)}</span> ${title}</summary><div class="body" id="${anchor}">`,
  ];
  if (run.notVerified && run.notVerified.length > 0) parts.push(notVerifiedList(run.notVerified));
  if (run.attempts && run.attempts.length > 1)
    parts.push(
      `<p class="nv">${run.status === 'inconclusive' ? 'Inconclusive: the machine could not decide; run again on a quieter machine or with fewer <code>--jobs</code>. ' : ''}Attempts: ${escapeHtml(run.attempts.map((attempt) => attempt.status).join(', '))}</p>`,
    );
  if (run.limitation) parts.push(`<p class="nv">Declared limitation: ${escapeHtml(String(run.limitation))}</p>`);
  if (run.expectedFailure) parts.push(`<p class="nv">Expected failure: ${escapeHtml(String(run.expectedFailure))}</p>`);
  if (run.artifacts) parts.push(`<p class="muted">Artifacts: <code>${escapeHtml(String(run.artifacts))}</code></p>`);
  parts.push(findingsList(run.findings, anchor));
  const failingLines = new Set(
    run.findings.filter((finding) => finding.severity === 'MUST' && finding.line !== undefined).map((f) => f.line!),
  );
  const views = result ? result.processes.map(viewFromRecord) : (run.processes ?? []).map(viewFromReport);
  // Finding links (#run-N-line-L) go to the first process; later ones get their own ids.
  views.forEach((view, position) => {
    parts.push(transcriptTable(view, failingLines, position === 0 ? anchor : `${anchor}-p${position + 1}`));
  });
  const requests = result ? result.requests : run.requests;
  if (requests) parts.push('<h4>Provider requests</h4>', requestsTable(requests));
  if (result && result.timeline.length > 0) parts.push('<h4>Timeline</h4>', timelineList(result));
  parts.push('</div></details>');
  return parts.join('\n');
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em} h4{margin:1em 0 .3em}
.summary span{display:inline-block;margin-right:1em;padding:.2em .6em;border-radius:4px;background:#eee}
details.run{border:1px solid #ccc;border-radius:6px;margin:.4em 0;padding:.3em .6em}
details.run>summary{cursor:pointer;font-weight:600}
.badge{display:inline-block;min-width:7em;padding:0 .4em;border-radius:4px;color:#fff;background:#888;font-weight:600}
.passed .badge{background:#2a7d2a}.failed .badge{background:#b3261e}.partial .badge{background:#b7791f}.not-verified .badge{background:#777}.inconclusive .badge{background:#8a6d3b}.flaky .badge{background:#c2410c}
table.t{border-collapse:collapse;width:100%;table-layout:fixed;font:12px/1.35 ui-monospace,monospace}
table.t td{vertical-align:top;border-bottom:1px solid #f0f0f0;word-break:break-all;white-space:pre-wrap}
table.t td.n{width:3em;color:#999;text-align:right;padding-right:.5em}
table.t th:nth-child(odd){width:3em}table.t tr.edge td.l{background:#fff4e5}
table.t tr.failing td{background:#fde2e1}table.t tr.failing td.l{outline:2px solid #b3261e;outline-offset:-2px}
table.t tr.gap td{color:#777;font-style:italic}
table.r{border-collapse:collapse;font-size:12px} table.r td,table.r th{border:1px solid #ddd;padding:.2em .4em;vertical-align:top}
pre{white-space:pre-wrap;word-break:break-all;margin:.2em 0;font:12px/1.35 ui-monospace,monospace}
ul.findings{padding-left:1.2em} li.must b{color:#b3261e} li.should b{color:#b7791f} li.info b{color:#555}
.fix{color:#2a7d2a;margin:.1em 0}.muted,.argv{color:#777}.nv{color:#7a5a00}
ol.timeline{font:12px/1.4 ui-monospace,monospace;padding-left:1.5em}.at{color:#777;display:inline-block;min-width:5em}
table.matrix{border-collapse:collapse;margin:.5em 0 1em}table.matrix th,table.matrix td{border:1px solid #ddd;padding:.15em .5em;text-align:left}
table.matrix td.m a{display:block;color:#fff;text-decoration:none;font-weight:600;border-radius:3px;padding:0 .3em;background:#888}
table.matrix td.passed a{background:#2a7d2a}table.matrix td.failed a,table.matrix td.flaky a{background:#b3261e}
table.matrix td.error a{background:#6b1d9a}table.matrix td.partial a,table.matrix td.inconclusive a{background:#b7791f}
.src{display:inline-block;min-width:4em;font-weight:600}.src.shim{color:#2a5db0}.src.mock{color:#7a3ea1}.src.stdin{color:#b7791f}
`;

/**
 * The whole page. `results`, the full result of each run in the order of `report.runs`, adds whole transcripts
 * and timelines; without it (a report read from a file) the page shows what the report holds.
 */
export function renderHtml(report: ConformanceReport, results?: readonly RunResult[]): string {
  const summary = report.summary;
  // The warnings as every report says them, "N warnings in M runs", in place of the two numbers.
  const counts = Object.entries(summary)
    .filter(([name, value]) => typeof value === 'number' && name !== 'runsWithWarnings')
    .map(([name, value]) =>
      name === 'warnings'
        ? `<span><b>${escapeHtml(warningsText(summary))}</b></span>`
        : `<span>${escapeHtml(name)}: <b>${String(value)}</b></span>`,
    )
    .join('');
  const verdict = typeof report.verdict === 'string' ? report.verdict : summary.failed > 0 ? 'failed' : 'passed';
  const header = [
    `<h1>yume-conformance: ${escapeHtml(verdict)}</h1>`,
    `<p class="summary">${counts}</p>`,
    `<p class="muted">shim ${escapeHtml(String(report.shim ?? ''))} · capabilities ${escapeHtml(String(report.capabilities ?? ''))} · protocol ${escapeHtml(String(report.protocolVersion ?? ''))} · seed ${escapeHtml(String(report.seed ?? ''))} · ${escapeHtml(String(report.platform ?? ''))} · ${escapeHtml(String(report.generatedAt ?? ''))}</p>`,
    matrixHtml(report.runs),
  ];
  // Failures first, then the rest in run order.
  const order = report.runs
    .map((run, index) => ({ run, index }))
    .sort(
      (a, b) =>
        Number(b.run.status === 'failed' && !b.run.expectedFailure) -
          Number(a.run.status === 'failed' && !a.run.expectedFailure) || a.index - b.index,
    );
  const sections = order.map(({ run, index }) => runSection(run, results?.[index], index));
  // No run took place (the shim could not be started), and findings on the suite as a whole.
  if (typeof report.startFailure === 'string')
    sections.unshift(
      `<p><b>No run took place</b>: the shim could not be started: ${escapeHtml(report.startFailure)}</p>`,
    );
  if (report.suiteFindings && report.suiteFindings.length > 0)
    sections.unshift(`<h2>The suite as a whole</h2>${findingsList(report.suiteFindings, 'suite')}`);
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>yume-conformance report</title><style>${STYLE}</style></head><body>\n${header.join('\n')}\n${sections.join('\n')}\n</body></html>\n`;
}
