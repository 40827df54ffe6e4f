// The `yume-shim` bin: a few lines of CommonJS that run the bundled shim (yume-shim-bundle.cjs, next to this
// file once built) through V8's code cache by hand (compile-cache.ts), or through Node's module compile cache
// when YUME_SHIM_COMPILE_CACHE=node on Node >= 22.1 (node-compile-cache.ts says why that is not the default).
// Built as CommonJS because Node's ES module loader alone costs a cold start several milliseconds.
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { requireOnce } from './compile-cache.js';
import { runBundle } from './node-compile-cache.js';

/** Replaced by scripts/build.mjs with the hash of the bundle it built alongside. */
declare const YUME_SHIM_BUNDLE_ID: string | undefined;

// esbuild emits this entry as CommonJS, where __dirname is the real directory of the bin (symlinks resolved).
const bundle = join(__dirname, 'yume-shim-bundle.cjs');
const argv = process.argv.slice(2);
const bundleId = typeof YUME_SHIM_BUNDLE_ID === 'string' ? YUME_SHIM_BUNDLE_ID : undefined;
// This bin's own require: the bundle only loads Node's modules with it (compile-cache.ts says why not createRequire).
const run = runBundle({ bundle, argv, env: process.env, bundleId, require: requireOnce(require) });
process.once('exit', () => {
  const saved = run.save();
  if (process.env.YUME_SHIM_DEBUG_COMPILE_CACHE) {
    // Synchronous: the process is exiting.
    writeSync(
      2,
      `yume-shim: compile cache ${run.outcome}${run.reason ? ` (${run.reason})` : ''}, ${saved}${run.file ? ` ${run.file}` : ''}\n`,
    );
  }
});
