// Building a cmd.exe command line for a `.cmd`/`.bat` shim. Node refuses to spawn batch files without a
// shell (since 20.12.2 / CVE-2024-27980), so the runner starts `cmd.exe /d /s /c "<line>"` itself with
// `windowsVerbatimArguments`, and quotes every argument here, where it can be unit tested on any OS.
//
// Two layers of parsing happen on Windows:
//  1. cmd.exe reads the line and interprets its metacharacters (& | < > ^ % ! ( ) " ...): each one is
//     escaped with a caret.
//  2. The program finally started parses its command line with the MSVC rules (quotes and backslashes):
//     each argument is wrapped in double quotes, embedded quotes become \" and the backslashes in front of
//     a quote (or of the closing quote) are doubled.
// A batch shim normally forwards `%*` to another program, which makes cmd.exe parse the arguments a second
// time, so the metacharacters of arguments are escaped twice (a caret that survives the first pass escapes
// the character in the second).
// Deliberate copy: reference-shim/providers/cli/windows-command.ts does the same, since the shim may not import harness/.

const CMD_METACHARACTERS = /([()\][%!^"`<>&|;, *?])/g;

/** Quotes one argument by the MSVC command-line rules (what CommandLineToArgvW and the C runtime undo). */
export function quoteMsvcArgument(argument: string): string {
  let quoted = '"';
  let backslashes = 0;
  for (const character of argument) {
    if (character === '\\') {
      backslashes += 1;
      continue;
    }
    if (character === '"') {
      // The backslashes before a quote are doubled, and the quote itself is escaped.
      quoted += `${'\\'.repeat(backslashes * 2 + 1)}"`;
    } else {
      quoted += '\\'.repeat(backslashes) + character;
    }
    backslashes = 0;
  }
  // Backslashes before the closing quote would escape it: double them.
  return `${quoted + '\\'.repeat(backslashes * 2)}"`;
}

/** Escapes the characters cmd.exe interprets, `times` times (once per cmd.exe parse the text goes through). */
export function escapeCmdMetacharacters(text: string, times: number): string {
  let escaped = text;
  for (let pass = 0; pass < times; pass += 1) escaped = escaped.replace(CMD_METACHARACTERS, '^$1');
  return escaped;
}

export interface CmdInvocation {
  file: string;
  args: string[];
  windowsVerbatimArguments: true;
}

/** Thrown for an argument cmd.exe cannot carry (it ends the command at a line break). */
export class UnquotableArgumentError extends Error {}

/**
 * The cmd.exe invocation that runs `batchFile` with `args`. `comspec` is the environment's ComSpec
 * (cmd.exe's full path) when known.
 */
export function cmdInvocation(batchFile: string, args: readonly string[], comspec?: string): CmdInvocation {
  for (const argument of args) {
    if (/[\r\n]/.test(argument)) {
      throw new UnquotableArgumentError(
        `cannot pass an argument containing a line break to the batch file ${batchFile}: cmd.exe ends the ` +
          'command there. Give the shim as a .exe or .js file instead of a .cmd/.bat wrapper.',
      );
    }
  }
  // The batch file's own path in plain quotes, the form cmd.exe documents for a command with spaces
  // (Windows paths cannot contain a double quote, and inside quotes & ( ) ^ are literal).
  const command = `"${batchFile}"`;
  const quotedArgs = args.map((argument) => escapeCmdMetacharacters(quoteMsvcArgument(argument), 2));
  const line = [command, ...quotedArgs].join(' ');
  // /d: no AutoRun commands from the registry; /s /c "...": strip exactly the outer quotes and run the rest.
  return { file: comspec ?? 'cmd.exe', args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true };
}
