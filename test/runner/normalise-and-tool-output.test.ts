import { describe, expect, it } from 'vitest';
import { toCanonicalEvents } from '../../harness/protocol/canonical.js';
import { buildTurnModels } from '../../harness/runner/golden-model.js';
import { normalisePath, normaliseText, normaliseToolInput, toolResultText } from '../../harness/runner/normalise.js';
import { checkToolOutputs, withoutLineNumbers } from '../../harness/runner/tool-output-check.js';
import type { Turn } from '../../harness/mock/scenario-types.js';

describe('normalisation (R10)', () => {
  const unix = { workspace: '/tmp/yc-1/workspace', home: '/tmp/yc-1/home' };
  const windows = { workspace: 'C:\\Users\\ci\\AppData\\Local\\Temp\\yc-1\\workspace' };

  it('replaces the workspace and HOME in every spelling, longest first, and line endings', () => {
    expect(normaliseText('cwd /tmp/yc-1/workspace/a, home /tmp/yc-1/home/.yume\r\nend', unix)).toBe(
      'cwd <cwd>/a, home <home>/.yume\nend',
    );
    expect(normaliseText('at C:\\Users\\ci\\AppData\\Local\\Temp\\yc-1\\workspace\\x.txt', windows)).toBe(
      'at <cwd>\\x.txt',
    );
    expect(normaliseText(JSON.stringify('C:\\Users\\ci\\AppData\\Local\\Temp\\yc-1\\workspace'), windows)).toBe(
      '"<cwd>"',
    );
    expect(normaliseText('C:/Users/ci/AppData/Local/Temp/yc-1/workspace/y', windows)).toBe('<cwd>/y');
  });

  it('writes file paths as <cwd>/relative whatever form the shim printed', () => {
    for (const form of ['notes.txt', './notes.txt', '/tmp/yc-1/workspace/notes.txt', 'sub/../notes.txt']) {
      expect(normalisePath(form, unix)).toBe('<cwd>/notes.txt');
    }
    expect(normalisePath('C:\\Users\\ci\\AppData\\Local\\Temp\\yc-1\\workspace\\dir\\n.txt', windows)).toBe(
      '<cwd>/dir/n.txt',
    );
    expect(normalisePath('/etc/passwd', unix)).toBe('/etc/passwd');
    expect(
      normaliseToolInput({ file_path: 'a.txt', content: 'in /tmp/yc-1/workspace', z: 1, a: [{ path: '.' }] }, unix),
    ).toEqual({
      a: [{ path: '<cwd>' }],
      content: 'in <cwd>',
      file_path: '<cwd>/a.txt',
      z: 1,
    });
  });

  it('reads tool_result content as text in each shape the app accepts', () => {
    expect(toolResultText('plain')).toBe('plain');
    expect(
      toolResultText([
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ]),
    ).toBe('a\nb');
    expect(toolResultText({ output: 'out' })).toBe('out');
    expect(toolResultText({ content: 'c' })).toBe('c');
    expect(toolResultText(null)).toBe('');
  });
});

describe('tool output by substance (golden.tool-results)', () => {
  const turn: Turn = {
    prompt: 'p',
    responses: [
      {
        toolCalls: [
          { id: 'read-1', name: 'Read', input: { file_path: 'hello.txt' } },
          { id: 'bash-1', name: 'Bash', input: { command: 'false' } },
        ],
      },
    ],
    expect: {
      isError: false,
      toolResults: [
        { id: 'read-1', isError: false, contains: ['Hello there.\nSecond line.'] },
        { id: 'bash-1', isError: true },
      ],
    },
  };
  const observed = (readContent: string, bashError = true) =>
    buildTurnModels(
      toCanonicalEvents(
        [
          { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/w/hello.txt' } },
          { type: 'tool_result', tool_use_id: 't1', content: readContent },
          { type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'false' } },
          { type: 'tool_result', tool_use_id: 't2', content: 'exit 1', is_error: bashError },
          { type: 'result', is_error: false },
        ]
          .map((line) => JSON.stringify(line))
          .join('\n'),
      ),
      { workspace: '/w' },
    )[0];

  it('finds the fixture lines in cat -n numbered output, with CRLF', () => {
    expect(
      checkToolOutputs(turn, observed('     1\tHello there.\r\n     2\tSecond line.'), {
        context: { workspace: '/w' },
      }),
    ).toEqual([]);
    expect(withoutLineNumbers('  12→x\n3: y')).toBe('x\ny');
  });

  it('catches a made-up output and a wrong is_error', () => {
    const [made] = checkToolOutputs(turn, observed('done'), { context: { workspace: '/w' } });
    expect(made).toMatchObject({ rule: 'golden.tool-results', line: 2, excerpt: 'done' });
    expect(made?.message).toContain('does not contain "Hello there.\\nSecond line."');
    const [wrong] = checkToolOutputs(turn, observed('Hello there.\nSecond line.', false), {
      context: { workspace: '/w' },
    });
    expect(wrong?.message).toContain('bash-1 was answered with is_error false; the scenario expects true');
  });

  it('compares a Type-B transcript without what the CLI does not print', () => {
    const cli = { outputNotPrinted: ['Read'], shellFailureAsSuccess: true };
    expect(checkToolOutputs(turn, observed('', false), { context: { workspace: '/w' }, cli })).toEqual([]);
  });
});
