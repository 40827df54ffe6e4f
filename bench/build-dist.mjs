// The runner and shim benches measure dist/ as `npm run build` makes it: built first, unless --no-build (the
// tests' smoke run, whose setup has built it: rebuilding under other tests would rewrite the bins they run).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Runs scripts/build.mjs, or with --no-build checks that dist/ holds the shim. */
export function buildDist() {
  if (!process.argv.includes('--no-build')) {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  } else if (!existsSync(path.join(root, 'dist', 'yume-shim.cjs'))) {
    throw new Error('--no-build: dist/yume-shim.cjs is missing; run npm run build first');
  }
}
