// The launcher's compile cache (reference-shim/launcher/compile-cache.ts): what it stores, when it reuses it,
// when it refuses it, and that the bundle runs the same whatever happens to the cache. In process, on small
// CommonJS "bundles". V8 keeps what a process compiled in memory, so whether it really accepts or rejects a
// cache file is only visible across processes: that, and the real bin, are in compile-cache-bin.test.ts.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  contentHash,
  privateDirectoryProblem,
  requireOnce,
  runBundleWithCompileCache,
  runKind,
} from '../../reference-shim/launcher/compile-cache.js';

let work: string;
let cacheDir: string;
beforeEach(() => {
  work = mkdtempSync(path.join(tmpdir(), 'yume-compile-cache-'));
  cacheDir = path.join(work, 'cache');
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

declare global {
  // eslint-disable-next-line no-var
  var __bundleRuns: Array<Record<string, unknown>> | undefined;
}

/** A bundle that records what it saw; `variant` changes its code without changing its length. */
function writeBundle(variant = 'A'): string {
  const file = path.join(work, 'bundle.cjs');
  writeFileSync(
    file,
    `"use strict";
const helper = (value) => value.toUpperCase();
globalThis.__bundleRuns ??= [];
globalThis.__bundleRuns.push({ variant: helper('${variant.toLowerCase()}'), filename: __filename, dirname: __dirname, hasRequire: typeof require('node:path').join, moduleIsObject: typeof module === 'object' });
module.exports = { ran: true };
`,
  );
  return file;
}

const run = (
  bundle: string,
  argv: string[] = ['--prompt', 'hi'],
  env: NodeJS.ProcessEnv = {},
  extra: { bundleId?: string } = {},
) => runBundleWithCompileCache({ bundle, argv, env, cacheDir, require: createRequire(bundle), ...extra });

const lastRun = () => globalThis.__bundleRuns?.at(-1);
const cacheFiles = () => readdirSync(cacheDir).sort();

describe('compile cache', () => {
  it('tells full runs from --version/--help runs', () => {
    expect(runKind(['--provider', 'openai', '--prompt', 'hi'])).toBe('full');
    for (const flag of ['--version', '-v', '--help', '-h']) expect(runKind([flag])).toBe('lite');
  });

  it('runs the bundle as CommonJS with require, module, __filename and __dirname', () => {
    const bundle = writeBundle();
    run(bundle);
    expect(lastRun()).toEqual({
      variant: 'A',
      filename: bundle,
      dirname: work,
      hasRequire: 'function',
      moduleIsObject: true,
    });
  });

  it('reads a bundle that is not ASCII as UTF-8 (an ASCII one is read as Latin-1, the same text)', () => {
    const file = path.join(work, 'bundle.cjs');
    for (const text of ['plain ascii', 'héllo wörld ✓ 😀']) {
      writeFileSync(
        file,
        `globalThis.__bundleRuns ??= []; globalThis.__bundleRuns.push({ text: ${JSON.stringify(text)} });`,
      );
      run(file);
      expect(lastRun()).toEqual({ text });
    }
  });

  it('misses, stores the cache at the end of the run, then hits and keeps it', () => {
    const bundle = writeBundle();
    const first = run(bundle);
    expect(first.outcome).toBe('miss');
    expect(first.save()).toBe('written');
    expect(first.save()).toBe('skipped'); // once per process
    expect(cacheFiles()).toEqual([expect.stringMatching(/\.full\.bin$/)]);

    const second = run(bundle);
    expect(second.outcome).toBe('hit');
    expect(second.save()).toBe('kept');
    expect(lastRun()).toMatchObject({ variant: 'A' });
  });

  it('never uses the cache of other code, even of the same length', () => {
    const bundle = writeBundle('A');
    run(bundle).save();
    writeBundle('B'); // same size, different code
    const changed = run(bundle);
    expect(changed.outcome).toBe('miss');
    expect(lastRun()).toMatchObject({ variant: 'B' });
  });

  it('keys a build id together with the size and modification time of the bundle', () => {
    const bundle = writeBundle('A');
    run(bundle, undefined, {}, { bundleId: 'build-1' }).save();
    expect(run(bundle, undefined, {}, { bundleId: 'build-1' }).outcome).toBe('hit');
    expect(run(bundle, undefined, {}, { bundleId: 'build-2' }).outcome).toBe('miss');
    // Edited in place (same id, same size): the modification time differs, so the cache is not used.
    writeBundle('B');
    utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
    const edited = run(bundle, undefined, {}, { bundleId: 'build-1' });
    expect(edited.outcome).toBe('miss');
    expect(lastRun()).toMatchObject({ variant: 'B' });
  });

  it('a --version run stores a lite cache that a full run does not use; a full cache serves both', () => {
    const bundle = writeBundle();
    const version = run(bundle, ['--version']);
    expect(version.outcome).toBe('miss');
    expect(version.save()).toBe('written');
    expect(cacheFiles()).toEqual([expect.stringMatching(/\.lite\.bin$/)]);
    expect(run(bundle, ['--version']).outcome).toBe('hit');

    const full = run(bundle);
    expect(full.outcome).toBe('miss');
    full.save();
    const lite = run(bundle, ['--help']);
    expect(lite.outcome).toBe('hit');
    expect(lite.save()).toBe('kept');
  });

  it('is off with YUME_SHIM_NO_COMPILE_CACHE and writes nothing', () => {
    const bundle = writeBundle();
    const off = run(bundle, undefined, { YUME_SHIM_NO_COMPILE_CACHE: '1' });
    expect(off.outcome).toBe('disabled');
    expect(off.reason).toContain('YUME_SHIM_NO_COMPILE_CACHE');
    expect(off.save()).toBe('skipped');
    expect(lastRun()).toMatchObject({ variant: 'A' });
  });

  it('uses YUME_SHIM_COMPILE_CACHE_DIR when no directory is given', () => {
    const bundle = writeBundle();
    const directory = path.join(work, 'from-env');
    const result = runBundleWithCompileCache({
      bundle,
      argv: [],
      env: { YUME_SHIM_COMPILE_CACHE_DIR: directory },
      require: createRequire(bundle),
    });
    expect(result.file?.startsWith(directory)).toBe(true);
    expect(result.save()).toBe('written');
  });

  it.runIf(process.platform !== 'win32')(
    'refuses a directory others may write to, or a symlink, and still runs the bundle',
    () => {
      const bundle = writeBundle();
      mkdirSync(cacheDir, { mode: 0o700 });
      chmodSync(cacheDir, 0o777);
      expect(privateDirectoryProblem(cacheDir)).toMatch(/writable by other users/);
      const shared = run(bundle);
      expect(shared.outcome).toBe('disabled');
      expect(shared.save()).toBe('skipped');
      expect(lastRun()).toMatchObject({ variant: 'A' });

      const real = path.join(work, 'real');
      mkdirSync(real, { mode: 0o700 });
      const link = path.join(work, 'link');
      symlinkSync(real, link);
      expect(privateDirectoryProblem(link)).toMatch(/not a plain directory/);
      expect(privateDirectoryProblem(real)).toBeUndefined();
    },
  );

  it('creates a missing directory private to the user', () => {
    const nested = path.join(work, 'a', 'b');
    expect(privateDirectoryProblem(nested)).toBeUndefined();
    if (process.platform !== 'win32') expect(statSync(nested).mode & 0o077).toBe(0);
  });

  it('hashes content for runs without a build id', () => {
    expect(contentHash('abc')).toBe(contentHash('abc'));
    expect(contentHash('abc')).not.toBe(contentHash('abd'));
    expect(contentHash('ā')).not.toBe(contentHash('Ā')); // both bytes of a UTF-16 unit count
    expect(contentHash('')).toMatch(/^[0-9a-f]{8}$/);
  });

  it("gives the bundle a require that asks Node's once per module and keeps its properties", () => {
    const asked: string[] = [];
    const nodeRequire = createRequire(import.meta.url);
    const counting = Object.assign((id: string) => {
      asked.push(id);
      return nodeRequire(id);
    }, nodeRequire) as NodeJS.Require;
    const once = requireOnce(counting);
    const fs = once('node:fs');
    expect(once('node:fs')).toBe(fs);
    expect(once('node:path')).toBe(nodeRequire('node:path'));
    expect(asked).toEqual(['node:fs', 'node:path']);
    expect(once.resolve('node:fs')).toBe('node:fs');
  });
});
