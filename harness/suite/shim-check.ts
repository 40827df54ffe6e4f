// Whether a shim given as a path can be started at all, checked before the suite runs so that a missing
// file, a directory, a file without execute permission or a script whose #! interpreter is missing gets one
// clear line and exit 2 (rather than a "could not start" finding on every run).
import { accessSync, closeSync, constants, existsSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import type { PlatformName } from '../process/platform.js';

/** Files the runner starts with Node itself (no execute permission or #! line needed). */
const NODE_SCRIPT = /\.(?:js|mjs|cjs)$/i;

function firstLine(file: string): string {
  const buffer = Buffer.alloc(256);
  const descriptor = openSync(file, 'r');
  try {
    const read = readSync(descriptor, buffer, 0, buffer.length, 0);
    return buffer.toString('utf8', 0, read).split('\n')[0] ?? '';
  } finally {
    closeSync(descriptor);
  }
}

function onPath(name: string, pathValue: string | undefined): boolean {
  return (pathValue ?? '').split(path.delimiter).some((dir) => {
    if (!dir) return false;
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return statSync(path.join(dir, name)).isFile();
    } catch {
      return false;
    }
  });
}

/** Why the shim at `file` cannot be started, or undefined. `shown` is how the user wrote it. */
export function shimStartProblem(
  file: string,
  shown: string,
  platform: PlatformName,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (!existsSync(file)) return `shim ${shown} does not exist`;
  const stats = statSync(file);
  if (stats.isDirectory()) return `shim ${shown} is a directory: give the shim's executable file inside it`;
  if (platform === 'win32' || NODE_SCRIPT.test(file)) return undefined;
  try {
    accessSync(file, constants.X_OK);
  } catch {
    return `shim ${shown} is not executable: chmod +x ${shown}, or give a .js file`;
  }
  let line: string;
  try {
    line = firstLine(file);
  } catch (error) {
    return `shim ${shown} cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`;
  }
  if (!line.startsWith('#!')) return undefined;
  const words = line.slice(2).trim().split(/\s+/);
  const interpreter = words[0] ?? '';
  if (interpreter === '') return `shim ${shown}: its #! line names no interpreter`;
  if (path.basename(interpreter) === 'env') {
    const program = words.slice(1).find((word) => !word.startsWith('-') && !word.includes('='));
    if (program && !onPath(program, env.PATH))
      return `shim ${shown}: its interpreter "${program}" (from the #! line "${line}") is not on PATH`;
    return undefined;
  }
  try {
    accessSync(interpreter, constants.X_OK);
  } catch {
    return `shim ${shown}: its interpreter ${interpreter} (from the #! line) is missing or not executable`;
  }
  return undefined;
}

/** Programs the runner itself puts first on a run's PATH (auth helpers, official CLIs): found there, not here. */
const RUN_BIN_PROGRAMS = new Set(['gcloud', 'gh', 'gemini', 'codex', 'claude', 'copilot']);

/** Whether a file of that name in `dir` can be started on `platform` (Windows: PATHEXT, no execute bit). */
function startableIn(dir: string, name: string, platform: PlatformName, env: NodeJS.ProcessEnv): boolean {
  const api = platform === 'win32' ? path.win32 : path.posix;
  const extensions =
    platform === 'win32' ? ['', ...(env.PATHEXT ?? env.Pathext ?? '.COM;.EXE;.BAT;.CMD').split(';')] : [''];
  return extensions.some((extension) => {
    const file = api.join(dir, `${name}${extension}`);
    try {
      if (!statSync(file).isFile()) return false;
      if (platform !== 'win32') accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Why a shim given as a bare command name cannot be started, or undefined: it is on no folder of the PATH the
 * shim's environment has (`env`: the runner's, with --env on top). The sentence is the one a failed start gives
 * (process/start-failure.ts), so the message is the same whichever finds it first.
 */
export function commandStartProblem(
  name: string,
  platform: PlatformName,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (RUN_BIN_PROGRAMS.has(name.toLowerCase())) return undefined;
  const key = platform === 'win32' ? Object.keys(env).find((candidate) => candidate.toUpperCase() === 'PATH') : 'PATH';
  const folders = (key ? (env[key] ?? '') : '').split(platform === 'win32' ? ';' : ':').filter(Boolean);
  if (folders.some((dir) => startableIn(dir, name, platform, env))) return undefined;
  return `${name}: no such file or command (check the path, or that it is on PATH)`;
}
