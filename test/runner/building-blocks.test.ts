// Small runner parts: the workspace check, the live stdout watcher, the line diff, golden files.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goldenFileName, goldenText } from '../../harness/runner/golden-files.js';
import { diffLines, formatDiff } from '../../harness/runner/line-diff.js';
import { isAssistantText, LiveStdout } from '../../harness/runner/live-stdout.js';
import {
  checkWorkspace,
  createRunDirectories,
  removeRunDirectories,
  snapshotTree,
  treeDifferences,
} from '../../harness/runner/workspace.js';

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

  it('creates fresh run directories seeded from the fixtures, and removes them', async () => {
    const dirs = await createRunDirectories('a/b c', tree({ 'hello.txt': 'hi' }));
    expect((await snapshotTree(dirs.workspace)).get('hello.txt')).toMatchObject({ kind: 'file', text: 'hi' });
    expect((await snapshotTree(dirs.home)).size).toBe(0);
    await removeRunDirectories(dirs);
    expect((await snapshotTree(dirs.root)).size).toBe(0);
  });
});

describe('LiveStdout', () => {
  it('splits chunks on 0x0A only, across chunk boundaries, and resolves waits in order', async () => {
    const live = new LiveStdout();
    const firstText = live.waitFor(isAssistantText);
    const bytes = Buffer.from(
      '{"type":"system","subtype":"init"}\n{"type":"text","content":"h\u00e9"}\r\nnot json\n{"type":"result","is_error":false}',
    );
    live.push(bytes.subarray(0, 40), 1);
    live.push(bytes.subarray(40, 60), 2); // cuts the é in the middle
    live.push(bytes.subarray(60), 3);
    expect(await firstText).toMatchObject({ event: { kind: 'text', line: 2, text: 'hé' }, atMs: 3 });
    expect(live.count('result')).toBe(0); // the last line has no newline yet
    live.push(Buffer.from('\n'), 4);
    expect(live.events.map((timed) => timed.event.kind)).toEqual(['init', 'text', 'result']);
    const never = live.waitFor((event) => event.kind === 'interrupt');
    live.close();
    expect(await never).toBeUndefined();
  });
});

describe('line diff', () => {
  it('marks removed and added lines with their numbers and shows a little context', () => {
    expect(diffLines('a\nb\nc\n', 'a\nx\nc\n').map((line) => `${line.kind}${line.line}`)).toEqual([
      ' 1',
      '-2',
      '+2',
      ' 3',
    ]);
    expect(formatDiff('1\n2\n3\n4\n5\n6\n', '1\n2\n3\n4\n5\nsix\n')).toBe('   …\n     5 5\n-    6 6\n+    6 six');
    expect(formatDiff('same\n', 'same\n')).toBe('');
  });
});

describe('golden files (D3)', () => {
  it('names one golden per process', () => {
    expect([0, 1, 2].map(goldenFileName)).toEqual(['golden.jsonl', 'golden.2.jsonl', 'golden.3.jsonl']);
  });

  it('stabilises what changes on every run: paths, session ids, uuids, durations, cost', () => {
    const stdout = Buffer.from(
      '{"type":"system","subtype":"init","session_id":"s-9","cwd":"/tmp/r/workspace","uuid":"u1"}\r\n' +
        '{"type":"result","is_error":false,"session_id":"s-9","duration_ms":81,"duration_api_ms":70,"total_cost_usd":0.01,"uuid":"u2","result":"wrote /tmp/r/workspace/a"}\n',
    );
    expect(goldenText(stdout, { workspace: '/tmp/r/workspace' })).toBe(
      '{"type":"system","subtype":"init","session_id":"golden-session","cwd":"<cwd>","uuid":"golden-uuid-1"}\n' +
        '{"type":"result","is_error":false,"session_id":"golden-session","duration_ms":0,"duration_api_ms":0,"total_cost_usd":0,"uuid":"golden-uuid-2","result":"wrote <cwd>/a"}\n',
    );
  });
});
