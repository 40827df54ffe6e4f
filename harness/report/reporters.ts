// Reporter registry and `--reporter NAME[:FILE]` handling shared by `validate`, `run` and `merge-reports`.
// A program embedding the harness may add a reporter with registerReporter().
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunResult } from '../runner/run-types.js';
import { renderHtml } from './html.js';
import { colorWanted, renderHuman } from './human.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import type { ConformanceReport } from './model.js';
import { YumeError, type YumeErrorOptions } from '../../common/errors.js';
import { UsageError } from '../errors.js';

export interface ReporterOptions {
  /** True when the output goes to a terminal that wants colours (never for files). */
  color: boolean;
  /** The full result of each run, in the order of `report.runs`, when the report comes from a run here. */
  results?: readonly RunResult[];
}

export type RenderReport = (report: ConformanceReport, options: ReporterOptions) => string;

const registry = new Map<string, RenderReport>([
  ['human', (report, options) => renderHuman(report, { color: options.color })],
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
 * Writes the report with every reporter: to its file, or to `stdout`. Throws ReportWriteError, with a readable
 * message, when a file cannot be written.
 */
export function emitReports(
  report: ConformanceReport,
  specs: readonly ReporterSpec[],
  stdout: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
  results?: readonly RunResult[],
): void {
  for (const spec of specs) {
    const render = registry.get(spec.name);
    if (!render) throw new UsageError(`unknown reporter "${spec.name}"`);
    if (spec.file === undefined) {
      stdout.write(render(report, { color: colorWanted(stdout), ...(results ? { results } : {}) }));
      continue;
    }
    const text = render(report, { color: false, ...(results ? { results } : {}) });
    try {
      mkdirSync(path.dirname(path.resolve(spec.file)), { recursive: true });
      writeFileSync(spec.file, text);
    } catch (error) {
      const reason =
        error instanceof Error && 'code' in error ? String((error as NodeJS.ErrnoException).code) : String(error);
      throw new ReportWriteError(`cannot write ${spec.name} report to ${spec.file} (${reason})`, { cause: error });
    }
  }
}
