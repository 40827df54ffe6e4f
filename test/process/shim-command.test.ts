import { describe, expect, it } from 'vitest';
import { shimSpawnCommand } from '../../harness/process/shim-command.js';

const node = '/usr/local/bin/node';

describe('shimSpawnCommand', () => {
  it.each(['shim.js', 'shim.mjs', 'shim.cjs', 'SHIM.JS'])('runs %s with the current Node on POSIX', (shim) => {
    expect(shimSpawnCommand(`/opt/shims/${shim}`, ['--a'], { platform: 'linux', execPath: node })).toEqual({
      file: node,
      args: [`/opt/shims/${shim}`, '--a'],
      kind: 'node',
    });
  });

  it('runs a .js shim with node.exe on Windows, path with spaces as one argv element', () => {
    const command = shimSpawnCommand('C:\\Program Files\\shim\\index.mjs', ['--cwd', 'C:\\work dir'], {
      platform: 'win32',
      execPath: 'C:\\node\\node.exe',
    });
    expect(command).toEqual({
      file: 'C:\\node\\node.exe',
      args: ['C:\\Program Files\\shim\\index.mjs', '--cwd', 'C:\\work dir'],
      kind: 'node',
    });
  });

  it.each(['shim.cmd', 'shim.BAT'])('starts %s through cmd.exe on Windows', (shim) => {
    const command = shimSpawnCommand(`C:\\shims\\${shim}`, ['start', 'a b'], {
      platform: 'win32',
      execPath: 'C:\\node\\node.exe',
      comspec: 'C:\\Windows\\system32\\cmd.exe',
    });
    expect(command.kind).toBe('batch');
    expect(command.file).toBe('C:\\Windows\\system32\\cmd.exe');
    expect(command.windowsVerbatimArguments).toBe(true);
    expect(command.args[3]).toContain(`"C:\\shims\\${shim}"`);
  });

  it('starts a .exe and a POSIX executable directly', () => {
    expect(shimSpawnCommand('C:\\bin\\shim.exe', ['x'], { platform: 'win32', execPath: node })).toEqual({
      file: 'C:\\bin\\shim.exe',
      args: ['x'],
      kind: 'direct',
    });
    expect(shimSpawnCommand('/usr/bin/my-shim', ['x'], { platform: 'darwin', execPath: node }).kind).toBe('direct');
    // A .cmd file means nothing special on POSIX.
    expect(shimSpawnCommand('/x/shim.cmd', [], { platform: 'linux', execPath: node }).kind).toBe('direct');
  });
});
