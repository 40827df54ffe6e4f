// Starting a Windows `.cmd` launcher: Node refuses to spawn batch files without a shell (CVE-2024-27980),
// so the line is built here for `cmd.exe /d /s /c "..."` with windowsVerbatimArguments. Each argument is
// quoted by the MSVC rules (what the program finally started parses) and cmd.exe's metacharacters are
// caret-escaped twice: once for the line cmd.exe reads, once more because the launcher forwards `%*` and
// cmd.exe parses the arguments again.
// Deliberate copy of harness/process/windows-command-line.ts: the shim may not import harness/ code.

function quoteMsvc(argument: string): string {
  let quoted = '"';
  let backslashes = 0;
  for (const character of argument) {
    if (character === '\\') {
      backslashes += 1;
      continue;
    }
    if (character === '"') quoted += `${'\\'.repeat(backslashes * 2 + 1)}"`;
    else quoted += '\\'.repeat(backslashes) + character;
    backslashes = 0;
  }
  return `${quoted + '\\'.repeat(backslashes * 2)}"`;
}

function escapeForCmd(text: string): string {
  let escaped = text;
  for (let pass = 0; pass < 2; pass += 1) escaped = escaped.replace(/([()\][%!^"`<>&|;, *?])/g, '^$1');
  return escaped;
}

/** True when cmd.exe can carry the argument at all (it ends a command at a line break). */
export function cmdCanCarry(argument: string): boolean {
  return !/[\r\n]/.test(argument);
}

export function cmdInvocation(
  batchFile: string,
  args: readonly string[],
  comspec: string | undefined,
): { file: string; args: string[] } {
  const line = [`"${batchFile}"`, ...args.map((argument) => escapeForCmd(quoteMsvc(argument)))].join(' ');
  return { file: comspec ?? 'cmd.exe', args: ['/d', '/s', '/c', `"${line}"`] };
}
