// Bundles the package's entry points into dist/.
// The reference shim is bundled with all its dependencies so that its cold start stays close to `node -e 0`;
// the harness keeps its dependencies external (they are installed with the package).

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { chmod, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const banner = { js: '#!/usr/bin/env node' };
// The reference shim is CommonJS: a small bin (the launcher) runs the bundle through V8's code cache, which
// Node 20 offers only for CommonJS-style scripts (reference-shim/launcher/compile-cache.ts says why).
const entries = [
  {
    in: 'reference-shim/main.ts',
    out: 'yume-shim-bundle',
    bundleDeps: true,
    bin: false,
    cjs: true,
    // fdir (under tinyglobby, for Glob and Grep) makes a require from import.meta.url when it loads, which
    // CommonJS output leaves empty (and createRequire(undefined) throws): give it the bundle's URL, worked out
    // when first read.
    define: { 'import.meta.url': 'cjsImportMeta.url' },
    inject: ['cjs-import-meta-url.mjs'],
  },
  // Built after the bundle: it carries the bundle's hash, which keys the compile cache.
  {
    in: 'reference-shim/launcher/main.ts',
    out: 'yume-shim',
    bundleDeps: true,
    bin: true,
    cjs: true,
    carriesBundleId: true,
  },
  { in: 'harness/cli/main.ts', out: 'cli', bundleDeps: false, bin: true, split: true },
  { in: 'harness/official-cli/main.ts', out: 'fake-cli', bundleDeps: true, bin: true },
  { in: 'harness/drift/main.ts', out: 'cli-drift', bundleDeps: false, bin: true },
  { in: 'harness/index.ts', out: 'index', bundleDeps: false, bin: false },
];

// Chunk names carry content hashes: drop the previous build's so they do not pile up.
await rm(path.join(root, 'dist', 'chunks'), { recursive: true, force: true });

function bundleId() {
  const bundle = readFileSync(path.join(root, 'dist', 'yume-shim-bundle.cjs'));
  return createHash('sha256').update(bundle).digest('hex').slice(0, 24);
}

for (const entry of entries) {
  const input = path.join(root, entry.in);
  if (!existsSync(input)) continue; // an entry point not written yet is not an error while the package grows
  const outfile = path.join(root, 'dist', `${entry.out}.${entry.cjs ? 'cjs' : 'js'}`);
  // Split entries load their commands on demand (dynamic import() becomes a separate chunk).
  const output = entry.split
    ? {
        entryPoints: [{ in: input, out: entry.out }],
        outdir: path.join(root, 'dist'),
        splitting: true,
        chunkNames: 'chunks/[name]-[hash]',
      }
    : { entryPoints: [input], outfile };
  await build({
    ...output,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: entry.cjs ? 'cjs' : 'esm',
    // The shim bundle runs inside vm.Script, where import() would need --experimental-vm-modules on Node 20:
    // have esbuild turn its lazy imports of Node's modules into require().
    supported: entry.cjs ? { 'dynamic-import': false } : undefined,
    sourcemap: 'linked',
    // The shim is read, checked against its compile cache and held in memory by every process Yume starts:
    // minified, it is half the size (stack traces map back through the linked source map).
    minify: entry.cjs === true,
    packages: entry.bundleDeps ? undefined : 'external',
    banner: entry.bin ? banner : undefined,
    // Bundled CommonJS dependencies may call require(); give the ESM bundle one.
    define: entry.carriesBundleId ? { YUME_SHIM_BUNDLE_ID: JSON.stringify(bundleId()) } : entry.define,
    inject: (entry.inject ?? (entry.bundleDeps && !entry.cjs ? ['esm-require-shim.mjs'] : [])).map((file) =>
      path.join(root, 'scripts', file),
    ),
    logLevel: 'warning',
  });
  if (entry.bin) await chmod(outfile, 0o755);
}

// V8 allocates a string of 128 KiB or more outside its young generation. The shim's bundle text (read, then
// compiled) is such a string today, and a single-tool turn then allocates just less than what starts V8's first
// scavenge; a smaller bundle would put its text in the young generation and every turn would pay ~1 ms for one
// (docs/decisions.md, D10). Not an error: say so, so that whoever shrinks the bundle checks with --trace-gc.
const YOUNG_STRING_LIMIT = 128 * 1024;
const shimBundleSize = statSync(path.join(root, 'dist', 'yume-shim-bundle.cjs')).size;
if (shimBundleSize < YOUNG_STRING_LIMIT) {
  process.stderr.write(
    `build: dist/yume-shim-bundle.cjs is ${(shimBundleSize / 1024).toFixed(0)} KiB, under 128 KiB: check that a single-tool turn still runs no scavenge (node --trace-gc dist/yume-shim.cjs ...; D10)\n`,
  );
}
