// How a shim given by the user is started: the file and argv actually handed to execa.

import { cmdInvocation } from '../../common/windows-command-line.js';
import { type PlatformName, pathFor } from './platform.js';

export interface SpawnCommand {
  /** The program execa starts. */
  file: string;
  /** Its arguments, already including the shim's own argv. */
  args: string[];
  /** Set for cmd.exe invocations whose line is quoted by common/windows-command-line.ts. */
  windowsVerbatimArguments?: boolean;
  /** How the shim is run, for messages: 'node', 'batch', 'direct'. */
  kind: 'node' | 'batch' | 'direct';
}

export interface SpawnCommandOptions {
  platform: PlatformName;
  /** The Node binary for .js/.mjs/.cjs shims (the current one, so `npx yume-conformance` needs no other). */
  execPath: string;
  /** cmd.exe's path on Windows (the environment's ComSpec). */
  comspec?: string;
}

const NODE_SCRIPT = new Set(['.js', '.mjs', '.cjs']);
const BATCH_FILE = new Set(['.cmd', '.bat']);

/** The command that starts `shim` with `shimArgs` on `platform`. */
export function shimSpawnCommand(
  shim: string,
  shimArgs: readonly string[],
  options: SpawnCommandOptions,
): SpawnCommand {
  const extension = pathFor(options.platform).extname(shim).toLowerCase();
  if (NODE_SCRIPT.has(extension)) {
    // A script runs with the current Node: no shebang, execute bit or file association needed.
    return { file: options.execPath, args: [shim, ...shimArgs], kind: 'node' };
  }
  if (options.platform === 'win32' && BATCH_FILE.has(extension)) {
    const invocation = cmdInvocation(shim, shimArgs, options.comspec);
    return { ...invocation, kind: 'batch' };
  }
  // .exe, or a POSIX executable (shebang scripts included); execa's cross-spawn still resolves PATHEXT
  // for a bare name on Windows.
  return { file: shim, args: [...shimArgs], kind: 'direct' };
}
