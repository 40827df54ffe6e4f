// Command shims: the POSIX scripts run for real; the .cmd files are checked by replaying cmd's and the C
// runtime's parsing rules (test/helpers/windows-parsers.ts), so every argv survives both layers.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, test } from 'vitest';
import { writeAuthHelpers } from '../../harness/mock/auth-helpers.js';
import { DUMMY_CREDENTIALS } from '../../harness/mock/credentials.js';
import { writeCommandShim } from '../../harness/process/command-shims.js';
import { cmdReadLine, parseWindowsArguments } from '../helpers/windows-parsers.js';

const TRICKY = [
  'plain',
  'with space',
  'quote"inside',
  "single'quote",
  'trailing\\',
  'back\\\\"slash',
  '50% off %PATH%',
  'a&b|c<d>e^f',
  '(paren)',
  '!bang!',
  '$HOME `id` $(id)',
  '',
  'ünï✓',
];

describe('POSIX shims', () => {
  test("a node shim passes its fixed args and the caller's argv through unchanged", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yume-shims-'));
    const script = path.join(dir, 'print argv.mjs');
    writeFileSync(script, 'console.log(JSON.stringify(process.argv.slice(2)));\n');
    const { posix } = await writeCommandShim(dir, 'fake-tool', { kind: 'node', script, args: TRICKY.slice(0, 6) });
    expect(statSync(posix).mode & 0o111).not.toBe(0);
    const result = await execa(posix, TRICKY.slice(6), { timeout: 10_000 });
    expect(JSON.parse(result.stdout)).toEqual([...TRICKY.slice(0, 6), ...TRICKY.slice(6)]);
  });

  test('a print shim prints exactly its text, even with shell metacharacters', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yume-shims-'));
    const text = "it's $HOME `x` \\n %PATH% & done";
    const { posix } = await writeCommandShim(dir, 'say', { kind: 'print', stdout: text });
    const result = await execa(posix, ['ignored'], { timeout: 10_000, stripFinalNewline: false });
    expect(result.stdout).toBe(`${text}\n`);
  });

  test('names that are not plain file names are refused', async () => {
    await expect(writeCommandShim(tmpdir(), '../evil', { kind: 'print', stdout: 'x' })).rejects.toThrow(
      /plain file name/,
    );
  });
});

describe('Windows .cmd content', () => {
  test('a node shim: CRLF lines, quoted program, every argument escaped, caller args appended', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yume-shims-'));
    const { windows } = await writeCommandShim(dir, 'fake-tool', {
      kind: 'node',
      script: 'C:\\tools dir\\tool.mjs',
      args: TRICKY,
      node: 'C:\\Program Files\\nodejs\\node.exe',
    });
    const content = readFileSync(windows, 'utf8');
    expect(content.endsWith('\r\n')).toBe(true);
    const lines = content.split('\r\n');
    expect(lines[0]).toBe('@echo off');
    expect(lines[1]).toBe('setlocal DisableDelayedExpansion');
    const command = lines[2]!;
    expect(command.startsWith('"C:\\Program Files\\nodejs\\node.exe" ')).toBe(true);
    expect(command.endsWith(' %*')).toBe(true);
    const argumentsPart = command.slice('"C:\\Program Files\\nodejs\\node.exe" '.length, -' %*'.length);
    expect(parseWindowsArguments(cmdReadLine(argumentsPart, { context: 'batch-file' }))).toEqual([
      'C:\\tools dir\\tool.mjs',
      ...TRICKY,
    ]);
    expect(lines[3]).toBe('exit /b %ERRORLEVEL%');
  });

  test('a print shim with an argv condition', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yume-shims-'));
    const { windows } = await writeCommandShim(dir, 'tool', {
      kind: 'print',
      stdout: 'token & more 100%',
      whenArgs: ['auth', 'token'],
      usage: 'only <auth token>',
    });
    expect(readFileSync(windows, 'utf8').split('\r\n')).toEqual([
      '@echo off',
      'setlocal DisableDelayedExpansion',
      'if not "%~1"=="auth" goto usage',
      'if not "%~2"=="token" goto usage',
      'if not "%~3"=="" goto usage',
      'type "%~dp0tool.stdout.txt"',
      'exit /b 0',
      ':usage',
      'type "%~dp0tool.usage.txt" 1>&2',
      'exit /b 2',
      '',
    ]);
    // No echo: Wine's cmd prints `echo(` literally, and echo would end the line with CRLF.
    expect(readFileSync(windows, 'utf8')).not.toMatch(/\becho\b[^ ]/);
    // What the .cmd types is byte for byte what the POSIX script prints.
    const posixRun = await execa(path.join(dir, 'tool'), ['auth', 'token'], { reject: false });
    expect(readFileSync(path.join(dir, 'tool.stdout.txt'), 'utf8')).toBe(`${posixRun.stdout}\n`);
    const wrong = await execa(path.join(dir, 'tool'), ['auth'], { reject: false });
    expect(readFileSync(path.join(dir, 'tool.usage.txt'), 'utf8')).toBe(`${wrong.stderr}\n`);
  });
});

describe('fake auth helpers', () => {
  test('gcloud and gh print the D2 dummy tokens for their one command and fail on anything else', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yume-auth-'));
    const helpers = await writeAuthHelpers(dir);
    expect(helpers.tokens).toEqual({ gcloud: DUMMY_CREDENTIALS.gcloudAccessToken, gh: DUMMY_CREDENTIALS.ghToken });
    const env = { PATH: `${dir}${path.delimiter}${process.env.PATH ?? ''}` };
    const run = (file: string, args: string[]) => execa(file, args, { env, reject: false, timeout: 10_000 });
    expect((await run('gcloud', ['auth', 'print-access-token'])).stdout).toBe('ya29.yume-conformance-gcloud-dummy');
    expect((await run('gh', ['auth', 'token'])).stdout).toBe('gho_yume_conformance_dummy');
    for (const [file, args] of [
      ['gcloud', ['auth', 'login']],
      ['gcloud', []],
      ['gh', ['auth', 'token', '--extra']],
      ['gh', ['api', 'user']],
    ] as const) {
      const result = await run(file, [...args]);
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/yume-conformance fake.*only/);
    }
    expect(readFileSync(path.join(dir, 'gcloud.cmd'), 'utf8')).toContain('type "%~dp0gcloud.stdout.txt"\r\n');
    expect(readFileSync(path.join(dir, 'gcloud.stdout.txt'), 'utf8')).toBe('ya29.yume-conformance-gcloud-dummy\n');
    expect(readFileSync(path.join(dir, 'gh.cmd'), 'utf8')).toContain('if not "%~2"=="token" goto usage');
  });
});
