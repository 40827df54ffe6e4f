// `merge-reports --interop`: several shims side by side, like Autobahn's test-suite pages. index.html is a
// matrix, one row per scenario and provider, one column per shim; each cell shows the worst status of that
// shim's runs there (how many passed) and links to that run's section in the shim's own page (shim-N.html,
// the HTML report rendered from its JSON report), where the transcript and findings are.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderHtml } from './html.js';
import { escapeHtml } from './html-transcript.js';
import type { LoadedReport } from './merge-shards.js';
import type { ReportRun } from './model.js';

/** Worst first: a cell shows the worst status among its runs. */
const SEVERITY: Record<string, number> = {
  error: 0,
  failed: 1,
  flaky: 1,
  inconclusive: 2,
  'not-verified': 2,
  partial: 3,
  passed: 4,
};

interface Cell {
  worst: ReportRun;
  position: number;
  passed: number;
  total: number;
  /** Checks not verified in runs that otherwise ran (a whole run not verified shows as its status). */
  unchecked: number;
}

function shimLabel(input: LoadedReport, index: number, all: readonly LoadedReport[]): string {
  const shim = String(input.report.shim ?? input.file);
  const base = path.basename(shim);
  // Two shims with one file name (dist/index.js) are told apart by their folder.
  const clash = all.some(
    (other, at) => at !== index && path.basename(String(other.report.shim ?? other.file)) === base,
  );
  return clash ? `${path.basename(path.dirname(shim))}/${base}` : base;
}

function cellsOf(runs: readonly ReportRun[]): Map<string, Cell> {
  const cells = new Map<string, Cell>();
  runs.forEach((run, position) => {
    const key = `${run.scenario}\u0000${run.provider}`;
    const cell = cells.get(key);
    const passed = run.status === 'passed' || run.status === 'partial' ? 1 : 0;
    const unchecked = (run.notVerified ?? []).filter((record) => record.scope === 'check').length;
    if (!cell) {
      cells.set(key, { worst: run, position, passed, total: 1, unchecked });
      return;
    }
    cell.total += 1;
    cell.passed += passed;
    cell.unchecked += unchecked;
    if ((SEVERITY[run.status] ?? 0) < (SEVERITY[cell.worst.status] ?? 0)) {
      cell.worst = run;
      cell.position = position;
    }
  });
  return cells;
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse}th,td{border:1px solid #ddd;padding:.25em .6em;text-align:left}
th.scenario{font-weight:600}td.c a{display:block;color:#fff;text-decoration:none;font-weight:600;padding:.1em .4em;border-radius:3px}
.passed a{background:#2a7d2a}.failed a{background:#b3261e}.error a{background:#6b1d9a}.partial a{background:#b7791f}
.not-verified a{background:#777}.inconclusive a{background:#8a6d3b}.flaky a{background:#c2410c}.muted{color:#777}
`;

/** Writes index.html and shim-N.html into `dir`; returns the path of index.html. */
export function writeInteropPages(inputs: readonly LoadedReport[], dir: string): string {
  mkdirSync(dir, { recursive: true });
  const labels = inputs.map((input, index) => shimLabel(input, index, inputs));
  const cellMaps = inputs.map((input) => cellsOf(input.report.runs));
  inputs.forEach((input, index) => {
    writeFileSync(path.join(dir, `shim-${index + 1}.html`), renderHtml(input.report));
  });
  const keys: string[] = [];
  for (const cells of cellMaps) for (const key of cells.keys()) if (!keys.includes(key)) keys.push(key);
  const header = labels
    .map(
      (label, index) =>
        `<th><a href="shim-${index + 1}.html">${escapeHtml(label)}</a><br><span class="muted">${escapeHtml(String(inputs[index]!.report.verdict ?? ''))}</span></th>`,
    )
    .join('');
  const rows = keys.map((key) => {
    const [scenario, provider] = key.split('\u0000') as [string, string];
    const cells = cellMaps
      .map((cells, index) => {
        const cell = cells.get(key);
        if (!cell) return '<td class="muted">not run</td>';
        const status = cell.worst.status;
        const unchecked = cell.unchecked > 0 ? ` · ${cell.unchecked} unchecked` : '';
        const label = `${status}${cell.total > 1 ? ` (${cell.passed}/${cell.total})` : ''}${unchecked}`;
        const why = (cell.worst.notVerified ?? []).map((record) => `${record.rule ?? 'run'} (${record.cause})`);
        const title = `${labels[index]}: ${scenario} · ${provider}${why.length > 0 ? ` — not verified: ${why.join(', ')}` : ''}`;
        return `<td class="c ${escapeHtml(status)}"><a href="shim-${index + 1}.html#run-${cell.position}" title="${escapeHtml(title)}">${escapeHtml(label)}</a></td>`;
      })
      .join('');
    return `<tr><th class="scenario">${escapeHtml(scenario)}</th><td>${escapeHtml(provider)}</td>${cells}</tr>`;
  });
  const html =
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>yume-conformance interop matrix</title><style>${STYLE}</style></head><body>\n` +
    `<h1>yume-conformance: ${inputs.length} shims side by side</h1>\n` +
    '<p class="muted">Each cell is the worst status of that shim\'s runs of the scenario for the provider (runs passed / runs, and how many checks of them were not verified); it links to the run, and its tooltip names the rule and cause of each check not verified.</p>\n' +
    `<table><thead><tr><th>scenario</th><th>provider</th>${header}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>\n</body></html>\n`;
  const index = path.join(dir, 'index.html');
  writeFileSync(index, html);
  return index;
}
