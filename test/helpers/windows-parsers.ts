// Reference models of the two Windows parsers a quoted command line goes through, written from their
// documentation so the quoting code can be checked on any OS by quoting, parsing back and comparing:
//  - the C runtime / CommandLineToArgvW argument splitting
//    (https://learn.microsoft.com/en-us/cpp/c-language/parsing-c-command-line-arguments), with the
//    behaviour of runtimes since 2008: inside a quoted stretch, `""` is one literal quote;
//  - cmd.exe's reading of a line: percent expansion, then carets and quoted stretches
//    (https://learn.microsoft.com/en-us/windows-server/administration/windows-commands/cmd), with
//    delayed expansion off. Anything the model does not cover throws, so a test never passes by accident.

/** A line the cmd.exe model refuses: it would not reach the program as written, or the model cannot say. */
export class CmdModelError extends Error {
  override name = 'CmdModelError';
}

/** Splits the arguments part of a command line (after the program name) as the C runtime does. */
export function parseWindowsArguments(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let inArgument = false;
  let inQuotes = false;
  let index = 0;
  while (index < line.length) {
    const character = line[index]!;
    if (character === '\\') {
      let backslashes = 0;
      while (line[index] === '\\') {
        backslashes += 1;
        index += 1;
      }
      inArgument = true;
      if (line[index] === '"') {
        // 2n backslashes + quote: n backslashes, and the quote delimits; 2n+1: n backslashes and a literal quote.
        current += '\\'.repeat(Math.floor(backslashes / 2));
        if (backslashes % 2 === 1) {
          current += '"';
          index += 1;
        }
      } else {
        current += '\\'.repeat(backslashes); // backslashes not before a quote are literal
      }
      continue;
    }
    if (character === '"') {
      inArgument = true;
      if (inQuotes && line[index + 1] === '"') {
        current += '"'; // since 2008: `""` inside quotes is a literal quote, and the quoted stretch goes on
        index += 2;
        continue;
      }
      inQuotes = !inQuotes;
      index += 1;
      continue;
    }
    if ((character === ' ' || character === '\t') && !inQuotes) {
      if (inArgument) args.push(current);
      current = '';
      inArgument = false;
      index += 1;
      continue;
    }
    current += character;
    inArgument = true;
    index += 1;
  }
  if (inArgument) args.push(current);
  return args;
}

export interface CmdLineOptions {
  /** `command-line`: what `cmd /c` runs; `batch-file`: one line of a .cmd/.bat file. */
  context: 'command-line' | 'batch-file';
  /** What `%*` expands to in a batch file (the arguments the batch file was started with). */
  batchArguments?: string;
}

/** cmd.exe's first pass: percent expansion. Only what a batch file needs is modelled: `%%` and `%*`. */
function expandPercents(line: string, options: CmdLineOptions): string {
  if (!line.includes('%')) return line;
  if (options.context === 'command-line') {
    throw new CmdModelError(`"%" on a command line: what it expands to depends on the environment (${line})`);
  }
  return line.replace(/%(.?)/g, (whole, next: string) => {
    if (next === '%') return '%';
    if (next === '*') return options.batchArguments ?? '';
    throw new CmdModelError(`"${whole}" in a batch file line is a variable reference, not literal text`);
  });
}

/** cmd.exe's second pass: a caret takes the next character literally; quotes open and close a stretch. */
function removeCarets(line: string): string {
  let out = '';
  let inQuotes = false;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index]!;
    if (character === '"') {
      inQuotes = !inQuotes;
      out += character;
    } else if (inQuotes) {
      out += character; // inside quotes carets and metacharacters are plain text
    } else if (character === '^') {
      if (index + 1 >= line.length) throw new CmdModelError(`a caret ends the line (line continuation): ${line}`);
      index += 1;
      out += line[index];
    } else if ('&|<>()'.includes(character)) {
      throw new CmdModelError(`an unescaped "${character}" outside quotes is command syntax: ${line}`);
    } else {
      out += character;
    }
  }
  return out;
}

/** What cmd.exe hands on after reading `line` (percents, then carets and quotes). */
export function cmdReadLine(line: string, options: CmdLineOptions): string {
  if (/[\r\n\0]/.test(line)) throw new CmdModelError('a line break or NUL ends the command');
  return removeCarets(expandPercents(line, options));
}

/**
 * The argv a program receives when `cmd.exe <cmdArgs>` (from cmdInvocation) starts `batchFile`, whose line
 * forwards its arguments to that program with `%*` (as npm's and our launchers do).
 */
export function argvThroughBatchLauncher(cmdArgs: readonly string[], batchFile: string): string[] {
  const [d, s, c, quotedLine, ...rest] = cmdArgs;
  if (d !== '/d' || s !== '/s' || c !== '/c' || quotedLine === undefined || rest.length > 0) {
    throw new CmdModelError(`not a cmd.exe /d /s /c "<line>" invocation: ${JSON.stringify(cmdArgs)}`);
  }
  // /s: the first and the last quote of the line are removed, and the rest is run as written.
  if (!quotedLine.startsWith('"') || !quotedLine.endsWith('"')) throw new CmdModelError('/s /c line not in quotes');
  const read = cmdReadLine(quotedLine.slice(1, -1), { context: 'command-line' });
  const command = `"${batchFile}"`;
  if (!read.startsWith(command)) throw new CmdModelError(`the line does not start with ${command}: ${read}`);
  const batchArguments = read.slice(command.length).replace(/^[ \t]+/, '');
  // The launcher's line `"program" %*`: %* is replaced by the arguments, and the result is read again.
  const launched = cmdReadLine('"program" %*', { context: 'batch-file', batchArguments });
  return parseWindowsArguments(launched.slice('"program"'.length));
}
