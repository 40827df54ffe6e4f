// Exit codes shared by every command, so that validate and run agree on them, and the one place that turns
// an error a command ends with into its exit code and the line printed for it: by the error's class code
// (common/errors.ts), never by the words of its message.
// The codes themselves have one home, the verdict's (runner/results/verdict.ts `EXIT`); these are their names here.
import { messageOf, YumeError } from '../../common/errors.js';
import { EXIT } from '../runner/results/verdict.js';

export const EXIT_OK = EXIT.ok;
/** A MUST check failed. */
export const EXIT_FAILED = EXIT.failed;
/** Usage error, unreadable input, or a shim that could not be started. */
export const EXIT_USAGE = EXIT.usage;

/** The exit code for each error code a command may end with. */
export const EXIT_CODE_BY_ERROR_CODE: Readonly<Record<string, number>> = {
  /** Bad options: unknown provider, scenario or reporter, malformed --env, --shard or number (UsageError). */
  USAGE: EXIT_USAGE,
  /** A capabilities, expected-failures or invocation file is unreadable or invalid (ConfigFileError). */
  CONFIG_FILE: EXIT_USAGE,
  /** A scenario of the suite cannot be loaded (ScenarioLoadError). */
  SCENARIO_LOAD: EXIT_USAGE,
  /** A report file cannot be written (ReportWriteError). */
  REPORT_WRITE: EXIT_USAGE,
  /** Reports that cannot be merged (MergeError). */
  MERGE: EXIT_USAGE,
  /** An argument a Windows batch file cannot receive (UnquotableArgumentError). */
  UNQUOTABLE_ARGUMENT: EXIT_USAGE,
};

/** Whether the error is one the command line expects and reports in one line (any other is a fault). */
export function isKnownError(error: unknown): error is YumeError {
  return error instanceof YumeError && error.code in EXIT_CODE_BY_ERROR_CODE;
}

/**
 * How a command that ends with `error` exits: the code from the table for a known error; EXIT_USAGE for an
 * unexpected one as well, since the suite could not give a verdict. Either way the user sees the message as
 * one line after the command's name, never a stack trace.
 */
export function failureOf(command: string, error: unknown): { exitCode: number; line: string } {
  const exitCode = isKnownError(error) ? EXIT_CODE_BY_ERROR_CODE[error.code]! : EXIT_USAGE;
  return { exitCode, line: `${command}: ${messageOf(error)}\n` };
}
