// The scenario × provider matrix of a report: one row per scenario, one column per provider, each cell the
// worst status among that pair's runs and how many of them passed. The HTML report opens with it (each cell
// links to the worst run's section); the terminal shows it with `--matrix`.
import { escapeHtml } from './html-transcript.js';
import type { ReportRun } from './model.js';
import { GROUPS, groupKeyOf, PASSED_MARK } from './status-groups.js';

export interface MatrixCell {
  /** Group key of the worst run (see status-groups.ts), `passed` when all passed. */
  worst: string;
  /** Position in report.runs of the worst run. */
  position: number;
  passed: number;
  total: number;
}

export interface RunMatrix {
  scenarios: string[];
  providers: string[];
  cell(scenario: string, provider: string): MatrixCell | undefined;
}

/** Rank of a group key: lower is worse; statuses no group lists count as the worst. */
function rank(key: string): number {
  if (key === 'passed') return GROUPS.length + 1;
  const index = GROUPS.findIndex((group) => group.key === key);
  return index < 0 ? -1 : index;
}

/** Counts as passing in a cell: passed, partial (a declared limitation) and expected failures. */
const PASSING = new Set(['passed', 'partial', 'expected-failure']);

export function runMatrix(runs: readonly ReportRun[]): RunMatrix {
  const scenarios: string[] = [];
  const providers: string[] = [];
  const cells = new Map<string, MatrixCell>();
  runs.forEach((run, position) => {
    if (!scenarios.includes(run.scenario)) scenarios.push(run.scenario);
    if (!providers.includes(run.provider)) providers.push(run.provider);
    const key = groupKeyOf(run);
    const id = `${run.scenario}\u0000${run.provider}`;
    const cell = cells.get(id) ?? { worst: key, position, passed: 0, total: 0 };
    cell.total += 1;
    if (PASSING.has(key)) cell.passed += 1;
    if (rank(key) < rank(cell.worst)) Object.assign(cell, { worst: key, position });
    cells.set(id, cell);
  });
  return { scenarios, providers, cell: (scenario, provider) => cells.get(`${scenario}\u0000${provider}`) };
}

function markOf(key: string): string {
  return key === 'passed' ? PASSED_MARK : (GROUPS.find((group) => group.key === key)?.mark ?? '•');
}

/** Plain-text matrix lines: `✔ 3/3` per cell (passing runs of all runs), `-` where a pair has no run. */
export function matrixLines(runs: readonly ReportRun[]): string[] {
  const matrix = runMatrix(runs);
  const cellText = (scenario: string, provider: string) => {
    const cell = matrix.cell(scenario, provider);
    return cell ? `${markOf(cell.worst)} ${cell.passed}/${cell.total}` : '-';
  };
  const first = Math.max('scenario'.length, ...matrix.scenarios.map((scenario) => scenario.length));
  const widths = matrix.providers.map((provider) =>
    Math.max(provider.length, ...matrix.scenarios.map((scenario) => cellText(scenario, provider).length)),
  );
  const row = (head: string, cells: string[]) =>
    [head.padEnd(first), ...cells.map((text, index) => text.padEnd(widths[index]!))].join('  ').trimEnd();
  return [
    row('scenario', matrix.providers),
    ...matrix.scenarios.map((scenario) =>
      row(
        scenario,
        matrix.providers.map((provider) => cellText(scenario, provider)),
      ),
    ),
  ];
}

/** The HTML matrix: each cell links to its worst run's section (#run-N). */
export function matrixHtml(runs: readonly ReportRun[]): string {
  const matrix = runMatrix(runs);
  if (matrix.scenarios.length === 0) return '';
  const head = `<tr><th>scenario</th>${matrix.providers.map((provider) => `<th>${escapeHtml(provider)}</th>`).join('')}</tr>`;
  const rows = matrix.scenarios.map((scenario) => {
    const cells = matrix.providers.map((provider) => {
      const cell = matrix.cell(scenario, provider);
      if (!cell) return '<td class="muted">-</td>';
      const title = `${cell.passed} of ${cell.total} run(s) passed; worst: ${cell.worst}`;
      return `<td class="m ${escapeHtml(cell.worst)}" title="${escapeHtml(title)}"><a href="#run-${cell.position}">${escapeHtml(markOf(cell.worst))} ${cell.passed}/${cell.total}</a></td>`;
    });
    return `<tr><th class="s">${escapeHtml(scenario)}</th>${cells.join('')}</tr>`;
  });
  return `<table class="matrix"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`;
}
