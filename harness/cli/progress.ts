// Progress of `run` on stderr. On a terminal, one status line redrawn in place (done/total, failed, elapsed,
// ETA, runs at once), with each run that did not pass or was not verified printed above it as it ends; elsewhere
// (CI logs, pipes) one line per finished run, and with --verbose a line each time the runs at once change.
import { printedDialectNote, runLabel } from '../report/run-label.js';
import { notVerifiedLine } from '../rules/not-verified.js';
import type { RunResult } from '../runner/results/run-types.js';

const STATUS_MARK: Record<string, string> = {
  passed: '✔ passed',
  failed: '✘ failed',
  'not-verified': '○ not verified',
  partial: '◐ partial',
  error: '⚠ harness error',
};

/** One progress line for a finished run (with its whole identity). */
export function progressLine(result: RunResult, done: number, total: number): string {
  const width = String(total).length;
  const status: string = result.status;
  const mark = status === 'failed' && result.expectedFailure ? '✘ expected' : (STATUS_MARK[status] ?? `• ${status}`);
  const musts = result.findings.filter((finding) => finding.severity === 'MUST').length;
  const tail =
    status === 'not-verified' || status === 'partial'
      ? ` (${notVerifiedLine(result.notVerified ?? [])})`
      : status === 'error'
        ? ` (${result.error ?? ''})`
        : musts
          ? ` (${musts} MUST finding${musts > 1 ? 's' : ''})`
          : '';
  return `[${String(done).padStart(width)}/${total}] ${mark.padEnd(14)} ${runLabel(result)}${printedDialectNote(result)} · ${(result.durationMs / 1000).toFixed(1)} s${tail}\n`;
}

/** `m:ss` (or `h:mm:ss`). */
export function clock(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export interface StatusCounts {
  done: number;
  total: number | undefined;
  failed: number;
  elapsedMs: number;
  /** Runs at once now, when the suite's width moves with the machine. */
  width?: number;
}

/**
 * The live status line: `▶ 23/69 runs · 1 failed · 0:42 elapsed · ETA 1:10 · 4 at once` (ETA from the mean so
 * far; the width when it moves with the machine).
 */
export function statusLine(counts: StatusCounts): string {
  const { done, total, failed, elapsedMs, width } = counts;
  const of = total === undefined ? `${done} runs` : `${done}/${total} runs`;
  const eta =
    total === undefined || done === 0
      ? 'ETA …'
      : done >= total
        ? 'done'
        : `ETA ${clock((elapsedMs / done) * (total - done))}`;
  const atOnce = width === undefined ? '' : ` · ${width} at once`;
  return `▶ ${of} · ${failed} failed · ${clock(elapsedMs)} elapsed · ${eta}${atOnce}`;
}

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Progress {
  onRun(result: RunResult, done: number, total: number): void;
  /** The runs at once changed (the default width moves with the machine): `why` names the reading. */
  onWidth(width: number, why: string): void;
  /** Ends the live line (a last status stays on screen) and stops its clock. */
  finish(): void;
}

/** Statuses a terminal keeps a line for: anything but a plain pass. */
const quiet = (result: RunResult) => result.status === 'passed';

const ERASE_LINE = '\r\u001b[2K';

/** A line for a change of the runs at once. */
export function widthLine(width: number, why: string): string {
  return `runs at once: ${width} (${why})\n`;
}

/**
 * Progress for `stream`: live on a terminal, line per run elsewhere (and per change of the runs at once with
 * `verbose`). `now` is for tests.
 */
export function createProgress(
  stream: ProgressStream,
  now: () => number = Date.now,
  options: { verbose?: boolean } = {},
): Progress {
  if (stream.isTTY !== true) {
    return {
      onRun: (result, done, total) => stream.write(progressLine(result, done, total)),
      onWidth: (width, why) => {
        if (options.verbose === true) stream.write(widthLine(width, why));
      },
      finish: () => {},
    };
  }
  const started = now();
  const counts: StatusCounts = { done: 0, total: undefined, failed: 0, elapsedMs: 0 };
  const draw = () => {
    counts.elapsedMs = now() - started;
    const line = statusLine(counts);
    const width = stream.columns && stream.columns > 10 ? stream.columns - 1 : line.length;
    stream.write(`${ERASE_LINE}${line.slice(0, width)}`);
  };
  // The clock keeps moving between runs; unref'd so it never holds the process open.
  const timer = setInterval(draw, 1000);
  timer.unref();
  draw();
  return {
    onRun(result, done, total) {
      counts.done = done;
      counts.total = total;
      const status: string = result.status;
      if (status === 'failed' || status === 'error' || status === 'flaky') counts.failed += 1;
      if (!quiet(result)) stream.write(`${ERASE_LINE}${progressLine(result, done, total)}`);
      draw();
    },
    onWidth(width) {
      counts.width = width;
      draw();
    },
    finish() {
      clearInterval(timer);
      draw();
      stream.write('\n');
    },
  };
}
