// Bundles the package's entry points into dist/.
// The reference shim is bundled with all its dependencies so that its cold start stays close to `node -e 0`;
// the harness keeps its dependencies external (they are installed with the package).
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { chmod, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const banner = { js: '#!/usr/bin/env node' };
const entries = [
  { in: 'reference-shim/main.ts', out: 'yume-shim', bundleDeps: true, bin: true },
  { in: 'harness/cli/main.ts', out: 'cli', bundleDeps: false, bin: true, split: true },
  { in: 'harness/fake-cli/main.ts', out: 'fake-cli', bundleDeps: true, bin: true },
  { in: 'harness/index.ts', out: 'index', bundleDeps: false, bin: false },
];

// Chunk names carry content hashes: drop the previous build's so they do not pile up.
await rm(path.join(root, 'dist', 'chunks'), { recursive: true, force: true });

for (const entry of entries) {
  const input = path.join(root, entry.in);
  if (!existsSync(input)) continue; // an entry point not written yet is not an error while the package grows
  const outfile = path.join(root, 'dist', `${entry.out}.js`);
  // Split entries load their commands on demand (dynamic import() becomes a separate chunk).
  const output = entry.split
    ? { entryPoints: [{ in: input, out: entry.out }], outdir: path.join(root, 'dist'), splitting: true, chunkNames: 'chunks/[name]-[hash]' }
    : { entryPoints: [input], outfile };
  await build({
    ...output,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: 'linked',
    packages: entry.bundleDeps ? undefined : 'external',
    banner: entry.bin ? banner : undefined,
    // Bundled CommonJS dependencies may call require(); give the ESM bundle one.
    inject: entry.bundleDeps ? [path.join(root, 'scripts', 'esm-require-shim.mjs')] : [],
    logLevel: 'warning',
  });
  if (entry.bin) await chmod(outfile, 0o755);
}
