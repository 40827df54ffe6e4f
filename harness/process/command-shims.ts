// Writes small launcher commands into a directory that is put first on a child's PATH: for each name a POSIX
// `#!/bin/sh` script and a Windows `.cmd` file (a print shim's .cmd types the text from files beside it). Arguments are embedded quoted for each shell, never pasted
// raw, so any argv survives (spaces, quotes, `&`, `%`, `$`, backslashes).
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { quoteForBatchFile } from '../../common/windows-command-line.js';

export type CommandShimSpec =
  | {
      kind: 'print';
      /** Printed to stdout (a final newline is added when missing). */
      stdout: string;
      /** Print only when the argv is exactly this; otherwise print `usage` on stderr and exit 2. */
      whenArgs?: string[];
      usage?: string;
    }
  | {
      kind: 'node';
      /** The script run as `node <script> <args...> <argv of the command...>`. */
      script: string;
      args?: string[];
      /** Node binary; defaults to the running one. */
      node?: string;
    };

export interface WrittenCommandShim {
  posix: string;
  windows: string;
}

/**
 * Writes `<dir>/<name>` (mode 755) and `<dir>/<name>.cmd`. Synchronously: every run writes a few of these small
 * files, and each asynchronous write is three round trips through libuv's thread pool (see createRunDirectories).
 */
export async function writeCommandShim(dir: string, name: string, spec: CommandShimSpec): Promise<WrittenCommandShim> {
  if (!/^[A-Za-z0-9._-]+$/.test(name))
    throw new Error(`command shim name ${JSON.stringify(name)} must be a plain file name`);
  mkdirSync(dir, { recursive: true });
  const posix = path.join(dir, name);
  const windows = path.join(dir, `${name}.cmd`);
  writeFileSync(posix, posixShimContent(spec), 'utf8');
  chmodSync(posix, 0o755);
  writeFileSync(windows, cmdShimContent(spec, name), 'utf8');
  if (spec.kind === 'print') {
    for (const [file, text] of Object.entries(printedTexts(spec)))
      writeFileSync(path.join(dir, `${name}.${file}`), text, 'utf8');
  }
  return { posix, windows };
}

// ---- POSIX sh ----

/** Single-quotes a word for sh: only `'` needs care inside single quotes. */
export function shQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function posixShimContent(spec: CommandShimSpec): string {
  if (spec.kind === 'node') {
    const words = [spec.node ?? process.execPath, spec.script, ...(spec.args ?? [])].map(shQuote).join(' ');
    return `#!/bin/sh\nexec ${words} "$@"\n`;
  }
  const text = spec.stdout.endsWith('\n') ? spec.stdout : `${spec.stdout}\n`;
  const print = `printf '%s' ${shQuote(text)}\n`;
  if (!spec.whenArgs) return `#!/bin/sh\n${print}exit 0\n`;
  const tests = [
    `[ "$#" -eq ${spec.whenArgs.length} ]`,
    ...spec.whenArgs.map((arg, i) => `[ "$${i + 1}" = ${shQuote(arg)} ]`),
  ];
  const usage = spec.usage ?? `unsupported arguments; expected: ${spec.whenArgs.join(' ')}`;
  return `#!/bin/sh\nif ${tests.join(' && ')}; then\n  ${print}  exit 0\nfi\nprintf '%s\\n' ${shQuote(usage)} >&2\nexit 2\n`;
}

// ---- Windows cmd ----

/**
 * What a print shim prints, by the file its .cmd types: `<name>.stdout.txt`, and `<name>.usage.txt` on stderr
 * for wrong arguments. Byte for byte what the POSIX script prints (a final newline added when missing).
 */
export function printedTexts(spec: Extract<CommandShimSpec, { kind: 'print' }>): Record<string, string> {
  const stdout = spec.stdout.endsWith('\n') ? spec.stdout : `${spec.stdout}\n`;
  if (!spec.whenArgs) return { 'stdout.txt': stdout };
  return {
    'stdout.txt': stdout,
    'usage.txt': `${spec.usage ?? `unsupported arguments; expected: ${spec.whenArgs.join(' ')}`}\n`,
  };
}

export function cmdShimContent(spec: CommandShimSpec, name: string): string {
  const lines = ['@echo off', 'setlocal DisableDelayedExpansion'];
  if (spec.kind === 'node') {
    // The program word keeps real quotes: cmd finds the executable by its own quoting rules, and a Windows
    // path cannot contain a quote. Only `%` needs doubling there.
    const program = `"${(spec.node ?? process.execPath).replace(/%/g, '%%')}"`;
    const words = [spec.script, ...(spec.args ?? [])].map(quoteForBatchFile).join(' ');
    lines.push(`${program} ${words} %*`, 'exit /b %ERRORLEVEL%');
    return `${lines.join('\r\n')}\r\n`;
  }
  // `type` prints a file's bytes as they are under every cmd.exe; `echo(` does not (Wine's cmd prints the
  // parenthesis), and echo ends lines with CRLF where the POSIX script prints LF. %~dp0 is this file's folder.
  if (spec.whenArgs) {
    // %~N strips the quotes cmd keeps around an argument; an extra argument makes the match fail.
    // Inside quotes cmd keeps carets literally, so the expected words are only %-doubled (quotes are refused).
    spec.whenArgs.forEach((arg, i) => {
      if (arg.includes('"'))
        throw new Error(`command shim argument ${JSON.stringify(arg)} cannot contain a double quote`);
      lines.push(`if not "%~${i + 1}"=="${arg.replace(/%/g, '%%')}" goto usage`);
    });
    lines.push(`if not "%~${spec.whenArgs.length + 1}"=="" goto usage`);
  }
  lines.push(`type "%~dp0${name}.stdout.txt"`, 'exit /b 0');
  if (spec.whenArgs) lines.push(':usage', `type "%~dp0${name}.usage.txt" 1>&2`, 'exit /b 2');
  return `${lines.join('\r\n')}\r\n`;
}
