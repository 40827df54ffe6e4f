// `yume-conformance validate <file.jsonl | ->`: judges captured shim stdout against the rule catalog.
// Exit 0 = conforms, 1 = a MUST rule failed, 2 = usage error or unreadable input (a clear message, no stack).
import { readFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import { buildReport, harnessErrorRun, runFromValidation } from '../report/model.js';
import { emitReports, parseReporterSpec, type ReporterSpec, reporterNames } from '../report/reporters.js';
import type { SequenceMode } from '../rules/checks/sequence.js';
import type { Profile } from '../rules/types.js';
import { validateStream } from '../validate/validate-stream.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, failureOf } from './exit-codes.js';

export interface ValidateCommandOptions {
  profile: Profile;
  reporter: string[];
  mode?: SequenceMode;
  /** Human report: INFO notes too. */
  verbose?: boolean;
}

export interface ValidateIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** A sentence for a file-system error (ENOENT → "no such file"), instead of a stack trace. */
function readFailure(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'it is a directory'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'ERR_FS_FILE_TOO_LARGE'
            ? 'file is too large to read at once (over 2 GB)'
            : error instanceof Error
              ? error.message
              : String(error);
  return `cannot read ${file}: ${reason}`;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/** Prints the error a command ends with as one line and returns its exit code (by the error's class). */
function fail(io: ValidateIo, error: unknown): number {
  const failure = failureOf('yume-conformance validate', error);
  io.stderr.write(failure.line);
  return failure.exitCode;
}

/** Runs the command; returns the exit code. Separate from commander so tests can call it in-process. */
export async function runValidate(files: string[], options: ValidateCommandOptions, io: ValidateIo): Promise<number> {
  let specs: ReporterSpec[];
  try {
    specs = (options.reporter.length > 0 ? options.reporter : ['human']).map(parseReporterSpec);
  } catch (error) {
    return fail(io, error);
  }
  if (files.filter((f) => f === '-').length > 1) {
    io.stderr.write('yume-conformance validate: stdin (-) can be given only once\n');
    return EXIT_USAGE;
  }
  const runs = [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = file === '-' ? await readAll(io.stdin) : await readFile(file);
    } catch (error) {
      io.stderr.write(`yume-conformance validate: ${readFailure(file === '-' ? 'stdin' : file, error)}\n`);
      return EXIT_USAGE;
    }
    try {
      const result = validateStream(bytes, {
        profile: options.profile,
        source: file,
        mode: options.mode,
        keepEvents: false,
      });
      runs.push(runFromValidation(result, file));
    } catch (error) {
      // A fault of the validator itself is not a verdict on the stream: status error, and the next file.
      runs.push(harnessErrorRun(file, error));
    }
  }
  const report = buildReport(runs);
  try {
    emitReports(report, specs, io.stdout, { verbose: options.verbose === true });
  } catch (error) {
    return fail(io, error);
  }
  return report.summary.failed > 0 || (report.summary.errors ?? 0) > 0 ? EXIT_FAILED : EXIT_OK;
}

/** Registers `yume-conformance validate`. */
export function registerValidateCommand(program: Command): void {
  program
    .command('validate')
    .description('check captured shim stdout (one JSON message per line) against the protocol rules')
    .argument('<files...>', "capture file(s) of a shim's stdout, or - to read stdin")
    .addOption(new Option('--profile <profile>', 'rule profile').choices(['spec', 'yume-app']).default('spec'))
    .option(
      '--reporter <name[:file]>',
      `report format, repeatable: ${reporterNames().join(', ')}; NAME:FILE writes to a file (default: human; naming one replaces the human report unless human is named too)`,
      collect,
      [],
    )
    .addOption(
      new Option('--mode <mode>', 'spawn-per-turn also requires one turn per stream').choices([
        'spawn-per-turn',
        'persistent',
      ]),
    )
    .option('--verbose', 'human report: also the INFO notes')
    .addHelpText('after', '\nExit codes: 0 conforms, 1 a MUST rule failed, 2 usage error or unreadable input.')
    .action(async (files: string[], options: ValidateCommandOptions) => {
      process.exitCode = await runValidate(files, options, {
        stdin: process.stdin,
        stdout: process.stdout,
        stderr: process.stderr,
      });
    });
}
