import { describe, expect, it } from 'vitest';
import { compareWithGolden, textDifference, usageDifference } from '../../../harness/golden/compare/golden-compare.js';
import { buildTurnModels } from '../../../harness/golden/golden-model.js';
import { toCanonicalEvents } from '../../../harness/protocol/canonical.js';
import { ruleById } from '../../../harness/rules/catalog.js';

const lines = (...messages: object[]) => `${messages.map((message) => JSON.stringify(message)).join('\n')}\n`;
const init = {
  type: 'system',
  subtype: 'init',
  session_id: 's1',
  model: 'm',
  cwd: '/w',
  permissionMode: 'default',
  tools: ['Read'],
};

/** A flat golden: text, two parallel reads, more text, result. */
const golden = lines(
  init,
  { type: 'text', content: 'Reading ' },
  { type: 'text', content: 'both.' },
  { type: 'tool_use', id: 'call_a', name: 'Read', input: { file_path: 'a.txt' } },
  { type: 'tool_result', tool_use_id: 'call_a', content: '1\tA', is_error: false },
  { type: 'tool_use', id: 'call_b', name: 'Read', input: { file_path: 'b.txt' } },
  { type: 'tool_result', tool_use_id: 'call_b', content: 'missing', is_error: true },
  { type: 'text', content: 'Done.' },
  { type: 'result', is_error: false, usage: { input_tokens: 10, output_tokens: 5 } },
  { type: 'message_stop' },
);

function compare(observed: string, workspace = '/tmp/run/workspace') {
  const expected = buildTurnModels(toCanonicalEvents(golden), {});
  return compareWithGolden(
    { label: 'golden.jsonl', turns: expected },
    buildTurnModels(toCanonicalEvents(observed), { workspace }),
    'stdout',
  );
}

describe('golden comparison (R10)', () => {
  it('accepts the envelope dialect, other chunking, other ids, another call order, absolute paths and CRLF', () => {
    const observed = lines(
      { ...init, session_id: 'other', cwd: '/tmp/run/workspace' },
      { type: 'assistant', message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: 'Read' }] } },
      {
        type: 'assistant',
        message: {
          id: 'msg_1',
          role: 'assistant',
          content: [
            { type: 'text', text: 'ing both.' },
            { type: 'thinking', thinking: 'hmm' },
          ],
        },
      },
      {
        type: 'assistant',
        message: {
          id: 'msg_1',
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'x2', name: 'Read', input: { file_path: '/tmp/run/workspace/b.txt' } },
            { type: 'tool_use', id: 'x1', name: 'Read', input: { file_path: './a.txt' } },
          ],
        },
      },
      {
        type: 'user',
        message: {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'x1', content: 'A', is_error: false },
            { type: 'tool_result', tool_use_id: 'x2', content: 'no such file', is_error: true },
          ],
        },
      },
      { type: 'usage', input_tokens: 4, output_tokens: 2 },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] } },
      {
        type: 'result',
        subtype: 'success',
        is_error: false,
        duration_ms: 999,
        total_cost_usd: 1,
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    ).replace(/\n/g, '\r\n');
    expect(compare(observed)).toEqual([]);
  });

  it('reports a text difference with expected and observed around it, with line numbers', () => {
    const observed = golden.replace('"both."', '"one."');
    const [finding, ...rest] = compare(observed);
    expect(rest).toEqual([]);
    expect(finding?.rule).toBe('golden.text');
    expect(finding?.line).toBe(2);
    expect(finding?.message).toContain('text differs at character 9');
    expect(finding?.message).toContain('expected (golden.jsonl):\n  > L2-3     text "Reading both."');
    expect(finding?.message).toContain('observed (stdout):\n  > L2-3     text "Reading one."');
    expect(finding?.message).toMatch(/L4-7\s+tools \[Read/);
  });

  it('reports a different tool input, a missing tool_result and a different is_error as golden.tool-calls', () => {
    expect(compare(golden.replace('"b.txt"', '"c.txt"'))[0]).toMatchObject({
      rule: 'golden.tool-calls',
      message: expect.stringContaining('missing Read {"file_path":"<cwd>/b.txt"}'),
    });
    const noResult = golden
      .split('\n')
      .filter((line) => !line.includes('"tool_use_id":"call_b"'))
      .join('\n');
    expect(compare(noResult)[0]?.message).toContain('has no tool_result answering its id');
    expect(compare(golden.replace('"is_error":true', '"is_error":false'))[0]?.message).toContain(
      'answered with is_error false, expected true',
    );
  });

  it("gives a fix that fits the difference: an is_error difference names is_error, not the calls' names", () => {
    const generic = ruleById('golden.tool-calls').fix;
    const isError = compare(golden.replace('"is_error":true', '"is_error":false'))[0];
    expect(isError?.fix).toContain('`is_error: true`');
    expect(isError?.fix).not.toBe(generic);
    const input = compare(golden.replace('"b.txt"', '"c.txt"'))[0];
    expect(input?.fix).toMatch(/input fields through unchanged/);
    expect(input?.fix).not.toMatch(/is_error/);
    const noResult = golden
      .split('\n')
      .filter((line) => !line.includes('"tool_use_id":"call_b"'))
      .join('\n');
    expect(compare(noResult)[0]?.fix).toMatch(/tool_use_id/);
    const resultFlag = compare(golden.replace('"result","is_error":false', '"result","is_error":true'))[0];
    expect(resultFlag?.fix).toMatch(/is_error: false/);
  });

  it('reports result is_error, usage totals and a different number of turns', () => {
    expect(compare(golden.replace('"result","is_error":false', '"result","is_error":true'))[0]?.rule).toBe(
      'golden.result',
    );
    const usage = compare(golden.replace('"input_tokens":10', '"input_tokens":11'))[0];
    expect(usage?.rule).toBe('usage.totals');
    expect(usage?.message).toContain('expected usage 10 in / 5 out, observed usage 11 in / 5 out');
    const twoTurns = golden + lines({ type: 'text', content: 'again' }, { type: 'result', is_error: false });
    expect(compare(twoTurns).map((finding) => finding.rule)).toContain('golden.turns');
  });

  it("reports a missing result as the turn's first difference", () => {
    const cut = golden
      .split('\n')
      .filter((line) => !line.includes('"type":"result"'))
      .join('\n');
    expect(compare(cut)[0]).toMatchObject({
      rule: 'golden.result',
      message: expect.stringContaining('missing result success'),
    });
  });
});

describe('usageDifference (R4)', () => {
  it('compares reported totals exactly, estimates only for being above 0', () => {
    expect(usageDifference({ inputTokens: 3, outputTokens: 4 }, { inputTokens: 3, outputTokens: 4 })).toBeUndefined();
    expect(
      usageDifference({ inputTokens: 3, outputTokens: 4 }, { inputTokens: 3, outputTokens: 4, estimated: true }),
    ).toMatch(/estimate/);
    expect(
      usageDifference({ estimated: true, inputTokens: 1 }, { inputTokens: 50, outputTokens: 9, estimated: true }),
    ).toBeUndefined();
    expect(usageDifference({ estimated: true, inputTokens: 1 }, { inputTokens: 0, outputTokens: 0 })).toMatch(
      /above 0/,
    );
    expect(usageDifference(undefined, { inputTokens: 1, outputTokens: 1 })).toBeUndefined();
  });

  it('lets a turn omit usage only where its golden reports none (R4: no provider call succeeded)', () => {
    expect(usageDifference(undefined, undefined)).toBeUndefined();
    expect(usageDifference({ inputTokens: 3, outputTokens: 4 }, undefined)).toMatch(/no usage/);
    expect(usageDifference({ inputTokens: 3, outputTokens: 4 }, { inputTokens: 9, outputTokens: 4 })).toMatch(
      /observed usage 9/,
    );
  });

  it('holds an error turn to the usage of the calls that completed before it ended', () => {
    const golden = [
      {
        items: [
          { kind: 'text' as const, text: 'Running it.', lines: [2] },
          { kind: 'result' as const, isError: true, usage: { inputTokens: 128, outputTokens: 22 }, lines: [5] },
        ],
      },
    ];
    const dropped = [{ items: [{ ...golden[0]!.items[0]! }, { kind: 'result' as const, isError: true, lines: [5] }] }];
    const [finding, ...rest] = compareWithGolden({ label: 'golden.jsonl', turns: golden }, dropped, 'stdout');
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ rule: 'usage.totals', line: 5 });
    expect(finding!.message).toMatch(/expected usage 128 in \/ 22 out, observed no usage/);
    expect(compareWithGolden({ label: 'golden.jsonl', turns: golden }, golden, 'stdout')).toEqual([]);
  });
});

describe('textDifference', () => {
  it('points at the first differing character with context', () => {
    expect(textDifference('hello world', 'hello there')).toBe(
      'text differs at character 7: expected …"hello world"…, observed …"hello there"…',
    );
  });

  it('a `__proto__` key in a tool input is a difference, as any extra key is', () => {
    const withInput = (input: string) =>
      golden.replace('"input":{"file_path":"a.txt"}', `"input":${input}`).replace(init.cwd, '/tmp/run/workspace');
    expect(compare(withInput('{"file_path":"a.txt"}'))).toEqual([]);
    const extra = compare(withInput('{"polluted":true,"file_path":"a.txt"}')).map((finding) => finding.rule);
    const proto = compare(withInput('{"__proto__":{"polluted":true},"file_path":"a.txt"}'));
    expect(extra).toContain('golden.tool-calls');
    expect(proto.map((finding) => finding.rule)).toContain('golden.tool-calls');
    expect(proto.find((finding) => finding.rule === 'golden.tool-calls')?.message).toContain('__proto__');
  });
});
