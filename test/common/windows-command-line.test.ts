// Windows command lines: every hard argument quoted by common/windows-command-line.ts comes back unchanged
// from reference models of cmd.exe and the C runtime (test/helpers/windows-parsers.ts), and what cmd.exe
// cannot carry is refused with UnquotableArgumentError. On Windows, real cmd.exe runs the same table.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { YumeError } from '../../common/errors.js';
import {
  cmdCanCarry,
  cmdInvocation,
  escapeCmdMetacharacters,
  quoteForBatchFile,
  quoteWindowsArgument,
  UnquotableArgumentError,
} from '../../common/windows-command-line.js';
import { writeCommandShim } from '../../harness/process/command-shims.js';
import {
  argvThroughBatchLauncher,
  CmdModelError,
  cmdReadLine,
  parseWindowsArguments,
} from '../helpers/windows-parsers.js';

/** Arguments that break naive quoting: each cmd.exe metacharacter, whitespace, quotes and backslashes. */
const HARD_ARGUMENTS = [
  'plain',
  'two words',
  'tab\there',
  ' leading and trailing ',
  'say "hi"',
  '"',
  '""',
  'a""b',
  "single'quote",
  'caret^',
  '^^',
  'a&b',
  'a|b',
  'a<b',
  'a>b',
  '(paren)',
  ')',
  '!bang!',
  'a;b,c=d',
  '*?[x]`y`',
  'C:\\dir\\',
  'C:\\dir with space\\\\',
  '\\\\server\\share\\',
  '\\',
  'a\\"b',
  'a\\\\"b',
  '\\"',
  'x"y"z\\',
  '',
  'ünïcødé ✓ 日本語 😀',
  '$HOME `id` $(id)',
  'Fix & test "now" | tee > out.txt',
];

describe('the reference models follow their documentation', () => {
  it.each([
    // The table of https://learn.microsoft.com/en-us/cpp/c-language/parsing-c-command-line-arguments
    ['"a b c" d e', ['a b c', 'd', 'e']],
    ['"ab\\"c" "\\\\" d', ['ab"c', '\\', 'd']],
    ['a\\\\\\b d"e f"g h', ['a\\\\\\b', 'de fg', 'h']],
    ['a\\\\\\"b c d', ['a\\"b', 'c', 'd']],
    ['a\\\\\\\\"b c" d e', ['a\\\\b c', 'd', 'e']],
    ['a"b"" c d', ['ab" c d']],
    ['"" x', ['', 'x']],
  ])('the C runtime splits %s into %j', (line, argv) => {
    expect(parseWindowsArguments(line)).toEqual(argv);
  });

  it('cmd.exe: carets escape outside quotes only, and unescaped command syntax or "%" is refused', () => {
    expect(cmdReadLine('a ^& b ^^ ^"c', { context: 'command-line' })).toBe('a & b ^ "c');
    expect(cmdReadLine('"a ^& b"', { context: 'command-line' })).toBe('"a ^& b"');
    expect(cmdReadLine('x %% %*', { context: 'batch-file', batchArguments: 'y^&z' })).toBe('x % y&z');
    expect(() => cmdReadLine('a & b', { context: 'command-line' })).toThrow(CmdModelError);
    expect(() => cmdReadLine('^"a & b^"', { context: 'command-line' })).toThrow(/unescaped "&"/);
    expect(() => cmdReadLine('50%', { context: 'command-line' })).toThrow(/depends on the environment/);
    expect(() => cmdReadLine('%PATH%', { context: 'batch-file' })).toThrow(/variable reference/);
  });
});

describe('quoteWindowsArgument (C runtime rules)', () => {
  it.each([
    ['plain', '"plain"'],
    ['', '""'],
    ['say "hi"', '"say \\"hi\\""'],
    ['C:\\dir\\', '"C:\\dir\\\\"'],
    ['a\\"b', '"a\\\\\\"b"'],
  ])('quotes %j as %s', (argument, quoted) => {
    expect(quoteWindowsArgument(argument)).toBe(quoted);
  });

  it.each(HARD_ARGUMENTS)('%j comes back as one argument', (argument) => {
    expect(parseWindowsArguments(quoteWindowsArgument(argument))).toEqual([argument]);
  });
});

describe('cmdInvocation (a .cmd/.bat started through cmd.exe /d /s /c)', () => {
  const batchFile = 'C:\\Program Files\\My Shim\\shim.cmd';

  it('starts cmd.exe with verbatim arguments, the batch path in plain quotes', () => {
    const invocation = cmdInvocation(batchFile, ['--prompt', 'x'], 'C:\\Windows\\system32\\cmd.exe');
    expect(invocation.file).toBe('C:\\Windows\\system32\\cmd.exe');
    expect(invocation.windowsVerbatimArguments).toBe(true);
    expect(invocation.args.slice(0, 3)).toEqual(['/d', '/s', '/c']);
    expect(invocation.args[3]!.startsWith(`""${batchFile}" `)).toBe(true);
    expect(cmdInvocation('shim.bat', []).file).toBe('cmd.exe');
  });

  it('survives cmd.exe twice (the line, then the launcher forwarding %*) and the C runtime', () => {
    const invocation = cmdInvocation(batchFile, HARD_ARGUMENTS);
    expect(argvThroughBatchLauncher(invocation.args, batchFile)).toEqual(HARD_ARGUMENTS);
  });

  it('needs both caret passes: escaped once, the launcher would see command syntax', () => {
    // After one pass the quotes are plain again; cmd.exe pairs them without regard to the C runtime's \",
    // which leaves the & outside a quoted stretch.
    const once = `""${batchFile}" ${escapeCmdMetacharacters(quoteWindowsArgument('say "a & b"'), 1)}"`;
    expect(() => argvThroughBatchLauncher(['/d', '/s', '/c', once], batchFile)).toThrow(CmdModelError);
  });

  it.each([
    ['a "%"', '100%'],
    ['a variable reference', '%PATH%'],
    ['a line feed', 'line 1\nline 2'],
    ['a carriage return', 'a\r\nb'],
    ['a NUL character', 'a\0b'],
  ])('refuses %s with UnquotableArgumentError, naming the batch file and what to do', (_, argument) => {
    expect(cmdCanCarry(argument)).toBe(false);
    let thrown: unknown;
    try {
      cmdInvocation(batchFile, ['--prompt', argument]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnquotableArgumentError);
    expect(thrown).toBeInstanceOf(YumeError);
    const error = thrown as UnquotableArgumentError;
    expect(error).toMatchObject({ name: 'UnquotableArgumentError', code: 'UNQUOTABLE_ARGUMENT', argument });
    expect(error.message).toContain('shim.cmd');
    expect(error.message).toMatch(/\.exe or \.js/);
    expect(error.message).not.toMatch(/\n/);
  });

  it('carries every hard argument (nothing in the table is refused)', () => {
    expect(HARD_ARGUMENTS.filter((argument) => !cmdCanCarry(argument))).toEqual([]);
  });
});

describe('quoteForBatchFile (an argument written into a .cmd file)', () => {
  const withPercents = [...HARD_ARGUMENTS, '50% off %PATH%', '%%', '%*', '%1', '%~dp0'];

  it('survives the batch file line ("%" doubled) and the C runtime', () => {
    const line = `"program" ${withPercents.map(quoteForBatchFile).join(' ')} %*`;
    const read = cmdReadLine(line, { context: 'batch-file', batchArguments: '' });
    expect(parseWindowsArguments(read.slice('"program"'.length))).toEqual(withPercents);
  });

  it('refuses a line break or NUL, which would end the batch line', () => {
    for (const argument of ['a\nb', 'a\rb', 'a\0b']) {
      expect(() => quoteForBatchFile(argument)).toThrow(UnquotableArgumentError);
    }
  });
});

describe('a real launcher on this machine', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'yume-quoting-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // On Windows this is the real round trip: cmd.exe reads the line from cmdInvocation, runs the .cmd written
  // with quoteForBatchFile, which forwards %* to node. Elsewhere the POSIX launcher of the same spec runs.
  it('receives the hard arguments unchanged', async () => {
    const script = path.join(dir, 'print argv.cjs');
    writeFileSync(script, 'process.stdout.write(JSON.stringify(process.argv.slice(2)));\n');
    const fixed = ['fixed & "quoted" ^ 100%', 'C:\\trailing\\'];
    const shim = await writeCommandShim(dir, 'print-argv', { kind: 'node', script, args: fixed });
    const started =
      process.platform === 'win32'
        ? cmdInvocation(shim.windows, HARD_ARGUMENTS, process.env.ComSpec)
        : { file: shim.posix, args: HARD_ARGUMENTS, windowsVerbatimArguments: false };
    const result = spawnSync(started.file, started.args, {
      windowsVerbatimArguments: started.windowsVerbatimArguments,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.error).toBeUndefined();
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual([...fixed, ...HARD_ARGUMENTS]);
  });
});
