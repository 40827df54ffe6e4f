// Emits the declaration files the package's "exports" map points at (dist/types/harness/index.d.ts and
// dist/types/generated/protocol.d.ts) with tsc and tsconfig.types.json. esbuild bundles the JavaScript
// but writes no types, so this runs after scripts/build.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const entries = ['harness/index.ts', 'generated/protocol.ts'];

if (!entries.some((entry) => existsSync(path.join(root, entry)))) {
  // Like build.mjs: an entry point not written yet is not an error while the package grows.
  console.log(`build-types: none of ${entries.join(', ')} exists yet; no declarations emitted`);
  process.exit(0);
}

// Declarations of files that were renamed or removed must not linger in the package.
rmSync(path.join(root, 'dist', 'types'), { recursive: true, force: true });

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.types.json')], {
  cwd: root,
  stdio: 'inherit',
  timeout: 180_000,
});
if (result.error) {
  console.error(`build-types: could not run tsc: ${result.error.message}`);
  process.exit(1);
}
if (result.status !== 0) {
  console.error('build-types: tsc reported errors in the public API (above); fix them so dist/types matches the code');
  process.exit(result.status ?? 1);
}
