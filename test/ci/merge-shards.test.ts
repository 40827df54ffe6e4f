// ci/merge-shards.mjs then ci/aggregate.mjs: the shards of an OS (real shard reports from `run --shard i/2`)
// become one merged result that aggregate counts once, next to an unsharded OS; a missing shard leaves that
// OS unverified, never passed.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runNodeScript } from './helpers/run-node-script.js';

const cli = path.join(repoRoot, 'dist', 'cli.js');
const mergeShards = path.join(repoRoot, 'ci', 'merge-shards.mjs');
const aggregate = path.join(repoRoot, 'ci', 'aggregate.mjs');
const SELECTION = [
  path.join(repoRoot, 'test', 'fixtures', 'shims', 'conforming-mini-shim.mjs'),
  '--full',
  '--scenario',
  'plain-text,persistent-mode',
  '--provider',
  'openai-chat',
];

let work: string;
const shardsDir = () => path.join(work, 'shards');

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'yc-merge-shards-'));
  for (const index of [1, 2]) {
    const folder = path.join(shardsDir(), `yume-conformance-ubuntu-latest-shard-${index}`);
    mkdirSync(folder, { recursive: true });
    const result = spawnSync(
      process.execPath,
      [cli, ...SELECTION, '--shard', `${index}/2`, '--reporter', `json:${path.join(folder, 'report.json')}`],
      { encoding: 'utf8', timeout: 120_000 },
    );
    const info = { os: 'Linux', node: process.version, package: 'yume-conformance', shard: `${index}/2` };
    writeFileSync(
      path.join(folder, 'run-info.json'),
      JSON.stringify({ ...info, exitCode: result.status, reports: { json: 'report.json' } }),
    );
  }
}, 240_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the shards plus an unsharded macOS result; `drop` leaves a shard out. */
function layout(name: string, drop?: number): string {
  const dir = path.join(work, name);
  cpSync(shardsDir(), dir, { recursive: true });
  if (drop) rmSync(path.join(dir, `yume-conformance-ubuntu-latest-shard-${drop}`), { recursive: true });
  const mac = path.join(dir, 'yume-conformance-macOS');
  mkdirSync(mac, { recursive: true });
  writeFileSync(path.join(mac, 'run-info.json'), JSON.stringify({ os: 'macOS', exitCode: 0 }));
  writeFileSync(
    path.join(mac, 'report.json'),
    JSON.stringify({ summary: { passed: 1, failed: 0, warnings: 0, notVerified: 0 }, runs: [{ status: 'passed' }] }),
  );
  return dir;
}

function verdict(dir: string) {
  const env = { ...process.env, YUME_CONFORMANCE_CLI: cli, GITHUB_STEP_SUMMARY: '' };
  const merged = runNodeScript(mergeShards, ['--dir', dir], { cwd: work, env });
  const joined = runNodeScript(aggregate, ['--dir', dir, '--expect', 'Linux,macOS'], { cwd: work, env });
  return { merged, joined };
}

describe('ci/merge-shards.mjs with ci/aggregate.mjs', () => {
  it('merges an OS’s shards into one result, counted once next to the other OS', () => {
    const dir = layout('complete');
    const { merged, joined } = verdict(dir);
    expect(merged.status, merged.stderr).toBe(0);
    const report = JSON.parse(readFileSync(path.join(dir, 'merged-Linux', 'report.json'), 'utf8'));
    expect(report.mergedShards).toBe(2);
    expect(report.runs).toHaveLength(16);
    expect(readFileSync(path.join(dir, 'merged-Linux', 'junit.xml'), 'utf8')).toContain('tests="16"');
    expect(joined.status, joined.stdout).toBe(0);
    // One Linux row (the merged one), not one per shard.
    expect(joined.stdout.match(/^\| Linux \|/gm)).toHaveLength(1);
    expect(joined.stdout).toContain('verified on: Linux, macOS');
  });

  it('leaves an OS with a missing shard unverified', () => {
    const dir = layout('missing', 2);
    const { merged, joined } = verdict(dir);
    expect(merged.status).toBe(1);
    const info = JSON.parse(readFileSync(path.join(dir, 'merged-Linux', 'run-info.json'), 'utf8'));
    expect(info.error).toMatch(/shard 2\/2 missing/);
    expect(joined.status).toBe(1);
    expect(joined.stdout).toMatch(/not verified on: Linux/);
  });
});
