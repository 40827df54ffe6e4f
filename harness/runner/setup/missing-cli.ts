// The `"cli": "missing"` scenarios (R5, "binary or CLI missing"): the shim must find no official CLI at all.
// The runner installs no fake one, and leaves out of the shim's PATH every parent folder that holds a real
// `gemini`, `codex`, `claude` or `copilot` (a developer machine often has them). What is left is checked again on the
// final environment, so a PATH that --env or the scenario put back makes the run "not verified", never a pass.
import { statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { OFFICIAL_CLI_NAMES } from '../../official-cli/script-types.js';
import type { PlatformName } from '../../process/platform.js';

const pathApiFor = (platform: PlatformName) => (platform === 'win32' ? path.win32 : path.posix);

/** The PATH variable's name as spelt in `env` (Windows names are case-insensitive). */
function pathKeyOf(env: NodeJS.ProcessEnv | Record<string, string>, platform: PlatformName): string | undefined {
  if (platform !== 'win32') return env.PATH === undefined ? undefined : 'PATH';
  return Object.keys(env).find((key) => key.toUpperCase() === 'PATH');
}

/** File names under which a shell, Node's spawn or cross-spawn would find `name` in a folder. */
function candidateNames(
  name: string,
  platform: PlatformName,
  env: NodeJS.ProcessEnv | Record<string, string>,
): string[] {
  if (platform !== 'win32') return [name];
  const pathextKey = Object.keys(env).find((key) => key.toUpperCase() === 'PATHEXT');
  const extensions = (pathextKey ? (env[pathextKey] ?? '') : '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  // .ps1 too: PowerShell finds npm's gemini.ps1 launchers. Erring on the side of "present" is safe here.
  return [name, ...extensions.map((extension) => `${name}${extension.toLowerCase()}`), `${name}.ps1`];
}

/** Anything that is not a folder counts, executable bit or not: this must never under-report. */
function present(file: string): boolean {
  try {
    return !statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** Where a program is looked up: the platform's rules, the environment (PATHEXT), the folder a relative entry means. */
interface Lookup {
  platform: PlatformName;
  env: NodeJS.ProcessEnv | Record<string, string>;
  cwd: string;
}

/** The files in `folder` (relative folders resolve against `cwd`, as for the shim) that would run one of `names`. */
function programsIn(folder: string, names: readonly string[], lookup: Lookup): string[] {
  const { platform, env, cwd } = lookup;
  const api = pathApiFor(platform);
  const absolute = api.resolve(cwd, folder === '' ? '.' : folder);
  return names
    .flatMap((name) => candidateNames(name, platform, env).map((file) => api.join(absolute, file)))
    .filter(present);
}

function pathEntries(env: NodeJS.ProcessEnv | Record<string, string>, platform: PlatformName): string[] {
  const key = pathKeyOf(env, platform);
  const value = key ? env[key] : undefined;
  return value === undefined ? [] : value.split(pathApiFor(platform).delimiter);
}

export interface HiddenClis {
  /** The parent environment with those PATH folders left out (give it to buildEnvironment as `parent`). */
  parent: NodeJS.ProcessEnv;
  /** The folders left out. */
  dropped: string[];
}

/** Leaves out of the parent's PATH every folder that holds one of `names` (default: the official CLIs). */
export function hideProgramsFromPath(
  parent: NodeJS.ProcessEnv,
  platform: PlatformName,
  cwd: string,
  names: readonly string[] = OFFICIAL_CLI_NAMES,
): HiddenClis {
  const key = pathKeyOf(parent, platform);
  if (!key) return { parent, dropped: [] };
  const dropped: string[] = [];
  const kept = pathEntries(parent, platform).filter((folder) => {
    // POSIX reads an empty entry as the current folder; Windows ignores it.
    if (folder === '' && platform === 'win32') return true;
    if (programsIn(folder, names, { platform, env: parent, cwd }).length === 0) return true;
    dropped.push(folder);
    return false;
  });
  return { parent: { ...parent, [key]: kept.join(pathApiFor(platform).delimiter) }, dropped };
}

/** Every file on `env`'s PATH that would run one of `names` (empty: none can be found). */
export function programsOnPath(
  env: Record<string, string>,
  platform: PlatformName,
  cwd: string,
  names: readonly string[] = OFFICIAL_CLI_NAMES,
): string[] {
  return pathEntries(env, platform)
    .filter((folder) => folder !== '' || platform !== 'win32')
    .flatMap((folder) => programsIn(folder, names, { platform, env, cwd }));
}

/** The Node that runs the shim, the run's bin folder (first on the shim's PATH), and how PATH entries resolve. */
export interface NodeLink {
  nodePath: string;
  binDir: string;
  platform: PlatformName;
  /** The folder a relative PATH entry means (the shim's cwd). */
  cwd: string;
}

/**
 * When a dropped folder also held the Node that runs the shim (npm installs the CLIs next to node), puts a
 * `node` into `binDir` so a `#!/usr/bin/env node` shim still starts. Returns whether it did.
 */
export function keepNodeReachable(dropped: readonly string[], link: NodeLink): boolean {
  const { nodePath, binDir, platform, cwd } = link;
  const api = pathApiFor(platform);
  const nodeFolder = api.dirname(nodePath);
  if (!dropped.some((folder) => api.resolve(cwd, folder || '.') === nodeFolder)) return false;
  if (platform === 'win32') {
    writeFileSync(api.join(binDir, 'node.cmd'), `@"${nodePath.replace(/%/g, '%%')}" %*\r\n`);
  } else {
    symlinkSync(nodePath, api.join(binDir, 'node'));
  }
  return true;
}
