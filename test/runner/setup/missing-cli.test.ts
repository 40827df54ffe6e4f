import { mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hideProgramsFromPath, keepNodeReachable, programsOnPath } from '../../../harness/runner/setup/missing-cli.js';

let root: string;
let withCli: string;
let plain: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'yume-missing-cli-'));
  withCli = path.join(root, 'with-cli');
  plain = path.join(root, 'plain');
  mkdirSync(withCli);
  mkdirSync(plain);
  writeFileSync(path.join(withCli, 'gemini'), '');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('hideProgramsFromPath', () => {
  it('leaves out every PATH folder holding an official CLI, and keeps the others in order', () => {
    const hidden = hideProgramsFromPath({ PATH: [plain, withCli, '/usr/bin'].join(':'), HOME: 'h' }, 'linux', root);
    expect(hidden.parent.PATH).toBe([plain, '/usr/bin'].join(':'));
    expect(hidden.dropped).toEqual([withCli]);
    expect(hidden.parent.HOME).toBe('h');
  });

  it('resolves relative folders against cwd', () => {
    expect(hideProgramsFromPath({ PATH: 'with-cli' }, 'linux', root).dropped).toEqual(['with-cli']);
    expect(hideProgramsFromPath({ PATH: 'plain' }, 'linux', root).dropped).toEqual([]);
  });

  it('changes nothing without a PATH', () => {
    const parent = { HOME: 'h' };
    expect(hideProgramsFromPath(parent, 'linux', root)).toEqual({ parent, dropped: [] });
  });
});

describe('programsOnPath', () => {
  it('lists the files that would run one of the names', () => {
    expect(programsOnPath({ PATH: `${plain}:${withCli}` }, 'linux', root)).toEqual([path.join(withCli, 'gemini')]);
    expect(programsOnPath({ PATH: plain }, 'linux', root)).toEqual([]);
    expect(programsOnPath({ PATH: withCli }, 'linux', root, ['codex'])).toEqual([]);
  });

  it('does not count a folder of the same name', () => {
    mkdirSync(path.join(plain, 'claude'));
    expect(programsOnPath({ PATH: plain }, 'linux', root)).toEqual([]);
  });
});

describe('keepNodeReachable', () => {
  it('links node into the bin folder when a dropped folder held it, and does nothing otherwise', () => {
    const bin = path.join(root, 'bin');
    mkdirSync(bin);
    const node = path.join(withCli, 'node');
    expect(keepNodeReachable([plain], { nodePath: node, binDir: bin, platform: 'linux', cwd: root })).toBe(false);
    expect(keepNodeReachable([withCli], { nodePath: node, binDir: bin, platform: 'linux', cwd: root })).toBe(true);
    expect(readlinkSync(path.join(bin, 'node'))).toBe(node);
  });
});
