// The workspace check: the tree a run leaves against the expected one, and fresh run directories.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkWorkspace,
  createRunDirectories,
  removeRunDirectories,
  snapshotTree,
  treeDifferences,
} from '../../../harness/runner/setup/workspace.js';

function tree(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'yc-tree-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

describe('workspace side effects', () => {
  it('passes an identical tree, ignoring CRLF in text files (git on Windows), but not in binary ones', async () => {
    const expected = tree({ 'a.txt': 'one\ntwo\n', 'sub/b.bin': Buffer.from([0xff, 0x0d, 0x0a]) });
    expect(
      await checkWorkspace(
        expected,
        tree({ 'a.txt': 'one\r\ntwo\r\n', 'sub/b.bin': Buffer.from([0xff, 0x0d, 0x0a]) }),
        'x',
      ),
    ).toEqual([]);
    const [binary] = await checkWorkspace(
      expected,
      tree({ 'a.txt': 'one\ntwo\n', 'sub/b.bin': Buffer.from([0xff, 0x0a]) }),
      'x',
    );
    expect(binary?.message).toContain('sub/b.bin: binary content differs (3 bytes expected, 2 found)');
  });

  it('names the missing, extra and changed files with the first differing line', async () => {
    const differences = treeDifferences(
      await snapshotTree(tree({ 'a.txt': 'one\ntwo\n', 'gone.txt': 'x' })),
      await snapshotTree(tree({ 'a.txt': 'one\n2\n', 'new.txt': 'y' })),
    );
    expect(differences).toEqual([
      'a.txt: line 2: expected "two", found "2"',
      'gone.txt: missing (expected a file)',
      'new.txt: unexpected file (not in the expected tree)',
    ]);
    const [finding] = await checkWorkspace(undefined, tree({ 'stray.log': '' }), 'the fixtures');
    expect(finding).toMatchObject({
      rule: 'workspace.matches',
      message: 'the workspace differs from the fixtures:\n  stray.log: unexpected file (not in the expected tree)',
    });
  });

  it('does not count the empty folders a real CLI leaves (codex’s sandbox mount points), and only those', async () => {
    const expected = tree({ 'a.txt': 'one\n' });
    const left = tree({ 'a.txt': 'one\n' });
    mkdirSync(path.join(left, '.codex'));
    mkdirSync(path.join(left, '.aws'));
    expect(await checkWorkspace(expected, left, 'x', ['.codex', '.aws'])).toEqual([]);
    const [untolerated] = await checkWorkspace(expected, left, 'x');
    expect(untolerated?.message).toContain('.codex: unexpected dir');
    writeFileSync(path.join(left, '.codex', 'config.toml'), 'written by the shim');
    const [filled] = await checkWorkspace(expected, left, 'x', ['.codex', '.aws']);
    expect(filled?.message).toContain('.codex: unexpected dir');
    expect(filled?.message).toContain('.codex/config.toml: unexpected file');
    expect(filled?.message).not.toContain('.aws');
  });

  it('creates fresh run directories seeded from the fixtures, and removes them', async () => {
    const dirs = await createRunDirectories('a/b c', tree({ 'hello.txt': 'hi' }));
    expect((await snapshotTree(dirs.workspace)).get('hello.txt')).toMatchObject({ kind: 'file', text: 'hi' });
    expect((await snapshotTree(dirs.home)).size).toBe(0);
    await removeRunDirectories(dirs);
    expect((await snapshotTree(dirs.root)).size).toBe(0);
  });
});
