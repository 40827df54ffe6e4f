// Benches load harness modules from their TypeScript sources, so they need no prior build: esbuild bundles them
// as ESM into .tmp/<name>/ inside the repository, packages left external so that they resolve from its
// node_modules (the generated validators, for one, load ajv's runtime with createRequire(import.meta.url)).

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/**
 * Bundles `input` (esbuild's entryPoints or stdin) into .tmp/<name>/bundle.mjs and imports it.
 * @param {string} name
 * @param {Pick<import('esbuild').BuildOptions, 'entryPoints' | 'stdin'>} input
 */
export async function importFromSources(name, input) {
  const dir = path.join(root, '.tmp', name);
  mkdirSync(dir, { recursive: true });
  const outfile = path.join(dir, 'bundle.mjs');
  await build({
    ...input,
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}
