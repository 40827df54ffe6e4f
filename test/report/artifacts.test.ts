// `--artifacts DIR`: the folder names, the golden diff and the timeline a CI job uploads, written to a real
// temporary folder.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { goldenDiff, runFolderName, timelineText, writeArtifacts } from '../../harness/report/artifacts.js';
import type { ReportRun } from '../../harness/report/model.js';
import type { RunResult } from '../../harness/runner/results/run-types.js';

const reportRun = (extra: Record<string, unknown> = {}) =>
  ({
    scenario: 'plain-text',
    provider: 'gemini',
    invocation: 'spec',
    profile: 'spec',
    ...extra,
  }) as unknown as ReportRun;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const scratch = () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'artifacts-'));
  folders.push(folder);
  return folder;
};

describe('runFolderName', () => {
  it('names a run by its position and its point of the matrix, file-name safe', () => {
    expect(runFolderName(reportRun({ dialect: 'claude', seed: 7 }), 3)).toBe(
      '0003-plain-text-gemini-spec-spec-claude-seed7',
    );
    expect(runFolderName(reportRun({ index: 12, profile: '../my profile' }), 3)).toBe(
      '0012-plain-text-gemini-spec-..-my-profile',
    );
  });
});

describe('goldenDiff', () => {
  it('marks lines only the golden has with - and lines only the output has with +', () => {
    expect(goldenDiff('a\nb\nc\n', 'a\nB\nc\nd\n')).toBe(
      ['--- golden', '+++ observed stdout', '  a', '- b', '+ B', '  c', '+ d', ''].join('\n'),
    );
  });

  it('shows equal texts as unchanged lines only', () => {
    expect(goldenDiff('x\n', 'x\n')).toBe('--- golden\n+++ observed stdout\n  x\n');
  });
});

describe('timelineText', () => {
  it('prints time, source and text, indenting the lines of a multi-line text', () => {
    const text = timelineText([
      { atMs: 5, source: 'runner', text: 'spawned' },
      { atMs: 1234, source: 'shim', text: 'one\ntwo' },
    ]);
    expect(text).toBe(`      5 ms  runner  spawned\n   1234 ms  shim    one\n${' '.repeat(20)}two\n`);
  });
});

describe('writeArtifacts', () => {
  const result = {
    processes: [
      {
        label: 'turn 1',
        turns: [0],
        argv: [],
        stdout: Buffer.from('{"type":"text"}\n'),
        stderr: 'warn\n',
        exitCode: 0,
        signal: null,
        goldenText: '{"type":"result"}\n',
      },
    ],
    requests: [{ index: 0, turn: 0, method: 'POST', path: '/v1', status: 200 }],
    timeline: [{ atMs: 1, source: 'runner', text: 'spawned' }],
  } as unknown as RunResult;

  it('writes each process output, its golden and diff, the requests and the timeline, and names the folder', () => {
    const dir = scratch();
    const runs = [reportRun(), reportRun({ scenario: 'empty' })];
    const empty = { processes: [], requests: [], timeline: [] } as unknown as RunResult;
    writeArtifacts(dir, runs, [result, empty]);
    expect(runs[0]?.artifacts).toBe('0000-plain-text-gemini-spec-spec');
    expect(runs[1]?.artifacts).toBeUndefined();
    const folder = path.join(dir, runs[0]!.artifacts!);
    expect(readdirSync(dir)).toEqual([runs[0]!.artifacts]);
    expect(readdirSync(folder).sort()).toEqual([
      'requests.json',
      'timeline.txt',
      'turn-1.golden.diff',
      'turn-1.golden.jsonl',
      'turn-1.stderr.txt',
      'turn-1.stdout.jsonl',
    ]);
    expect(readFileSync(path.join(folder, 'turn-1.golden.diff'), 'utf8')).toContain('- {"type":"result"}');
    expect(JSON.parse(readFileSync(path.join(folder, 'requests.json'), 'utf8'))).toHaveLength(1);
  });

  it('fails with one line naming the folder when it cannot be written', () => {
    const file = path.join(scratch(), 'a-file');
    writeFileSync(file, '');
    expect(() => writeArtifacts(file, [reportRun()], [result])).toThrow(`cannot write artifacts to ${file} (EEXIST)`);
  });
});
