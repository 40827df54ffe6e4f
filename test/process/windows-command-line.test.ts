import { describe, expect, it } from 'vitest';
import {
  cmdInvocation,
  escapeCmdMetacharacters,
  quoteMsvcArgument,
  UnquotableArgumentError,
} from '../../harness/process/windows-command-line.js';

/** Undoes the MSVC quoting of one argument (the rules CommandLineToArgvW applies), to round-trip check it. */
function unquoteMsvc(quoted: string): string {
  expect(quoted.startsWith('"') && quoted.endsWith('"')).toBe(true);
  const body = quoted.slice(1, -1);
  let result = '';
  let index = 0;
  while (index < body.length) {
    let backslashes = 0;
    while (body[index] === '\\') {
      backslashes += 1;
      index += 1;
    }
    if (body[index] === '"') {
      result += `${'\\'.repeat(Math.floor(backslashes / 2))}"`;
      expect(backslashes % 2).toBe(1); // an unescaped quote would end the argument early
      index += 1;
    } else if (index >= body.length) {
      expect(backslashes % 2).toBe(0);
      result += '\\'.repeat(backslashes / 2);
    } else {
      result += '\\'.repeat(backslashes) + body[index];
      index += 1;
    }
  }
  return result;
}

describe('quoteMsvcArgument', () => {
  it.each([
    ['plain', '"plain"'],
    ['two words', '"two words"'],
    ['', '""'],
    ['say "hi"', '"say \\"hi\\""'],
    ['C:\\dir\\', '"C:\\dir\\\\"'],
    ['a\\"b', '"a\\\\\\"b"'],
    ['C:\\Program Files\\x', '"C:\\Program Files\\x"'],
  ])('quotes %j as %s', (argument, expected) => {
    expect(quoteMsvcArgument(argument)).toBe(expected);
    expect(unquoteMsvc(expected)).toBe(argument);
  });

  it('round-trips awkward arguments', () => {
    for (const argument of ['\\\\server\\share\\', 'x"y"z', '\\"', 'ünïcødé ✓', 'tab\there', 'end\\\\']) {
      expect(unquoteMsvc(quoteMsvcArgument(argument))).toBe(argument);
    }
  });
});

describe('escapeCmdMetacharacters', () => {
  it('escapes every cmd.exe metacharacter with a caret, once per pass', () => {
    expect(escapeCmdMetacharacters('a&b|c<d>e^f%g!h', 1)).toBe('a^&b^|c^<d^>e^^f^%g^!h');
    expect(escapeCmdMetacharacters('a&b', 2)).toBe('a^^^&b');
    expect(escapeCmdMetacharacters('"x y"', 1)).toBe('^"x^ y^"');
  });
});

describe('cmdInvocation', () => {
  it('runs the batch file through cmd.exe with verbatim, quoted arguments', () => {
    const invocation = cmdInvocation(
      'C:\\Program Files\\My Shim\\shim.cmd',
      ['--prompt', 'Fix & test "now"'],
      'C:\\Windows\\system32\\cmd.exe',
    );
    expect(invocation.file).toBe('C:\\Windows\\system32\\cmd.exe');
    expect(invocation.windowsVerbatimArguments).toBe(true);
    expect(invocation.args.slice(0, 3)).toEqual(['/d', '/s', '/c']);
    const line = invocation.args[3]!;
    // /s strips exactly the outer quotes; the batch path inside stays quoted so its spaces survive.
    expect(line.startsWith('""C:\\Program Files\\My Shim\\shim.cmd" ')).toBe(true);
    expect(line.endsWith('"')).toBe(true);
    // Each argument: MSVC-quoted, then caret-escaped twice (cmd.exe parses it again when the batch forwards %*).
    expect(line).toContain(' ^^^"--prompt^^^" ');
    expect(line).toContain('^^^"Fix^^^ ^^^&^^^ test^^^ \\^^^"now\\^^^"^^^"');
    // No metacharacter survives unescaped outside the quoted batch path.
    const rest = line.slice('""C:\\Program Files\\My Shim\\shim.cmd" '.length, -1);
    expect(rest.replace(/\^./g, '')).not.toMatch(/[&|<>"%^]/);
  });

  it('falls back to cmd.exe by name without ComSpec', () => {
    expect(cmdInvocation('shim.bat', []).file).toBe('cmd.exe');
  });

  it('refuses an argument with a line break, naming the batch file and the fix', () => {
    expect(() => cmdInvocation('C:\\s\\shim.cmd', ['--prompt', 'line 1\nline 2'])).toThrow(UnquotableArgumentError);
    expect(() => cmdInvocation('C:\\s\\shim.cmd', ['a\r\nb'])).toThrow(/shim\.cmd.*\.exe or \.js/);
  });
});
