// Windows command lines, quoted once for the harness and the reference shim alike (this folder is a leaf
// both may import). Windows hands a program one string, not an argv; two parsers take it apart:
//
//  1. cmd.exe, when the program is a batch file (`.cmd`/`.bat`). Node refuses to spawn those without a
//     shell (since 20.12.2, CVE-2024-27980), so callers start `cmd.exe /d /s /c "<line>"` themselves with
//     `windowsVerbatimArguments`. cmd.exe expands `%name%`, then reads `^` as "take the next character
//     literally" and `"` as the start or end of a quoted stretch, and treats `& | < > ( )` outside quotes as
//     command syntax. Every metacharacter, the quotes included, is caret-escaped here, so cmd.exe never
//     enters a quoted stretch and passes every character on. A batch launcher forwards its arguments with
//     `%*`, and cmd.exe parses that text once more, so arguments on a command line are escaped twice.
//  2. The program finally started, which splits its command line by the Microsoft C runtime rules (the
//     same as CommandLineToArgvW): each argument is wrapped in double quotes, an embedded quote becomes \"
//     and the backslashes in front of a quote (or of the closing quote) are doubled.
//     https://learn.microsoft.com/en-us/cpp/c-language/parsing-c-command-line-arguments
//
// What cmd.exe cannot carry is refused with UnquotableArgumentError rather than guessed at:
//  - a line break (cmd.exe ends the command there) or a NUL character (it ends the string);
//  - on a command line, `%`: cmd.exe has no escape for it there. A caret only works by spoiling the
//    variable name, so whether `%x%` arrives intact depends on which variables happen to be set.
//    (Inside a batch file `%%` is a literal `%`, so quoteForBatchFile() carries it.)
import { YumeError } from './errors.js';

/** Thrown for an argument that cmd.exe cannot pass on unchanged. `code` is UNQUOTABLE_ARGUMENT. */
export class UnquotableArgumentError extends YumeError {
  override name = 'UnquotableArgumentError';
  constructor(
    message: string,
    /** The argument refused. */
    readonly argument: string,
  ) {
    super('UNQUOTABLE_ARGUMENT', message);
  }
}

/** Characters cmd.exe gives a meaning to (or splits arguments on); each is caret-escaped. `%` is handled apart. */
const CMD_METACHARACTERS = /[()[\]!^"`<>&|;,= *?]/g;
const LINE_ENDERS: ReadonlyArray<[RegExp, string]> = [
  [/\r|\n/, 'a line break (cmd.exe ends the command there)'],
  [/\0/, 'a NUL character (it ends the command line)'],
];
const COMMAND_LINE_UNCARRIED: ReadonlyArray<[RegExp, string]> = [
  ...LINE_ENDERS,
  [/%/, 'a "%" (cmd.exe has no escape for it on a command line)'],
];

/** Why cmd.exe cannot carry `argument` on a command line, or undefined when it can. */
export function whyCmdCannotCarry(argument: string): string | undefined {
  return COMMAND_LINE_UNCARRIED.find(([pattern]) => pattern.test(argument))?.[1];
}

/** True when cmd.exe can pass `argument` on a command line unchanged (see whyCmdCannotCarry). */
export function cmdCanCarry(argument: string): boolean {
  return whyCmdCannotCarry(argument) === undefined;
}

/** Quotes one argument by the C runtime / CommandLineToArgvW rules (what the started program undoes). */
export function quoteWindowsArgument(argument: string): string {
  let quoted = '"';
  let backslashes = 0;
  for (const character of argument) {
    if (character === '\\') {
      backslashes += 1;
      continue;
    }
    // Backslashes count only in front of a quote: there they are doubled, and the quote gets one more.
    if (character === '"') quoted += `${'\\'.repeat(backslashes * 2 + 1)}"`;
    else quoted += '\\'.repeat(backslashes) + character;
    backslashes = 0;
  }
  // Backslashes before the closing quote would escape it: double them.
  return `${quoted}${'\\'.repeat(backslashes * 2)}"`;
}

/** Caret-escapes every cmd.exe metacharacter, once per cmd.exe parse the text goes through. */
export function escapeCmdMetacharacters(text: string, passes: number): string {
  let escaped = text;
  for (let pass = 0; pass < passes; pass += 1) escaped = escaped.replace(CMD_METACHARACTERS, '^$&');
  return escaped;
}

export interface CmdInvocation {
  file: string;
  args: string[];
  /** Node must pass `args` as written: they are already quoted for cmd.exe. */
  windowsVerbatimArguments: true;
}

/**
 * The cmd.exe invocation that runs `batchFile` with `args`; `comspec` is the environment's ComSpec
 * (cmd.exe's full path) when known. Throws UnquotableArgumentError for an argument cmd.exe cannot carry.
 */
export function cmdInvocation(batchFile: string, args: readonly string[], comspec?: string): CmdInvocation {
  for (const argument of args) {
    const reason = whyCmdCannotCarry(argument);
    if (reason) {
      throw new UnquotableArgumentError(
        `cannot pass the argument ${JSON.stringify(argument)} to the batch file ${batchFile}: it contains ${reason}. ` +
          'Start a .exe or .js file instead of a .cmd/.bat wrapper, or pass the text another way (stdin, a file).',
        argument,
      );
    }
  }
  // The batch file's own path in plain quotes, the form cmd.exe documents for a command with spaces
  // (Windows paths cannot contain a double quote, and inside quotes & ( ) ^ are literal).
  const line = [
    `"${batchFile}"`,
    ...args.map((argument) => escapeCmdMetacharacters(quoteWindowsArgument(argument), 2)),
  ];
  // /d: no AutoRun commands from the registry; /s /c "...": strip exactly the outer quotes and run the rest.
  return {
    file: comspec ?? 'cmd.exe',
    args: ['/d', '/s', '/c', `"${line.join(' ')}"`],
    windowsVerbatimArguments: true,
  };
}

/**
 * Quotes one argument for a command line written inside a batch file (run with delayed expansion off):
 * quoted for the C runtime, caret-escaped once for cmd.exe, and `%` doubled, because a caret does not stop
 * variable expansion in a batch file but `%%` is a literal `%` there.
 */
export function quoteForBatchFile(argument: string): string {
  const reason = LINE_ENDERS.find(([pattern]) => pattern.test(argument))?.[1];
  if (reason) {
    throw new UnquotableArgumentError(
      `cannot write the argument ${JSON.stringify(argument)} into a batch file: it contains ${reason}`,
      argument,
    );
  }
  return escapeCmdMetacharacters(quoteWindowsArgument(argument), 1).replace(/%/g, '%%');
}
