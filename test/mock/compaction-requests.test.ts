// What a request's history must hold around a compaction (docs/protocol.md#r21-compaction), by the script alone.
import { describe, expect, it } from 'vitest';
import { historyExpectation, nothingToCompact } from '../../harness/mock/compaction-requests.js';
import { loadScenario } from '../../harness/mock/scenario/scenario-loader.js';
import { transcripts } from '../runner/helpers/run-fixture.js';

const load = (id: string) => loadScenario(`${transcripts}/${id}`);

describe('history around a compaction', () => {
  it('after /compact: the summary, not turn 1 (the command itself is never history)', () => {
    const compact = load('compact');
    expect(historyExpectation(compact, 1)).toEqual({ kept: [0], compacted: [] });
    expect(historyExpectation(compact, 2)).toEqual({
      compaction: {
        turn: 1,
        summary: 'Summary: the user asked to read hello.txt; its first line is "Hello from the fixture file."',
      },
      kept: [],
      compacted: [0],
    });
  });

  it('an interrupted /compact compacted nothing: the next turn carries all of turn 1', () => {
    expect(historyExpectation(load('compact-interrupted'), 2)).toEqual({ kept: [0], compacted: [] });
  });

  it('an automatic compaction replaces the turns before its own, whose prompt stays', () => {
    expect(historyExpectation(load('fault-context-overflow'), 2)).toMatchObject({ kept: [1], compacted: [0] });
  });

  it('knows a /compact that meets a session with nothing in it', () => {
    expect(nothingToCompact(load('compact-empty'), 0)).toBe(true);
    expect(nothingToCompact(load('compact'), 1)).toBe(false);
  });
});
