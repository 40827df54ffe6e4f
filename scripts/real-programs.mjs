// Installs the real programs that `npm run test:real` drives (the official CLIs, pinned) into a cache folder
// outside the checkout, once per version, and tells where each one's executable is.
//
//   node scripts/real-programs.mjs install [name ...]   install the pinned versions (all when no name)
//   node scripts/real-programs.mjs path NAME             print the executable's path (installs when missing)
//
// The cache folder is $YUME_REAL_PROGRAMS_DIR, else ~/.cache/yume-conformance/real-programs. Each program is
// installed with `npm install --prefix <cache>/<package>@<version>`, so versions never mix and a second run
// costs nothing. npm skips install scripts here; every pinned package runs without them (claude's package
// ships its native binary as the bin itself).
//
// A pin with `unpack` names the variable through which its program finds the runtime it unpacks on its first
// run (copilot's native binary unpacks about 235 MB into COPILOT_PKG_CACHE_HOME). That happens here, once, into
// `<install folder>/pkg-cache` (unpacked into a temporary sibling and renamed, so a half-unpacked cache is never
// seen); every run then points the variable there (realProgramEnv()), so no run unpacks a copy of its own and
// parallel runs never race on one.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The pinned versions: one per program, shared by every test that runs it. */
export const REAL_PROGRAM_PINS = JSON.parse(readFileSync(path.join(root, 'test/real-programs.json'), 'utf8')).programs;

export function realProgramsDir() {
  return process.env.YUME_REAL_PROGRAMS_DIR ?? path.join(homedir(), '.cache', 'yume-conformance', 'real-programs');
}

/** @param {string} name */
function pinOf(name) {
  const pin = REAL_PROGRAM_PINS[name];
  if (!pin) {
    const known = Object.keys(REAL_PROGRAM_PINS).join(', ');
    throw new Error(`unknown real program "${name}"; known: ${known} (test/real-programs.json)`);
  }
  return pin;
}

/**
 * @param {{ package: string, version: string }} pin
 * @param {string} [version]
 */
function installFolder(pin, version = pin.version) {
  return path.join(realProgramsDir(), `${pin.package.replace('/', '+')}@${version}`);
}

/** The folder a program's unpacked runtime goes in, beside its installed package. */
const UNPACKED = 'pkg-cache';

/**
 * Runs the program once (`--version`) with its unpack variable pointing at a temporary folder, then renames
 * that folder into place; a concurrent unpack that finished first wins, and this one's copy is removed.
 * @param {{ unpack: string }} pin
 * @param {string} bin
 * @param {string} folder
 * @param {(line: string) => void} log
 */
function unpackRuntime(pin, bin, folder, log) {
  const target = path.join(folder, UNPACKED);
  if (existsSync(target)) return;
  log(`unpacking ${path.basename(bin)}'s runtime into ${target} ...`);
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  execFileSync(bin, ['--version'], {
    env: { ...process.env, [pin.unpack]: partial },
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 300_000,
  });
  try {
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(target)) throw error;
  }
}

/**
 * The environment a run of the program needs besides its path: the variable that points it at its runtime
 * unpacked once by ensureRealProgram() (none for most programs).
 * @param {string} name
 * @param {{ version?: string }} [options]
 * @returns {Record<string, string>}
 */
export function realProgramEnv(name, { version } = {}) {
  const pin = pinOf(name);
  return pin.unpack ? { [pin.unpack]: path.join(installFolder(pin, version), UNPACKED) } : {};
}

/**
 * Installs one program (pinned version unless `version` is given), unpacks its runtime when its pin says it
 * has one; returns the executable's absolute path.
 * @param {string} name
 * @param {{ version?: string, log?: (line: string) => void }} [options]
 */
export function ensureRealProgram(name, { version, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const pin = pinOf(name);
  const folder = installFolder(pin, version);
  const bin = path.join(folder, 'node_modules', '.bin', process.platform === 'win32' ? `${pin.bin}.cmd` : pin.bin);
  const spec = `${pin.package}@${version ?? pin.version}`;
  if (!existsSync(bin)) installNpmPackage(spec, folder, { log });
  if (!existsSync(bin)) throw new Error(`${spec} installed, but it has no ${pin.bin} executable in ${folder}`);
  if (pin.unpack) unpackRuntime(pin, bin, folder, log);
  return bin;
}

/**
 * `npm install --prefix folder spec`, into a temporary sibling renamed once complete, so an interrupted install
 * never looks complete. `npmArgs`: more flags (`--force` installs a package made for another OS).
 * @param {string} spec
 * @param {string} folder
 * @param {{ log?: (line: string) => void, npmArgs?: string[] }} [options]
 */
export function installNpmPackage(
  spec,
  folder,
  { log = (line) => process.stderr.write(`${line}\n`), npmArgs = [] } = {},
) {
  log(`installing ${spec} into ${folder} ...`);
  const partial = `${folder}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', ...npmArgs, '--prefix', partial, spec], {
    stdio: ['ignore', 'ignore', 'inherit'],
    shell: process.platform === 'win32',
  });
  rmSync(folder, { recursive: true, force: true });
  renameSync(partial, folder);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command, ...names] = process.argv.slice(2);
  try {
    if (command === 'install') {
      for (const name of names.length > 0 ? names : Object.keys(REAL_PROGRAM_PINS)) {
        console.log(`${name}: ${ensureRealProgram(name)}`);
      }
    } else if (command === 'path' && names.length === 1) {
      console.log(ensureRealProgram(names[0]));
    } else {
      console.error('usage: node scripts/real-programs.mjs install [name ...] | path NAME');
      process.exit(2);
    }
  } catch (error) {
    console.error(`real-programs: ${/** @type {Error} */ (error).message}`);
    process.exit(1);
  }
}
