// Where a real copilot finds its runtime. Its native binary unpacks about 235 MB on its first run, into
// COPILOT_PKG_CACHE_HOME when that is set: a run that set nothing would unpack a copy into its own fresh HOME, and
// runs started together would race on one. So every run of a real copilot points the variable at one unpacked
// copy: the one scripts/real-programs.mjs made beside the install (`<install>/pkg-cache`), else one this module
// makes once per process in the folder it is given (unpacked into a temporary sibling, then renamed).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBounded } from './run-bounded.js';

const UNPACKED = 'pkg-cache';
const pending = new Map<string, Promise<string>>();

/** The install folder of an npm-installed executable: the folder that holds its `node_modules`. */
function installFolder(executable: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(executable);
  } catch {
    return undefined;
  }
  const marker = `${path.sep}node_modules${path.sep}`;
  const at = real.lastIndexOf(marker);
  if (at < 0) return undefined;
  // The outermost node_modules: a package's own dependencies sit in nested ones.
  return real.slice(0, real.indexOf(marker));
}

async function unpack(executable: string, target: string): Promise<string> {
  const partial = `${target}.partial-${process.pid}`;
  const home = mkdtempSync(path.join(os.tmpdir(), 'yume-copilot-unpack-'));
  try {
    rmSync(partial, { recursive: true, force: true });
    const run = await runBounded(executable, ['--version'], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home, COPILOT_PKG_CACHE_HOME: partial, COPILOT_AUTO_UPDATE: 'false' },
      timeoutMs: 300_000,
    });
    if (run.exitCode !== 0)
      throw new Error(`${executable} --version failed while unpacking its runtime: ${run.stderr.slice(-300)}`);
    // A copilot that unpacks nothing up front (a build that unpacks later, or a stand-in) gets an empty folder.
    mkdirSync(partial, { recursive: true });
    mkdirSync(path.dirname(target), { recursive: true });
    try {
      renameSync(partial, target);
    } catch (error) {
      // Another process finished first: its copy is as good.
      if (!existsSync(target)) throw error;
    }
    return target;
  } finally {
    rmSync(partial, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * The COPILOT_PKG_CACHE_HOME for runs of `executable`: the unpacked copy beside its install, else one unpacked once
 * under `cacheDir` (shared by the suite's runs; concurrent callers wait for the same unpack). With `beside`, an
 * install of the caller's own (the drift check's candidate) gets its copy beside it, where later runs find it.
 */
export function copilotRuntimeCache(
  executable: string,
  cacheDir: string,
  options: { beside?: boolean } = {},
): Promise<string> {
  const install = installFolder(executable);
  if (install && existsSync(path.join(install, UNPACKED, 'pkg'))) return Promise.resolve(path.join(install, UNPACKED));
  const key = createHash('sha256')
    .update(install ?? executable)
    .digest('hex')
    .slice(0, 16);
  const target = options.beside && install ? path.join(install, UNPACKED) : path.join(cacheDir, 'copilot-runtime', key);
  if (existsSync(target)) return Promise.resolve(target);
  let unpacking = pending.get(target);
  if (!unpacking) {
    unpacking = unpack(executable, target);
    pending.set(target, unpacking);
  }
  return unpacking;
}
