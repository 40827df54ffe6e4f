import { describe, expect, it } from 'vitest';
import { buildTurnModels, stableJson } from '../../harness/golden/golden-model.js';
import type { CanonicalEvent } from '../../harness/protocol/canonical.js';

describe('stableJson', () => {
  it('sorts object keys at every depth, so equal values print equal', () => {
    expect(stableJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}',
    );
    expect(stableJson({ x: 1, y: 2 })).toBe(stableJson({ y: 2, x: 1 }));
    expect(stableJson(undefined)).toBe('null');
  });
});

describe('buildTurnModels', () => {
  const text = (line: number, value: string): CanonicalEvent => ({ kind: 'text', line, text: value });
  const use = (line: number, id: string, file: string): CanonicalEvent => ({
    kind: 'tool_use',
    line,
    id,
    name: 'Read',
    input: { file_path: file },
  });
  const answer = (line: number, id: string, isError = false): CanonicalEvent => ({
    kind: 'tool_result',
    line,
    toolUseId: id,
    content: 'contents',
    isError,
  });
  const result = (line: number, isError = false): CanonicalEvent => ({ kind: 'result', line, isError });

  it('joins text per stretch, groups the calls between stretches with their results, and ends turns at results', () => {
    const turns = buildTurnModels(
      [
        { kind: 'init', line: 1 },
        text(2, 'Rea'),
        text(3, 'ding.'),
        use(4, 'a', 'one.txt'),
        use(5, 'b', 'two.txt'),
        answer(6, 'b', true),
        answer(7, 'a'),
        text(8, 'Done.'),
        result(9),
        text(10, 'Next.'),
        result(11, true),
      ],
      {},
    );
    expect(turns).toHaveLength(2);
    expect(turns[0]!.items.map((item) => item.kind)).toEqual(['text', 'tools', 'text', 'result']);
    const [first, tools] = turns[0]!.items;
    expect(first).toMatchObject({ kind: 'text', text: 'Reading.', lines: [2, 3] });
    expect(tools).toMatchObject({ kind: 'tools', lines: [4, 5, 6, 7] });
    const calls = tools!.kind === 'tools' ? tools!.calls : [];
    expect(calls.map((call) => [call.line, call.result?.isError, call.result?.line])).toEqual([
      [4, false, 7],
      [5, true, 6],
    ]);
    expect(calls[0]!.key).not.toBe(calls[1]!.key);
    expect(turns[1]!.items).toMatchObject([
      { kind: 'text', text: 'Next.' },
      { kind: 'result', isError: true },
    ]);
  });

  it('keeps an unfinished last turn, and gives equal calls equal keys', () => {
    const turns = buildTurnModels([use(1, 'a', 'x.txt'), answer(2, 'a'), result(3), use(4, 'c', 'x.txt')], {});
    expect(turns).toHaveLength(2);
    const key = (turn: number) => {
      const item = turns[turn]!.items[0]!;
      return item.kind === 'tools' ? item.calls[0]!.key : undefined;
    };
    expect(key(1)).toBeDefined();
    expect(key(1)).toBe(key(0));
    expect(turns[1]!.items.map((item) => item.kind)).toEqual(['tools']);
  });

  it('writes the workspace as <cwd> in text, so runs in different folders compare equal', () => {
    const [turn] = buildTurnModels([text(1, 'Wrote /tmp/run-1/ws/a.txt'), result(2)], { workspace: '/tmp/run-1/ws' });
    expect(turn!.items[0]).toMatchObject({ kind: 'text', text: 'Wrote <cwd>/a.txt' });
  });
});
