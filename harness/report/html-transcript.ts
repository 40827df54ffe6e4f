// One shim process in the HTML report: the golden and the observed stdout side by side, line by line, the
// whole transcript (up to MAX_PROCESS_CHARS, then the artifacts folder has the rest), lines that differ
// marked, and the lines a finding points at highlighted with an anchor (run-N-line-L) to jump to.
import type { ReportProcess } from './model.js';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );
}

/** Control characters shown visibly, so a capture cannot hide content or break the page. */
export function visible(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029\ufeff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Beyond this much stdout per process the page would stop being usable: the rest is in the artifacts. */
const MAX_PROCESS_CHARS = 4 * 1024 * 1024;
const MAX_LINE_CHARS = 4000;

/** A process as the page shows it: full text from the run itself, or head and tail from a JSON report. */
export interface TranscriptView {
  label: string;
  argv: string[];
  exit: string;
  /** Observed stdout; `gap` marks characters left out between head and tail (from a JSON report). */
  stdout: { head: string; tail?: string; gap: number };
  golden?: { name: string; text?: string };
  stderr: { text: string; chars: number };
}

function lines(text: string): string[] {
  const out = text.split('\n');
  if (out.at(-1) === '') out.pop();
  return out;
}

function cell(line: string | undefined): string {
  if (line === undefined) return '';
  const cut = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… (${line.length} characters)` : line;
  return escapeHtml(visible(cut));
}

/** One line of the table: the golden's line `number` on the left, the stdout's on the right. */
function row(
  anchor: string,
  number: number,
  sides: { left: string | undefined; right: string | undefined },
  failing: boolean,
) {
  const { left, right } = sides;
  // Only lines a finding names are marked: raw lines always differ from the normalised golden (ids, paths).
  const classes = [left === undefined || right === undefined ? 'edge' : '', failing ? 'failing' : '']
    .filter(Boolean)
    .join(' ');
  const id = failing ? ` id="${anchor}-line-${number}"` : '';
  return (
    `<tr${classes ? ` class="${classes}"` : ''}${id}><td class="n">${left === undefined ? '' : number}</td><td class="l">${cell(left)}</td>` +
    `<td class="n">${right === undefined ? '' : number}</td><td class="l">${cell(right)}</td></tr>`
  );
}

/** The side-by-side table; `failingLines` are 1-based stdout lines named by findings; `anchor` is the run's id. */
export function transcriptTable(view: TranscriptView, failingLines: ReadonlySet<number>, anchor: string): string {
  let head = view.stdout.head;
  let gap = view.stdout.gap;
  if (head.length > MAX_PROCESS_CHARS) {
    gap += head.length - MAX_PROCESS_CHARS;
    head = head.slice(0, MAX_PROCESS_CHARS);
  }
  const expected = view.golden?.text === undefined ? [] : lines(view.golden.text);
  const observed = lines(head);
  const rows: string[] = [];
  const count = Math.max(expected.length, observed.length);
  for (let index = 0; index < count; index += 1)
    rows.push(row(anchor, index + 1, { left: expected[index], right: observed[index] }, failingLines.has(index + 1)));
  if (gap > 0 || view.stdout.tail !== undefined) {
    rows.push(
      `<tr class="gap"><td></td><td></td><td></td><td class="l">… ${gap} characters not shown here (the run's artifacts hold all of stdout)</td></tr>`,
    );
    for (const line of lines(view.stdout.tail ?? ''))
      rows.push(`<tr><td class="n"></td><td class="l"></td><td class="n"></td><td class="l">${cell(line)}</td></tr>`);
  }
  const goldenLabel =
    view.golden === undefined
      ? 'expected (no golden)'
      : view.golden.text === undefined
        ? `golden ${escapeHtml(view.golden.name)} (not in this report)`
        : 'expected (golden)';
  return (
    `<h4>${escapeHtml(view.label)} — ${escapeHtml(view.exit)}</h4>` +
    `<p class="argv"><code>${escapeHtml(view.argv.join(' '))}</code></p>` +
    `<table class="t"><thead><tr><th></th><th>${goldenLabel}</th><th></th><th>observed stdout (${observed.length} lines)</th></tr></thead><tbody>${rows.join('')}</tbody></table>` +
    (view.stderr.text.trim()
      ? `<details><summary>stderr (${view.stderr.chars} characters${view.stderr.chars > view.stderr.text.length ? ', the end shown' : ''})</summary><pre>${escapeHtml(visible(view.stderr.text))}</pre></details>`
      : '')
  );
}

/** A view of a process from a JSON report (merged shards, or another machine's report). */
export function viewFromReport(process: ReportProcess): TranscriptView {
  const { stdout } = process;
  return {
    label: process.label,
    argv: process.argv ?? [],
    exit: process.signal ? `signal ${process.signal}` : `exit ${String(process.exitCode)}`,
    stdout: {
      head: stdout.head,
      ...(stdout.tail === undefined ? {} : { tail: stdout.tail }),
      gap: Math.max(0, stdout.chars - stdout.head.length - (stdout.tail?.length ?? 0)),
    },
    ...(process.golden === undefined ? {} : { golden: { name: process.golden } }),
    stderr: { text: process.stderr.tail, chars: process.stderr.chars },
  };
}
