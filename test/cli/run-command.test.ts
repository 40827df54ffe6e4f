// `yume-conformance [run] [SHIM]` end to end through the bundled bin (dist/cli.js, built by the global setup).
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { validatorFor } from '../../harness/protocol/schemas.js';
import { fixtureShim, root } from '../runner/helpers/run-fixture.js';

const run = promisify(execFile);
const cli = path.join(root, 'dist', 'cli.js');

async function yumeConformance(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      cwd: root,
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const temp = () => mkdtempSync(path.join(os.tmpdir(), 'yc-cli-'));

describe.concurrent('yume-conformance run', () => {
  it('runs a shim given by path as the default command: progress on stderr, reports on stdout and in files, exit 0', async () => {
    const dir = temp();
    const result = await yumeConformance([
      fixtureShim('conforming-mini-shim.mjs'),
      '--scenario',
      'plain-text',
      '--scenario',
      'single-tool',
      '--reporter',
      'json',
      '--reporter',
      `junit:${path.join(dir, 'junit.xml')}`,
      '--reporter',
      `html:${path.join(dir, 'report.html')}`,
      '--out',
      path.join(dir, 'report.json'),
      '--jobs',
      '2',
      '--seed',
      '42',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(validatorFor('report.schema.json')(report)).toBe(true);
    expect(report.summary).toMatchObject({ failed: 0, notVerified: 0 });
    expect(report.summary.passed).toBe(report.runs.length);
    expect(report.runs.map((entry: { seed?: number }) => entry.seed).filter(Boolean)).toEqual(
      expect.arrayContaining([42, 43]),
    );
    expect(JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')).runs).toHaveLength(report.runs.length);
    const progress = result.stderr.split('\n').filter((line) => /^\[\s*\d+\/\d+\]/.test(line));
    expect(progress).toHaveLength(report.runs.length);
    expect(result.stderr).toMatch(/yume-conformance: PASSED — \d+ passed, 0 failed/);
    // Why stdout holds no human report: the named reporters replaced it, as in vitest.
    expect(result.stderr).toContain('the named --reporter replaced the human report (add --reporter human to keep it)');
    expect(readFileSync(path.join(dir, 'junit.xml'), 'utf8')).toMatch(/<testsuites[\s\S]*<testcase/);
    const html = readFileSync(path.join(dir, 'report.html'), 'utf8');
    for (const part of [
      'expected (golden)',
      'observed stdout',
      'Provider requests',
      'Timeline',
      '/v1/chat/completions',
      'first assistant text on stdout',
    ])
      expect(html).toContain(part);
  });

  it('--help says a named reporter replaces the human report unless human is named too', async () => {
    const help = await yumeConformance(['run', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'Naming one replaces the human report on stdout unless human is named too',
    );
  });

  it('exits 1 with the failing rule when a check fails', async () => {
    const result = await yumeConformance([
      'run',
      fixtureShim('drops-result.mjs'),
      '--scenario',
      'plain-text',
      '--reporter',
      'json',
    ]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.runs[0].findings.map((finding: { rule: string }) => finding.rule)).toContain('turn.result-last');
  });

  it('accepts a listed expected failure (exit 0) and fails a stale one (exit 1)', async () => {
    const dir = temp();
    const file = path.join(dir, 'expected.json');
    writeFileSync(file, JSON.stringify({ failures: [{ scenario: 'plain-text', reason: 'drops its result' }] }));
    const expected = await yumeConformance([
      'run',
      fixtureShim('drops-result.mjs'),
      '--scenario',
      'plain-text',
      '--expected-failures',
      file,
      '--reporter',
      'json',
    ]);
    expect(expected.code, expected.stderr).toBe(0);
    expect(JSON.parse(expected.stdout).summary.expectedFailures).toBe(1);
    const stale = await yumeConformance([
      'run',
      fixtureShim('conforming-mini-shim.mjs'),
      '--scenario',
      'plain-text',
      '--expected-failures',
      file,
      '--reporter',
      'json',
    ]);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('expected-failures.stale');
  });

  it('exits 2 with the reason when the shim cannot be started', async () => {
    const dir = temp();
    const notExecutable = path.join(dir, 'my-shim');
    writeFileSync(notExecutable, 'echo hi\n');
    chmodSync(notExecutable, 0o644);
    const result = await yumeConformance(['run', notExecutable, '--scenario', 'plain-text']);
    expect(result.code).toBe(2);
    // Checked before any run starts: one line naming the file and the fix.
    expect(result.stderr).toMatch(/shim .*my-shim is not executable: chmod \+x .*my-shim, or give a \.js file/);
  });

  it('a command on no PATH folder: one line, exit 2, no run counts or verdict; the report files say no run took place', async () => {
    const dir = temp();
    const result = await yumeConformance([
      'run',
      'yume-no-such-command',
      '--out',
      path.join(dir, 'report.json'),
      '--reporter',
      `junit:${path.join(dir, 'junit.xml')}`,
      '--reporter',
      `human:${path.join(dir, 'report.txt')}`,
      '--reporter',
      'human',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'yume-conformance run: the shim could not be started: yume-no-such-command: no such file or command (check the path, or that it is on PATH)',
    ]);
    expect(result.stdout).toBe('');
    const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
    expect(validatorFor('report.schema.json')(report)).toBe(true);
    expect(report).toMatchObject({
      runs: [],
      summary: { passed: 0, failed: 0, warnings: 0, notVerified: 0 },
      exitCode: 2,
      startFailure: 'yume-no-such-command: no such file or command (check the path, or that it is on PATH)',
    });
    expect(readFileSync(path.join(dir, 'junit.xml'), 'utf8')).toMatch(
      /tests="0"[\s\S]*<property name="startFailure" value="yume-no-such-command: no such file or command/,
    );
    expect(readFileSync(path.join(dir, 'report.txt'), 'utf8')).toBe(
      'No run took place: the shim could not be started: yume-no-such-command: no such file or command (check the path, or that it is on PATH)\n',
    );
  });

  it('a command found on the PATH given with --env is started', async () => {
    const dir = temp();
    writeFileSync(
      path.join(dir, 'my-shim'),
      `#!${process.execPath}\nimport(${JSON.stringify(fixtureShim('conforming-mini-shim.mjs'))});\n`,
    );
    chmodSync(path.join(dir, 'my-shim'), 0o755);
    const result = await yumeConformance([
      'run',
      'my-shim',
      '--scenario',
      'plain-text',
      '--env',
      `PATH=${dir}${path.delimiter}${process.env.PATH ?? ''}`,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^1 run\(s\): 1 passed, 0 failed/m);
    expect(result.stdout).toMatch(/yume-conformance: PASSED, ✔ conforms \(exit 0\)/);
  });

  it.each([
    [['run', '/nonexistent/shim.js'], /shim \/nonexistent\/shim\.js does not exist/],
    [['run', '--provider', 'openai'], /unknown provider "openai" \(choose from openai-chat/],
    [['run', '--scenario', 'no-such-scenario'], /unknown scenario "no-such-scenario"/],
    [['run', '--env', 'NOVALUE'], /--env "NOVALUE": expected NAME=VALUE/],
    [['run', '--jobs', '0'], /--jobs must be a positive whole number/],
    [['run', '--reporter', 'xml'], /unknown reporter "xml"/],
    [['run', '--profile', 'strict'], /argument 'strict' is invalid/],
    [['goldens', '--update'], /--update needs --reason/],
  ])('exits 2 on a usage error: %j', async (args, message) => {
    const result = await yumeConformance(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('exits 2 naming the file and line of a bad capabilities file', async () => {
    const file = path.join(temp(), 'caps.json');
    writeFileSync(file, '{\n  "providers": ["openai-chat"],\n  "dialekt": "flat"\n}\n');
    const result = await yumeConformance(['run', fixtureShim('conforming-mini-shim.mjs'), '--capabilities', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${file}:3 /dialekt: unknown key "dialekt" — fix: remove it or correct its spelling`,
    );
  });

  it('--list shows the runs the options select, marking required scenarios and what is not verified', async () => {
    const result = await yumeConformance(['--list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\d+ run\(s\) for .*yume-shim\.cjs \(capabilities: the bundled reference shim\)/);
    expect(result.stdout).toMatch(/^\* interrupt\s+openai-chat\s+spec\/spec\/flat$/m);
    expect(result.stdout).toMatch(
      /persistent-interactive\s+codex-cli\s+spec\/spec\/flat {2}— not verified: declared limitation/,
    );
    const defaults = await yumeConformance([
      'run',
      fixtureShim('conforming-mini-shim.mjs'),
      '--list',
      '--scenario',
      'persistent-mode',
    ]);
    expect(defaults.stdout).toContain('not verified: needs persistent mode');
  });
});
