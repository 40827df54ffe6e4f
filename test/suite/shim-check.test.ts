import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shimStartProblem } from '../../harness/suite/shim-check.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'yume-shim-check-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function script(name: string, text: string, mode = 0o755): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  chmodSync(file, mode);
  return file;
}

describe('shimStartProblem', () => {
  it('names a missing file and a directory', () => {
    expect(shimStartProblem(path.join(dir, 'nope'), 'nope', 'linux')).toMatch(/nope does not exist/);
    mkdirSync(path.join(dir, 'folder'));
    expect(shimStartProblem(path.join(dir, 'folder'), 'folder', 'linux')).toMatch(/directory/);
  });

  it('accepts a .js file without execute permission (Node starts it), and any file on Windows', () => {
    expect(shimStartProblem(script('shim.mjs', 'console.log(1)', 0o644), 'shim.mjs', 'linux')).toBeUndefined();
    expect(shimStartProblem(script('shim.cmd', '#!\n', 0o644), 'shim.cmd', 'win32')).toBeUndefined();
  });

  it.skipIf(process.platform === 'win32')(
    'refuses a file without execute permission, and one whose #! interpreter is missing',
    () => {
      expect(shimStartProblem(script('shim', '#!/bin/sh\n', 0o644), 'shim', 'linux')).toMatch(/chmod \+x shim/);
      expect(shimStartProblem(script('bad', '#!/no/such/interpreter\n'), 'bad', 'linux')).toBeDefined();
      expect(shimStartProblem(script('empty', '#!\n'), 'empty', 'linux')).toMatch(/names no interpreter/);
      expect(
        shimStartProblem(script('envmissing', '#!/usr/bin/env no-such-program-xyz\n'), 'envmissing', 'linux', {
          PATH: dir,
        }),
      ).toBeDefined();
    },
  );

  it.skipIf(process.platform === 'win32')('accepts an executable script whose interpreter exists', () => {
    expect(shimStartProblem(script('good', '#!/bin/sh\necho hi\n'), 'good', 'linux')).toBeUndefined();
    expect(shimStartProblem(script('plain', 'echo hi\n'), 'plain', 'linux')).toBeUndefined();
  });
});
