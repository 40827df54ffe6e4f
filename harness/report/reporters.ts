// Reporter registry and `--reporter NAME[:FILE]` handling shared by `validate`, `run` and `merge-reports`.
// A program embedding the harness may add a reporter with registerReporter().
import { accessSync, constants, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { YumeError, type YumeErrorOptions } from '../../common/errors.js';
import { UsageError } from '../errors.js';
import type { RunResult } from '../runner/results/run-types.js';
import { renderHtml } from './html.js';
import { colorWanted, renderHuman } from './human.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import type { ConformanceReport } from './model.js';

export interface ReporterOptions {
  /** True when the output goes to a terminal that wants colours (never for files). */
  color: boolean;
  /** The full result of each run, in the order of `report.runs`, when the report comes from a run here. */
  results?: readonly RunResult[];
  /** `--verbose`: INFO notes too, and every run a warning hit (human). */
  verbose?: boolean;
  /** `--matrix`: the scenario × provider matrix (human). */
  matrix?: boolean;
}

/** What emitReports passes on to the reporters besides the report (colour is decided per target). */
export type EmitOptions = Omit<ReporterOptions, 'color'>;

export type RenderReport = (report: ConformanceReport, options: ReporterOptions) => string;

const registry = new Map<string, RenderReport>([
  [
    'human',
    (report, options) =>
      renderHuman(report, { color: options.color, verbose: options.verbose === true, matrix: options.matrix === true }),
  ],
  ['json', (report) => renderJson(report)],
  ['junit', (report) => renderJunit(report)],
  ['html', (report, options) => renderHtml(report, options.results)],
]);

export function registerReporter(name: string, render: RenderReport): void {
  registry.set(name, render);
}

export function reporterNames(): string[] {
  return [...registry.keys()];
}

export interface ReporterSpec {
  name: string;
  /** Output file; undefined = stdout. */
  file?: string;
}

/** Parses `junit:out.xml` or `human`. Throws a usage message for an unknown reporter or an empty file name. */
export function parseReporterSpec(spec: string): ReporterSpec {
  const colon = spec.indexOf(':');
  // A Windows drive letter ("junit:C:\\r.xml") keeps everything after the first colon as the file.
  const name = colon === -1 ? spec : spec.slice(0, colon);
  const file = colon === -1 ? undefined : spec.slice(colon + 1);
  if (!registry.has(name))
    throw new UsageError(
      `unknown reporter "${name}" (choose from ${reporterNames().join(', ')}; form NAME or NAME:FILE)`,
    );
  if (file === '') throw new UsageError(`reporter "${name}:" needs a file name after the colon`);
  return file === undefined ? { name } : { name, file };
}

/** A report file could not be written (code REPORT_WRITE); the message names the file and the reason. */
export class ReportWriteError extends YumeError {
  override name = 'ReportWriteError';
  constructor(message: string, options?: YumeErrorOptions) {
    super('REPORT_WRITE', message, options);
  }
}

/**
 * Creates the missing folders above `file` one level at a time. (A recursive mkdir under /proc or /sys can
 * loop forever on some Node versions; one level at a time fails at once with the first folder it cannot make.)
 */
export function makeParentFolders(file: string): void {
  const missing: string[] = [];
  let folder = path.dirname(path.resolve(file));
  while (!existsSync(folder)) {
    missing.push(folder);
    const parent = path.dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  for (const dir of missing.reverse()) mkdirSync(dir);
}

/**
 * Checks, before a suite runs, that every report file can be written: its folders are made and the folder is
 * writable. Throws ReportWriteError naming the reporter, the file and the reason.
 */
export function prepareReportFiles(specs: readonly ReporterSpec[]): void {
  for (const spec of specs) {
    if (spec.file === undefined) continue;
    try {
      makeParentFolders(spec.file);
      const folder = path.dirname(path.resolve(spec.file));
      if (!statSync(folder).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      accessSync(folder, constants.W_OK);
      if (existsSync(spec.file) && statSync(spec.file).isDirectory())
        throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    } catch (error) {
      const reason =
        error instanceof Error && 'code' in error ? String((error as NodeJS.ErrnoException).code) : String(error);
      throw new ReportWriteError(
        `cannot write ${spec.name} report to ${spec.file} (${reason}): choose a file in a folder you can write`,
        { cause: error },
      );
    }
  }
}

/**
 * Writes the report with every reporter: to its file, or to `stdout`; `options` carries the runs' full results
 * and the human reporter's --verbose and --matrix. Throws ReportWriteError, with a readable
 * message, when a file cannot be written.
 */
export function emitReports(
  report: ConformanceReport,
  specs: readonly ReporterSpec[],
  stdout: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
  options: EmitOptions = {},
): void {
  for (const spec of specs) {
    const render = registry.get(spec.name);
    if (!render) throw new UsageError(`unknown reporter "${spec.name}"`);
    if (spec.file === undefined) {
      stdout.write(render(report, { ...options, color: colorWanted(stdout) }));
      continue;
    }
    const text = render(report, { ...options, color: false });
    try {
      makeParentFolders(spec.file);
      writeFileSync(spec.file, text);
    } catch (error) {
      const reason =
        error instanceof Error && 'code' in error ? String((error as NodeJS.ErrnoException).code) : String(error);
      throw new ReportWriteError(`cannot write ${spec.name} report to ${spec.file} (${reason})`, { cause: error });
    }
  }
}
