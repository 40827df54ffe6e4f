// Bundles the reference shim for the translator tests with registry-with-cli.ts in place of the provider
// registry (see that file). Built once per test process into a temporary directory.
import { build } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REGISTRY = path.join(ROOT, 'reference-shim', 'providers', 'registry.ts');
const STAND_IN = path.join(ROOT, 'test', 'translator', 'registry-with-cli.ts');

let built: Promise<string> | undefined;

export function translatorShim(): Promise<string> {
  built ??= (async () => {
    const outfile = path.join(mkdtempSync(path.join(os.tmpdir(), 'yume-translator-shim-')), 'yume-shim.js');
    await build({
      entryPoints: [path.join(ROOT, 'reference-shim', 'main.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      inject: [path.join(ROOT, 'scripts', 'esm-require-shim.mjs')],
      logLevel: 'warning',
      plugins: [
        {
          name: 'registry-with-cli',
          setup(pluginBuild) {
            pluginBuild.onResolve({ filter: /registry\.js$/ }, (args) => {
              if (args.importer === STAND_IN) return undefined;
              const target = path.resolve(path.dirname(args.importer), args.path.replace(/\.js$/, '.ts'));
              return target === REGISTRY ? { path: STAND_IN } : undefined;
            });
          },
        },
      ],
    });
    return outfile;
  })();
  return built;
}
