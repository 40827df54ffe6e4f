// Command lines that cannot be carried out end at once with one clear line and exit 2: a report file that
// cannot be written (never a spin), a shim that is missing, a directory, not executable, or whose #!
// interpreter is missing (named). A closed stdout ends a command quietly.

import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { fixtureShim, root } from '../runner/helpers/run-fixture.js';

const cli = path.join(root, 'dist', 'cli.js');
const run = (...args: string[]) => execa(process.execPath, [cli, ...args], { reject: false, timeout: 20_000 });

describe.runIf(process.platform !== 'win32')('bad paths', () => {
  it.each([
    [['--out', '/proc/x/r.json'], /cannot write json report to \/proc\/x\/r\.json \(ENOENT\)/],
    [['--reporter', 'junit:/etc/passwd/r.xml'], /cannot write junit report to \/etc\/passwd\/r\.xml \(ENOTDIR\)/],
  ])('report path %j: exit 2 at once', async (flags, message) => {
    const started = performance.now();
    const result = await run('run', '--scenario', 'plain-text', '--provider', 'openai-chat', ...flags);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it.each([
    [fixtureShim('no-such-shim.mjs'), /shim .*no-such-shim\.mjs does not exist/],
    [path.join(root, 'test', 'fixtures', 'shims'), /is a directory/],
    [fixtureShim('is-not-executable.sh'), /is not executable: chmod \+x/],
    [fixtureShim('names-missing-interpreter.sh'), /interpreter \/usr\/bin\/yume-no-such-interpreter .*missing/],
    [fixtureShim('names-missing-env-interpreter.sh'), /interpreter "yume-no-such-interpreter" .*not on PATH/],
  ])('shim %s: exit 2 with one line', async (shim, message) => {
    const result = await run('run', shim, '--scenario', 'plain-text', '--provider', 'openai-chat');
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it('validate … --reporter json | head: ends quietly when the reader goes away', async () => {
    const file = path.join(os.tmpdir(), `yume-epipe-${process.pid}.jsonl`);
    writeFileSync(file, Buffer.alloc(4 * 1024 * 1024, 'x\n'));
    const validate = execa(process.execPath, [cli, 'validate', file, '--reporter', 'json'], { reject: false });
    const head = await validate.pipe('head', ['-c', '100']);
    const ended = await validate;
    expect(head.stdout.length).toBe(100);
    expect(ended.stderr).not.toMatch(/Error|EPIPE|at /);
    expect([0, 1]).toContain(ended.exitCode);
  });
});
