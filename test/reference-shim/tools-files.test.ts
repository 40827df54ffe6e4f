// Unit tests of the file tools: behaviour, and confinement to --cwd (R11) by "..", absolute paths and symlinks.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editTool } from '../../reference-shim/tools/edit.js';
import { globTool } from '../../reference-shim/tools/glob.js';
import { grepTool } from '../../reference-shim/tools/grep.js';
import { lsTool } from '../../reference-shim/tools/ls.js';
import { multiEditTool } from '../../reference-shim/tools/multi-edit.js';
import { readTool } from '../../reference-shim/tools/read.js';
import { ToolRegistry } from '../../reference-shim/tools/registry.js';
import { writeTool } from '../../reference-shim/tools/write.js';
import { makeSandbox, type Sandbox } from './helpers/tool-context.js';

let box: Sandbox;
const registry = new ToolRegistry([readTool, writeTool, editTool, multiEditTool, globTool, grepTool, lsTool]);
const run = (name: string, input: Record<string, unknown>) => registry.run(name, input, box.context());

beforeEach(() => {
  box = makeSandbox();
});
afterEach(() => box.cleanup());

describe('Read', () => {
  it('numbers lines like cat -n and honours offset/limit', async () => {
    box.write('a.txt', 'one\ntwo\nthree\nfour\n');
    const all = await run('Read', { file_path: 'a.txt' });
    expect(all).toEqual({ isError: false, content: '     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour' });
    const part = await run('Read', { file_path: 'a.txt', offset: 2, limit: 2 });
    expect(part.content).toMatch(/^ {5}2\ttwo\n {5}3\tthree\n\(showing lines 2-3 of 4/);
  });

  it('accepts an absolute path inside --cwd', async () => {
    const file = box.write('sub/b.txt', 'inside\n');
    expect(await run('Read', { file_path: file })).toEqual({ isError: false, content: '     1\tinside' });
  });

  it('replaces invalid UTF-8 instead of failing', async () => {
    box.write('bin.txt', '');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path.join(box.cwd, 'bin.txt'), Buffer.from([0x61, 0xff, 0x62, 0x0a]));
    const result = await run('Read', { file_path: 'bin.txt' });
    expect(result.content).toBe('     1\ta\uFFFDb');
  });

  it('reports missing files, directories and missing file_path as errors', async () => {
    expect(await run('Read', { file_path: 'nope.txt' })).toMatchObject({
      isError: true,
      content: expect.stringContaining('does not exist'),
    });
    expect(await run('Read', { file_path: '.' })).toMatchObject({
      isError: true,
      content: expect.stringContaining('directory'),
    });
    expect(await run('Read', {})).toMatchObject({ isError: true, content: expect.stringContaining('file_path') });
  });

  it('refuses .., absolute paths outside and symlinks pointing outside', async () => {
    const outsideFile = path.join(box.outside, 'secret.txt');
    symlinkSync(outsideFile, path.join(box.cwd, 'link.txt'));
    symlinkSync(box.outside, path.join(box.cwd, 'linkdir'));
    for (const file_path of [
      '../outside/secret.txt',
      outsideFile,
      'link.txt',
      'linkdir/secret.txt',
      'sub/../../outside/secret.txt',
    ]) {
      const result = await run('Read', { file_path });
      expect(result.isError, file_path).toBe(true);
      expect(result.content, file_path).toMatch(/^Refused/);
      expect(result.content).not.toContain('outside secret');
    }
  });

  it.runIf(process.platform !== 'win32')(
    'refuses a FIFO at once instead of blocking on it (Read, Edit, MultiEdit)',
    async () => {
      execFileSync('mkfifo', [path.join(box.cwd, 'pipe')]);
      const started = Date.now();
      const calls: Array<[string, Record<string, unknown>]> = [
        ['Read', { file_path: 'pipe' }],
        ['Edit', { file_path: 'pipe', old_string: 'a', new_string: 'b' }],
        ['MultiEdit', { file_path: 'pipe', edits: [{ old_string: 'a', new_string: 'b' }] }],
      ];
      for (const [name, input] of calls) {
        expect(await run(name, input), name).toMatchObject({
          isError: true,
          content: expect.stringContaining('not a regular file'),
        });
      }
      expect(Date.now() - started).toBeLessThan(2000);
    },
  );

  it('allows a symlink that stays inside --cwd', async () => {
    box.write('real.txt', 'real\n');
    symlinkSync(path.join(box.cwd, 'real.txt'), path.join(box.cwd, 'alias.txt'));
    expect(await run('Read', { file_path: 'alias.txt' })).toEqual({ isError: false, content: '     1\treal' });
  });

  it('redacts credentials found in the file', async () => {
    box.write('env.txt', 'OPENAI_API_KEY=sk-yume-conformance-openai-dummy\nplain\n');
    const result = await registry.run(
      'Read',
      { file_path: 'env.txt' },
      box.context(undefined, { OPENAI_API_KEY: 'sk-yume-conformance-openai-dummy' }),
    );
    expect(result.content).not.toContain('sk-yume-conformance-openai-dummy');
    expect(result.content).toContain('[REDACTED]');
    expect(result.content).toContain('plain');
  });
});

describe('Write', () => {
  it('creates parent directories and writes atomically (no temp file left)', async () => {
    const result = await run('Write', { file_path: 'deep/dir/new.txt', content: 'x\ny\n' });
    expect(result).toMatchObject({ isError: false, content: expect.stringContaining('Created deep/dir/new.txt') });
    expect(readFileSync(path.join(box.cwd, 'deep/dir/new.txt'), 'utf8')).toBe('x\ny\n');
    expect(readdirSync(path.join(box.cwd, 'deep/dir'))).toEqual(['new.txt']);
  });

  it('replaces an existing file and keeps its permissions', async () => {
    const file = box.write('run.sh', 'old\n');
    chmodSync(file, 0o755);
    expect(await run('Write', { file_path: 'run.sh', content: 'new\n' })).toMatchObject({
      isError: false,
      content: expect.stringContaining('Updated'),
    });
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(statSync(file).mode & 0o777).toBe(0o755);
  });

  it('refuses to write outside --cwd, through .., absolute paths or a symlinked directory', async () => {
    symlinkSync(box.outside, path.join(box.cwd, 'escape'));
    for (const file_path of ['../outside/pwned.txt', path.join(box.outside, 'pwned.txt'), 'escape/pwned.txt']) {
      const result = await run('Write', { file_path, content: 'pwned' });
      expect(result.isError, file_path).toBe(true);
    }
    expect(readdirSync(box.outside)).toEqual(['secret.txt']);
  });

  it('refuses a dangling symlink (its target cannot be checked)', async () => {
    symlinkSync(path.join(box.outside, 'later.txt'), path.join(box.cwd, 'dangling'));
    expect((await run('Write', { file_path: 'dangling', content: 'x' })).isError).toBe(true);
    expect(existsSync(path.join(box.outside, 'later.txt'))).toBe(false);
  });

  it('needs a string content', async () => {
    expect(await run('Write', { file_path: 'a.txt' })).toMatchObject({
      isError: true,
      content: expect.stringContaining('content'),
    });
  });
});

describe('Edit', () => {
  it('replaces a unique string and shows a numbered snippet the app can place', async () => {
    const file = box.write('app.ts', 'const a = 1;\nconst foo = 2;\nconst c = 3;\n');
    const result = await run('Edit', { file_path: 'app.ts', old_string: 'foo', new_string: 'bar' });
    expect(result.isError).toBe(false);
    expect(result.content).toMatch(/ {5}2→const bar = 2;/);
    expect(readFileSync(file, 'utf8')).toBe('const a = 1;\nconst bar = 2;\nconst c = 3;\n');
  });

  it('errors when the text is missing or ambiguous, and leaves the file alone', async () => {
    const file = box.write('x.txt', 'a a a\n');
    expect(await run('Edit', { file_path: 'x.txt', old_string: 'zzz', new_string: 'y' })).toMatchObject({
      isError: true,
      content: expect.stringContaining('not found'),
    });
    expect(await run('Edit', { file_path: 'x.txt', old_string: 'a', new_string: 'b' })).toMatchObject({
      isError: true,
      content: expect.stringContaining('3 times'),
    });
    expect(await run('Edit', { file_path: 'x.txt', old_string: 'a', new_string: 'a' })).toMatchObject({
      isError: true,
    });
    expect(readFileSync(file, 'utf8')).toBe('a a a\n');
  });

  it('replace_all replaces every occurrence', async () => {
    const file = box.write('x.txt', 'a a a\n');
    expect(
      (await run('Edit', { file_path: 'x.txt', old_string: 'a', new_string: 'b', replace_all: true })).isError,
    ).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('b b b\n');
  });

  it('refuses files outside --cwd', async () => {
    const result = await run('Edit', {
      file_path: '../outside/secret.txt',
      old_string: 'outside',
      new_string: 'inside',
    });
    expect(result.isError).toBe(true);
    expect(readFileSync(path.join(box.outside, 'secret.txt'), 'utf8')).toBe('outside secret\n');
  });
});

describe('MultiEdit', () => {
  it('applies edits in order', async () => {
    const file = box.write('m.txt', 'alpha beta gamma\n');
    const result = await run('MultiEdit', {
      file_path: 'm.txt',
      edits: [
        { old_string: 'alpha', new_string: 'ALPHA' },
        { old_string: 'ALPHA beta', new_string: 'first second' },
      ],
    });
    expect(result).toMatchObject({ isError: false, content: expect.stringContaining('Applied 2 edits') });
    expect(readFileSync(file, 'utf8')).toBe('first second gamma\n');
  });

  it('is all-or-nothing: a failing edit leaves the file unchanged and names the edit', async () => {
    const file = box.write('m.txt', 'alpha beta\n');
    const result = await run('MultiEdit', {
      file_path: 'm.txt',
      edits: [
        { old_string: 'alpha', new_string: 'ALPHA' },
        { old_string: 'missing', new_string: 'x' },
      ],
    });
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining('Edit 2 of 2') });
    expect(readFileSync(file, 'utf8')).toBe('alpha beta\n');
  });

  it('needs a non-empty edits array', async () => {
    box.write('m.txt', 'x');
    expect((await run('MultiEdit', { file_path: 'm.txt', edits: [] })).isError).toBe(true);
    expect((await run('MultiEdit', { file_path: 'm.txt', edits: [{ old_string: 1 }] })).isError).toBe(true);
  });
});

describe('Glob', () => {
  it('lists matching files relative to --cwd, sorted, skipping node_modules and .git', async () => {
    box.write('src/b.ts', '');
    box.write('src/a.ts', '');
    box.write('src/c.js', '');
    box.write('node_modules/x/index.ts', '');
    box.write('.git/config.ts', '');
    expect(await run('Glob', { pattern: '**/*.ts' })).toEqual({ isError: false, content: 'src/a.ts\nsrc/b.ts' });
    expect(await run('Glob', { pattern: '*.js', path: 'src' })).toEqual({ isError: false, content: 'src/c.js' });
    expect((await run('Glob', { pattern: '*.md' })).content).toContain('No files found');
  });

  it('refuses patterns and paths that leave --cwd', async () => {
    expect((await run('Glob', { pattern: '../outside/*' })).isError).toBe(true);
    expect((await run('Glob', { pattern: path.join(box.outside, '*') })).isError).toBe(true);
    expect((await run('Glob', { pattern: '*', path: '..' })).isError).toBe(true);
  });
});

describe('Grep', () => {
  it('prints path:line:text for each match by default', async () => {
    box.write('a.txt', 'hello world\nbye\n');
    box.write('sub/b.md', 'say hello\n');
    expect(await run('Grep', { pattern: 'hel+o' })).toEqual({
      isError: false,
      content: 'a.txt:1:hello world\nsub/b.md:1:say hello',
    });
  });

  it('supports glob, -i, files_with_matches and count', async () => {
    box.write('a.txt', 'Hello\nhello\n');
    box.write('b.md', 'hello\n');
    expect((await run('Grep', { pattern: 'hello', glob: '*.md' })).content).toBe('b.md:1:hello');
    expect((await run('Grep', { pattern: 'HELLO', '-i': true, output_mode: 'count' })).content).toBe('a.txt:2\nb.md:1');
    expect((await run('Grep', { pattern: 'hello', output_mode: 'files_with_matches' })).content).toBe('a.txt\nb.md');
  });

  it('reports no matches, bad regexes and escapes', async () => {
    box.write('a.txt', 'x\n');
    expect((await run('Grep', { pattern: 'zzz' })).content).toContain('No matches');
    expect(await run('Grep', { pattern: '(' })).toMatchObject({
      isError: true,
      content: expect.stringContaining('Invalid regular expression'),
    });
    expect((await run('Grep', { pattern: 'secret', path: '../outside' })).isError).toBe(true);
  });
});

describe('LS', () => {
  it('lists entries, directories with a trailing slash', async () => {
    box.write('b.txt', '');
    box.write('a/inner.txt', '');
    expect(await run('LS', {})).toEqual({ isError: false, content: 'a/\nb.txt' });
    expect(await run('LS', { path: 'a' })).toEqual({ isError: false, content: 'inner.txt' });
  });

  it('refuses directories outside --cwd', async () => {
    expect((await run('LS', { path: '..' })).isError).toBe(true);
    expect((await run('LS', { path: box.outside })).isError).toBe(true);
  });
});

describe('registry', () => {
  it('answers unknown tools with an error naming the available ones', async () => {
    const result = await run('WebFetch', { url: 'x' });
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining('Unknown tool WebFetch') });
  });

  it('only offers Bash when bash is on PATH', () => {
    expect(ToolRegistry.available({ PATH: '/nonexistent' }).names).not.toContain('Bash');
    expect(ToolRegistry.available({ PATH: process.env.PATH }).names).toContain('Bash');
  });
});
