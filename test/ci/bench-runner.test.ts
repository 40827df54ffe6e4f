import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runNodeScript } from './helpers/run-node-script.js';

const bench = path.join(repoRoot, 'scripts', 'bench.mjs');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'yc-bench-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, source: string) => writeFileSync(path.join(dir, name), source);

describe('scripts/bench.mjs', () => {
  it('runs every *.bench.mjs in name order, one after another, and repeats the ratio lines at the end', () => {
    // b checks that a has finished (a's marker file exists) before b started: sequential, not parallel.
    write(
      'a.bench.mjs',
      `import { writeFileSync } from 'node:fs';
      console.log('warming up');
      console.log('validate: 120.0 MB/s, bare loop 200.0 MB/s, ratio 0.60 (goal >= 0.5)');
      writeFileSync(${JSON.stringify(path.join(dir, 'a.done'))}, '');`,
    );
    write(
      'b.bench.mjs',
      `import { existsSync } from 'node:fs';
      if (!existsSync(${JSON.stringify(path.join(dir, 'a.done'))})) { console.log('a still running'); process.exit(9); }
      console.log('cold start: 1.40x node -e 0');`,
    );
    write('notes.txt', 'not a bench');
    const { status, stdout } = runNodeScript(bench, ['--dir', dir]);
    expect(status).toBe(0);
    expect(stdout.indexOf('=== a.bench.mjs')).toBeLessThan(stdout.indexOf('=== b.bench.mjs'));
    expect(stdout).toContain('warming up');
    expect(stdout).toMatch(/--- a\.bench\.mjs: ok in \d+\.\d s/);
    const summary = stdout.slice(stdout.indexOf('=== summary'));
    expect(summary).toContain(
      'a.bench.mjs: ok\n  validate: 120.0 MB/s, bare loop 200.0 MB/s, ratio 0.60 (goal >= 0.5)\n',
    );
    expect(summary).toContain('b.bench.mjs: ok\n  cold start: 1.40x node -e 0\n');
    expect(summary).not.toContain('warming up');
    expect(stdout).not.toContain('notes.txt');
  });

  it('reports a failing bench by name, still runs the others, and exits 1', () => {
    write('a.bench.mjs', 'console.error("boom"); process.exit(3);');
    write('b.bench.mjs', 'console.log("ratio 1.0");');
    const { status, stdout, stderr } = runNodeScript(bench, ['--dir', dir]);
    expect(status).toBe(1);
    expect(stderr).toContain('boom');
    expect(stdout).toContain('a.bench.mjs: failed with exit code 3');
    expect(stdout).toContain('b.bench.mjs: ok');
  });

  it('ends a bench that hangs past --timeout-ms', () => {
    write('hang.bench.mjs', 'console.log("started"); setInterval(() => {}, 1000);');
    const started = Date.now();
    const { status, stdout } = runNodeScript(bench, ['--dir', dir, '--timeout-ms', '1000']);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(status).toBe(1);
    expect(stdout).toContain('hang.bench.mjs: timed out after 1000 ms (process tree ended)');
  });

  it('runs only the benches whose name matches the filters', () => {
    write('validate.bench.mjs', 'console.log("validate ratio 0.7");');
    write('shim.bench.mjs', 'console.log("shim ratio 1.2");');
    const { status, stdout } = runNodeScript(bench, ['shim', '--dir', dir]);
    expect(status).toBe(0);
    expect(stdout).toContain('=== shim.bench.mjs');
    expect(stdout).not.toContain('validate.bench.mjs');
  });

  it('says clearly when there is nothing to run', () => {
    const empty = runNodeScript(bench, ['--dir', dir]);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain(`no *.bench.mjs file in ${dir}`);
    const missing = runNodeScript(bench, ['--dir', path.join(dir, 'nope')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no bench folder at');
  });
});
