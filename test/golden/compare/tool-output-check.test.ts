// Tool output checked by substance (golden.tool-results), not byte for byte.
import { describe, expect, it } from 'vitest';
import { checkToolOutputs, withoutLineNumbers } from '../../../harness/golden/compare/tool-output-check.js';
import { buildTurnModels } from '../../../harness/golden/golden-model.js';
import type { Turn } from '../../../harness/mock/scenario/scenario-types.js';
import { toCanonicalEvents } from '../../../harness/protocol/canonical.js';

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
