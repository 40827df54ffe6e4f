// lexicalProblems() on single lines: where a key is in force (objects, arrays, free data), nesting deeper than
// its depth table starts, and a line without problems. The rules' good/bad streams are in helpers/stream-cases.ts.
import { describe, expect, it } from 'vitest';
import { lexicalProblems, UnicodeEscapeIndex } from '../../harness/rules/checks/lexical.js';

function problems(line: string) {
  const bytes = Buffer.from(`  ${line}  `);
  // The line sits inside a larger buffer, as it does in a stream: columns count from its own start.
  return lexicalProblems(bytes, 2, bytes.length - 2).map(({ rule, column }) => `${rule}@${column}`);
}

describe('lexicalProblems', () => {
  it('finds nothing in a line written as the contract wants', () => {
    expect(problems('{"type":"result","usage":{"input_tokens":121,"output_tokens":30},"total_cost_usd":0.5}')).toEqual(
      [],
    );
  });

  it('flags an integer field in an object inside an array, not the array items before it', () => {
    const line = '{"type":"x","list":[1.5,{"input_tokens":2.0}]}';
    expect(problems(line)).toEqual([`framing.integer-lexeme@${line.indexOf('2.0') + 1}`]);
  });

  it('leaves free data alone and judges the protocol field after it', () => {
    const line = '{"input":{"duration_ms":1.5,"more":{"num_turns":2e0}},"duration_ms":2.0}';
    expect(problems(line)).toEqual([`framing.integer-lexeme@${line.lastIndexOf('2.0') + 1}`]);
  });

  it('matches key names exactly: a key one letter off is neither free data nor an integer field', () => {
    const offByOne = '{"inpux":{"duration_ms":1.5}}';
    expect(problems(offByOne)).toEqual([`framing.integer-lexeme@${offByOne.indexOf('1.5') + 1}`]);
    expect(problems('{"duration_mx":1.5,"duration_m":1.5,"xduration_ms":1.5}')).toEqual([]);
  });

  it('compares keys as written: a letter written as an escape makes another key', () => {
    // "input" with its u written as \u0075 is not read as free data, so the integer field inside is judged.
    const line = '{"inp\\u0075t":{"num_turns":3.0}}';
    expect(problems(line)).toEqual([`framing.integer-lexeme@${line.indexOf('3.0') + 1}`]);
  });

  it('reports each rule once, at its first place', () => {
    const line = '{"a":"\\udc00 \\udc01","usage":{"input_tokens":1.0,"output_tokens":2.0}}';
    expect(problems(line)).toEqual([
      `framing.lone-surrogate@${line.indexOf('\\udc00') + 1}`,
      `framing.integer-lexeme@${line.indexOf('1.0') + 1}`,
    ]);
  });

  it('keeps track of objects and arrays past a thousand levels', () => {
    const depth = 1000;
    const line = `${'[{"k":'.repeat(depth)}{"input_tokens":1.0}${'}]'.repeat(depth)}`;
    const found = problems(line);
    expect(found).toContain(`framing.nesting-depth@${'[{"k":'.repeat(63).length + 2}`);
    expect(found).toContain(`framing.integer-lexeme@${line.indexOf('1.0') + 1}`);
  });

  it.each([
    ['an escaped quote inside a string', String.raw`{"a":"x\"y, \"z\"","input_tokens":1.0}`],
    ['a string ending in an escaped backslash', String.raw`{"a":"x\\","input_tokens":1.0}`],
    ['an escaped backslash, then an escaped quote', String.raw`{"a":"x\\\"}{","input_tokens":1.0}`],
    ['a string that only holds backslashes and quotes', String.raw`{"a":"\\\\\"\"\\","input_tokens":1.0}`],
  ])('finds where a string ends past %s', (_name, line) => {
    expect(problems(line)).toEqual([`framing.integer-lexeme@${line.indexOf('1.0') + 1}`]);
  });

  it('shares one index of \\u escapes across the lines of a stream, in order or not', () => {
    const lines = [
      String.raw`{"type":"text","content":"\u0041 is A"}`,
      String.raw`{"type":"text","content":"cut \ud83d"}`,
      '{"type":"usage","usage":{"input_tokens":1.0}}',
      String.raw`{"type":"text","content":"\\ud83d is text, not an escape"}`,
    ];
    const bytes = Buffer.from(`${lines.join('\n')}\n`);
    const spans = lines.map((line) => {
      const start = bytes.indexOf(line);
      return [start, start + Buffer.byteLength(line)] as const;
    });
    const judge = (escapes: UnicodeEscapeIndex, index: number) =>
      lexicalProblems(bytes, spans[index]![0], spans[index]![1], escapes).map((problem) => problem.rule);
    const expected = [[], ['framing.lone-surrogate'], ['framing.integer-lexeme'], []];
    const inOrder = new UnicodeEscapeIndex(bytes);
    expect([0, 1, 2, 3].map((index) => judge(inOrder, index))).toEqual(expected);
    const shuffled = new UnicodeEscapeIndex(bytes);
    expect([3, 1, 2, 0].map((index) => judge(shuffled, index))).toEqual([3, 1, 2, 0].map((index) => expected[index]));
  });
});
