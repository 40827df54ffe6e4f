// The PATH wrapper that stands in front of a real official CLI in the real-CLI mode: it logs the start
// (argv, cwd, pid and the turn, in the fake CLIs' log format) through the bundled fake CLI's logger, then
// `exec`s the real CLI with its offline environment, so the CLI keeps the wrapper's pid and gets every
// signal the shim sends. For codex the logger also reads stdin to EOF first (real/stdin-probe.ts). What
// happens inside the real CLI is judged from the mock's requests instead (real/observed-checks.ts).
// POSIX only: a .cmd wrapper could not keep the pid, so the real-CLI mode is not offered on Windows.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { shQuote } from '../../process/command-shims.js';
import { LOG_ARGUMENT, LOG_START_ARGUMENT, STATE_ARGUMENT } from '../launcher-arguments.js';
import type { OfficialCliName } from '../script-types.js';

export interface RealCliWrapperOptions {
  /** The real CLI's executable. */
  executable: string;
  /** Variables the CLI runs with on top of what the shim passes (its HOME, config, keys). */
  env: Record<string, string>;
  /** dist/fake-cli.js, whose logger records the start. */
  loggerScript: string;
  node?: string;
  stateFile: string;
  logFile: string;
}

export function realCliWrapperContent(cli: OfficialCliName, options: RealCliWrapperOptions): string {
  const logger = [
    options.node ?? process.execPath,
    options.loggerScript,
    `${LOG_START_ARGUMENT}${cli}`,
    `${STATE_ARGUMENT}${options.stateFile}`,
    `${LOG_ARGUMENT}${options.logFile}`,
  ]
    .map(shQuote)
    .join(' ');
  const assignments = Object.entries(options.env)
    .map(([name, value]) => shQuote(`${name}=${value}`))
    .join(' ');
  const run = `exec env ${assignments} ${shQuote(options.executable)} "$@"`;
  // The logger prints a file when it read stdin to EOF (codex): the CLI gets those bytes from it.
  return `#!/bin/sh\nstdin_file=$(${logger} "$@") || exit 70\nif [ -n "$stdin_file" ]; then ${run} <"$stdin_file"; fi\n${run}\n`;
}

export async function writeRealCliWrapper(
  binDir: string,
  cli: OfficialCliName,
  options: RealCliWrapperOptions,
): Promise<string> {
  await mkdir(binDir, { recursive: true });
  const file = path.join(binDir, cli);
  await writeFile(file, realCliWrapperContent(cli, options), 'utf8');
  await chmod(file, 0o755);
  return file;
}
