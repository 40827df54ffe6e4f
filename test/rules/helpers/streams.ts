// Small stream builders shared by the rule tests: conforming flat and envelope conversations to start from.
import { Buffer } from 'node:buffer';

export type Line = object | string | Buffer;

/** Joins messages (objects are JSON.stringify'd, strings and Buffers used as they are) with "\n" after each. */
export function stream(...lines: Line[]): Buffer {
  return Buffer.concat(
    lines.map((l) =>
      Buffer.isBuffer(l)
        ? Buffer.concat([l, Buffer.from('\n')])
        : Buffer.from(`${typeof l === 'string' ? l : JSON.stringify(l)}\n`, 'utf8'),
    ),
  );
}

export const TOOLS = ['Read', 'Write', 'Edit', 'MultiEdit', 'Glob', 'Grep', 'LS', 'Bash'];
export const init = (extra: object = {}) => ({
  type: 'system',
  subtype: 'init',
  session_id: 'sess_1',
  model: 'gpt-4.1-mini',
  cwd: '/w',
  permissionMode: 'default',
  tools: TOOLS,
  ...extra,
});
export const text = (content: string) => ({ type: 'text', content });
export const toolUse = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });
export const toolResult = (id: string, content: unknown, isError = false) => ({
  type: 'tool_result',
  tool_use_id: id,
  content,
  is_error: isError,
});
export const usage = (input = 120, output = 30) => ({
  type: 'usage',
  usage: { input_tokens: input, output_tokens: output },
});
export const result = (extra: object = {}) => ({
  type: 'result',
  is_error: false,
  subtype: 'success',
  usage: { input_tokens: 120, output_tokens: 30 },
  ...extra,
});
export const errorResult = (extra: object = {}) => ({
  type: 'result',
  is_error: true,
  subtype: 'error_during_execution',
  ...extra,
});
export const stop = { type: 'message_stop' };

export const assistant = (id: string, ...content: object[]) => ({
  type: 'assistant',
  message: { id, role: 'assistant', content },
});
export const userResult = (id: string, content: unknown, isError = false) => ({
  type: 'user',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] },
});
export const textBlock = (t: string) => ({ type: 'text', text: t });
export const toolUseBlock = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });

/** One conforming flat turn with a tool call. */
export const flatTurn = (): Line[] => [
  init(),
  text('I will read it.'),
  toolUse('call_1', 'Read', { file_path: 'hello.txt' }),
  toolResult('call_1', 'Hello from the fixture file.'),
  text('It says hello.'),
  usage(),
  result(),
  stop,
];

/** The same turn in Claude envelopes. */
export const envelopeTurn = (): Line[] => [
  init(),
  assistant('msg_1', textBlock('I will read it.'), toolUseBlock('call_1', 'Read', { file_path: 'hello.txt' })),
  userResult('call_1', 'Hello from the fixture file.'),
  assistant('msg_2', textBlock('It says hello.')),
  result(),
];
