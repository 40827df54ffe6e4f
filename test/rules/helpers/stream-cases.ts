// The stream rules' proof cases: for each rule a conforming stream (`good`: no finding of the rule, no MUST) and a
// broken one (`bad`: reported under that rule, at `line`). test/rules/stream-rules.test.ts runs them;
// test/rules/catalog-truth.test.ts requires one for every stream rule of the catalog.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ValidateOptions } from '../../../harness/validate/validate-stream.js';
import { COMPACTION_STREAM_CASES } from './compaction-stream-cases.js';
import {
  assistant,
  envelopeTurn,
  errorResult,
  flatTurn,
  init,
  type Line,
  result,
  stop,
  stream,
  text,
  textBlock,
  toolResult,
  toolUse,
  toolUseBlock,
  usage,
  userResult,
} from './streams.js';

export interface StreamCase {
  rule: string;
  options?: ValidateOptions;
  good: Line[];
  /** Lines, or exact bytes when the ending matters. */
  bad: Line[] | Buffer;
  /** Line the finding must point at. */
  line?: number;
}

const flat = flatTurn();
const app: ValidateOptions = { profile: 'yume-app' };
const withToolResult = (content: unknown, isError = false): Line[] => [
  init(),
  toolUse('c1', 'Read', { file_path: 'a' }),
  toolResult('c1', content, isError),
  result(),
];
/** A value nested `levels` arrays deep; as the value of a result field it makes the line `levels + 1` deep. */
const nested = (levels: number): unknown => {
  let value: unknown = 0;
  for (let level = 0; level < levels; level += 1) value = [value];
  return value;
};
const geminiCapture = readFileSync(
  path.join(import.meta.dirname, '..', '..', 'fixtures', 'streams', 'captures', 'gemini', '2-tool.stdout.jsonl'),
  'utf8',
)
  .trimEnd()
  .split('\n');

export const STREAM_CASES: StreamCase[] = [
  ...COMPACTION_STREAM_CASES,
  // framing
  { rule: 'framing.not-empty', good: flat, bad: [] },
  {
    rule: 'framing.utf8',
    good: [init(), text('café ✓ 😀'), result()],
    bad: [init(), Buffer.from([0x7b, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), result()],
    line: 2,
  },
  { rule: 'framing.no-bom', good: flat, bad: [`\ufeff${JSON.stringify(init())}`, result()], line: 1 },
  {
    rule: 'framing.no-ansi',
    good: flat,
    bad: [init(), `\u001b[32m${JSON.stringify(text('green'))}\u001b[0m`, result()],
    line: 2,
  },
  { rule: 'framing.no-prefix', good: flat, bad: [init(), `data: ${JSON.stringify(text('sse'))}`, result()], line: 2 },
  {
    rule: 'framing.single-line-json',
    good: flat,
    bad: [init(), ...JSON.stringify(text('pretty'), null, 2).split('\n'), result()],
    line: 2,
  },
  {
    rule: 'framing.single-line-json',
    good: flat,
    bad: [init(), `${JSON.stringify(text('a'))}${JSON.stringify(text('b'))}`, result()],
    line: 2,
  },
  { rule: 'framing.single-line-json', good: flat, bad: [init(), 'Thinking about it...', result()], line: 2 },
  { rule: 'framing.json-object', good: flat, bad: [init(), '[1,2]', 'null', result()], line: 2 },
  { rule: 'framing.blank-line', good: flat, bad: [init(), '', ...flat.slice(1)], line: 2 },
  { rule: 'framing.blank-line', good: flat, bad: [init(), '   \t', ...flat.slice(1)], line: 2 },
  { rule: 'framing.dollar-terminator', good: flat, bad: [...flat, '$'], line: 9 },
  {
    rule: 'framing.final-newline',
    good: flat,
    bad: Buffer.from(
      stream(...flat)
        .toString('utf8')
        .trimEnd(),
    ),
    line: 8,
  },
  {
    rule: 'framing.line-size',
    good: [init(), text('x'.repeat(90_000)), usage(), result()],
    bad: [init(), text('x'.repeat(150_000)), usage(), result()],
    line: 2,
  },
  {
    rule: 'framing.integer-lexeme',
    good: [init(), text('a'), result({ usage: { input_tokens: 121, output_tokens: 30 }, total_cost_usd: 0.5 })],
    bad: [
      init(),
      text('a'),
      '{"type":"result","is_error":false,"subtype":"success","usage":{"input_tokens":121.0,"output_tokens":30}}',
    ],
    line: 3,
  },
  {
    rule: 'framing.integer-lexeme',
    good: [init(), toolUse('c1', 'Read', { file_path: 'a', duration_ms: 1.5 }), toolResult('c1', 'x'), result()],
    bad: [init(), text('a'), '{"type":"usage","usage":{"input_tokens":1.21e2,"output_tokens":30}}', result()],
    line: 3,
  },
  {
    rule: 'framing.integer-lexeme',
    good: flat,
    bad: [
      init(),
      text('a'),
      '{"type":"result","is_error":false,"subtype":"success","duration_ms":1e-400,"usage":{"input_tokens":1,"output_tokens":1}}',
    ],
    line: 3,
  },
  {
    rule: 'framing.lone-surrogate',
    good: [init(), '{"type":"text","content":"pair \\ud83d\\ude00 and \\\\udcff as text"}', result()],
    bad: [init(), '{"type":"text","content":"half \\udcff"}', result()],
    line: 2,
  },
  {
    rule: 'framing.lone-surrogate',
    good: flat,
    bad: [init(), '{"type":"text","content":"cut \\ud83d"}', result()],
    line: 2,
  },
  {
    rule: 'framing.nesting-depth',
    good: [init(), text('a'), result({ deep: nested(126) })],
    bad: [init(), text('a'), result({ deep: nested(127) })],
    line: 3,
  },
  // schema
  { rule: 'schema.type-field', good: flat, bad: [init(), { content: 'no type' }, result()], line: 2 },
  { rule: 'schema.type-field', good: flat, bad: [init(), { type: '', content: 'empty type' }, result()], line: 2 },
  { rule: 'schema.message', good: flat, bad: [init(), { type: 'text' }, result()], line: 2 },
  {
    rule: 'schema.message',
    good: flat,
    bad: [init(), text('x'), { type: 'usage', input_tokens: 1.5, output_tokens: 2 }, result({ usage: undefined })],
    line: 3,
  },
  {
    rule: 'schema.message',
    good: flat,
    bad: [init(), text('x'), { type: 'result', usage: { input_tokens: 1, output_tokens: 1 } }],
    line: 3,
  },
  {
    rule: 'schema.message',
    good: flat,
    bad: [init(), assistant('m', { type: 'tool_use', id: 't', input: {} }), userResult('t', 'x'), result()],
    line: 2,
  },
  { rule: 'schema.unknown-type', good: flat, bad: [init(), { type: 'banana' }, text('x'), result()], line: 2 },
  {
    rule: 'schema.unknown-block',
    good: envelopeTurn(),
    bad: [init(), assistant('m', textBlock('a'), { type: 'image', source: {} }), result()],
    line: 2,
  },
  // dialect
  { rule: 'dialect.stream-json', good: flat, bad: geminiCapture, line: 1 },
  {
    rule: 'dialect.stream-json',
    good: flat,
    bad: [init(), text('a'), { type: 'turn.completed', usage: {} }, result()],
    line: 3,
  },
  {
    rule: 'dialect.consistent',
    good: envelopeTurn(),
    bad: [init(), text('a'), assistant('m', textBlock('b')), result()],
    line: 3,
  },
  // turns
  { rule: 'turn.init-first', good: flat, bad: [text('early'), init(), result()], line: 1 },
  {
    rule: 'turn.init-first',
    good: [{ type: 'system', subtype: 'error', message: 'unknown flag --x' }, errorResult()],
    bad: [{ type: 'error', message: 'x' }, errorResult()],
    line: 1,
  },
  { rule: 'turn.init-once', good: flat, bad: [init(), text('a'), init(), result()], line: 3 },
  { rule: 'turn.result-last', good: flat, bad: [init(), text('a')], line: 2 },
  {
    rule: 'turn.result-last',
    good: [...flat, text('next turn'), result()],
    bad: [...flat, text('next turn')],
    line: 9,
  },
  {
    rule: 'turn.result-session-id',
    good: [init(), text('a'), result({ session_id: 'sess_1' })],
    bad: [init(), text('a'), result({ session_id: 'sess_2' })],
    line: 3,
  },
  {
    rule: 'turn.success-subtype',
    good: [init(), { type: 'error', message: 'x' }, errorResult({ subtype: 'anything goes' })],
    bad: [init(), text('a'), result({ subtype: 'done' })],
    line: 3,
  },
  {
    rule: 'turn.success-subtype',
    good: flat,
    bad: [init(), text('a'), result({ subtype: undefined })],
    line: 3,
  },
  { rule: 'turn.single-result', good: flat, bad: [init(), text('a'), result(), result()], line: 4 },
  { rule: 'turn.message-stop-after-result', good: flat, bad: [init(), text('a'), stop, result()], line: 3 },
  { rule: 'turn.message-stop-after-result', good: flat, bad: [init(), text('a'), result(), stop, stop], line: 5 },
  {
    rule: 'turn.nothing-after-result',
    options: { mode: 'spawn-per-turn' },
    good: flat,
    bad: [...flat, text('more'), result()],
    line: 9,
  },
  // tools
  { rule: 'tool.result-pairs-use', good: flat, bad: [init(), toolResult('ghost', 'x'), result()], line: 2 },
  {
    rule: 'tool.result-pairs-use',
    good: flat,
    bad: [
      init(),
      toolUse('c1', 'Read', { file_path: 'a' }),
      toolResult('c1', 'x'),
      result(),
      toolResult('c1', 'again'),
      result(),
    ],
    line: 5,
  },
  {
    rule: 'tool.use-answered',
    good: flat,
    bad: [init(), toolUse('c1', 'Read', { file_path: 'a' }), result()],
    line: 2,
  },
  { rule: 'tool.use-answered', good: flat, bad: [init(), toolUse('c1', 'Read', { file_path: 'a' })], line: 2 },
  {
    rule: 'tool.result-once',
    good: flat,
    bad: [init(), toolUse('c1', 'Read', { file_path: 'a' }), toolResult('c1', 'x'), toolResult('c1', 'y'), result()],
    line: 4,
  },
  {
    rule: 'tool.unique-id',
    good: flat,
    bad: [
      init(),
      toolUse('c1', 'Read', { file_path: 'a' }),
      toolResult('c1', 'x'),
      toolUse('c1', 'Read', { file_path: 'b' }),
      toolResult('c1', 'y'),
      result(),
    ],
    line: 4,
  },
  {
    rule: 'tool.no-text-before-result',
    good: flat,
    bad: [init(), toolUse('c1', 'Read', { file_path: 'a' }), text('meanwhile'), toolResult('c1', 'x'), result()],
    line: 3,
  },
  {
    rule: 'tool.listed-in-init',
    good: flat,
    bad: [init({ tools: ['Read'] }), toolUse('c1', 'Grep', { pattern: 'x' }), toolResult('c1', 'x'), result()],
    line: 2,
  },
  {
    rule: 'tool.file-path',
    good: flat,
    bad: [init(), toolUse('c1', 'Read', { path: 'hello.txt' }), toolResult('c1', 'x'), result()],
    line: 2,
  },
  {
    rule: 'tool.file-path',
    good: envelopeTurn(),
    bad: [
      init(),
      assistant('m', toolUseBlock('c1', 'Write', { filename: 'a', content: 'x' })),
      userResult('c1', 'ok'),
      result(),
    ],
    line: 2,
  },
  {
    rule: 'tool.input-object',
    good: flat,
    bad: [init(), toolUse('c1', 'Read', '{"file_path":"a"}'), toolResult('c1', 'x', true), result()],
    line: 2,
  },
  {
    rule: 'tool.one-at-a-time',
    good: flat,
    bad: [
      init(),
      toolUse('c1', 'Read', { file_path: 'a' }),
      toolUse('c2', 'Read', { file_path: 'b' }),
      toolResult('c1', 'x'),
      toolResult('c2', 'y'),
      result(),
    ],
    line: 3,
  },
  {
    rule: 'tool.one-at-a-time-envelope',
    good: envelopeTurn(),
    bad: [
      init(),
      assistant('m', toolUseBlock('c1', 'Read', { file_path: 'a' }), toolUseBlock('c2', 'Read', { file_path: 'b' })),
      userResult('c1', 'x'),
      userResult('c2', 'y'),
      result(),
    ],
    line: 2,
  },
  {
    rule: 'tool.invalid-arguments',
    good: [
      init(),
      toolUse('c1', 'Bash', { _invalid_arguments: '{"command": "ls' }),
      toolResult('c1', 'invalid arguments: not JSON', true),
      text('Sorry.'),
      result(),
    ],
    bad: [
      init(),
      toolUse('c1', 'Bash', { _invalid_arguments: '{"command": "ls' }),
      toolResult('c1', 'ran anyway'),
      result(),
    ],
    line: 3,
  },
  {
    rule: 'tool.input-schema',
    good: flat,
    bad: [init(), toolUse('c1', 'Edit', { file_path: 'a', old_string: 'x' }), toolResult('c1', 'x', true), result()],
    line: 2,
  },
  // usage
  {
    rule: 'usage.present',
    good: [
      init(),
      text('a'),
      { type: 'usage', input_tokens: 5, output_tokens: 1 },
      { type: 'result', is_error: false, subtype: 'success' },
    ],
    bad: [init(), text('a'), { type: 'result', is_error: false, subtype: 'success' }],
    line: 3,
  },
  {
    rule: 'usage.present',
    good: [init(), { type: 'error', message: 'HTTP 500' }, errorResult()],
    bad: [init(), text('a'), result({ usage: undefined })],
    line: 3,
  },
  {
    rule: 'usage.not-zero',
    good: flat,
    bad: [init(), text('a'), result({ usage: { input_tokens: 0, output_tokens: 0 } })],
    line: 3,
  },
  {
    rule: 'usage.estimated-positive',
    good: [init(), text('a'), result({ usage: { input_tokens: 9, output_tokens: 2, estimated: true } })],
    bad: [init(), text('a'), result({ usage: { input_tokens: 9, output_tokens: 0, estimated: true } })],
    line: 3,
  },
  // errors and interrupts
  {
    rule: 'error.no-success-after-error',
    good: [init(), { type: 'error', message: 'HTTP 400' }, errorResult()],
    bad: [init(), { type: 'error', message: 'HTTP 400' }, result()],
    line: 3,
  },
  {
    // Persistent mode: an error line answering a bad stdin frame between turns belongs to no turn.
    rule: 'error.no-success-after-error',
    options: { mode: 'persistent' },
    good: [
      init(),
      { type: 'error', message: 'unknown frame type "hello"' },
      text('a'),
      usage(),
      result(),
      { type: 'error', message: 'malformed JSON on stdin' },
      text('b'),
      usage(),
      result(),
    ],
    bad: [init(), text('a'), usage(), result(), text('b'), { type: 'error', message: 'HTTP 400' }, result()],
    line: 7,
  },
  {
    rule: 'error.no-success-after-error',
    good: [init(), { type: 'system', subtype: 'error', message: '401' }, errorResult()],
    bad: [init(), { type: 'system', subtype: 'error', message: '401' }, result()],
    line: 3,
  },
  {
    rule: 'interrupt.error-result',
    good: [init(), text('Once upon'), { type: 'interrupt' }, errorResult({ subtype: 'cancelled' }), stop],
    bad: [init(), text('Once upon'), { type: 'interrupt' }, result()],
    line: 4,
  },
  {
    rule: 'interrupt.error-result',
    good: [init(), text('Once upon'), { type: 'interrupt' }, errorResult()],
    bad: [init(), text('Once upon'), { type: 'interrupt' }, text(' a time'), errorResult()],
    line: 4,
  },
  // yume-app
  {
    rule: 'app.blank-line',
    options: app,
    good: envelopeTurn(),
    bad: [init(), '', ...envelopeTurn().slice(1)],
    line: 2,
  },
  { rule: 'app.dollar-line', options: app, good: envelopeTurn(), bad: [...envelopeTurn(), '$'], line: 6 },
  {
    rule: 'app.duplicate-line',
    options: app,
    good: [init(), assistant('m1', textBlock('\n')), assistant('m2', textBlock('\n')), result()],
    bad: [init(), text('\n'), text('\n'), usage(), result()],
    line: 3,
  },
  {
    rule: 'app.zero-usage-result',
    options: app,
    good: envelopeTurn(),
    bad: [init(), assistant('m', textBlock('a')), result({ usage: { input_tokens: 0, output_tokens: 0 } })],
    line: 3,
  },
  {
    rule: 'app.usage-counted',
    options: app,
    good: [init(), text('a'), usage(), result({ usage: undefined })],
    bad: [init(), text('a'), { type: 'usage', input_tokens: 120, output_tokens: 30 }, result({ usage: undefined })],
    line: 4,
  },
  {
    rule: 'app.tool-result-string',
    options: app,
    good: withToolResult('ok'),
    bad: withToolResult({ output: 'ok' }),
    line: 3,
  },
  {
    rule: 'app.tool-result-string',
    options: app,
    good: envelopeTurn(),
    bad: [
      init(),
      assistant('m', toolUseBlock('c1', 'Read', { file_path: 'a' })),
      userResult('c1', [{ type: 'text', text: 'ok' }]),
      result(),
    ],
    line: 3,
  },
  {
    rule: 'app.nested-error',
    options: app,
    good: [init(), { type: 'error', message: 'boom' }, errorResult()],
    bad: [init(), { type: 'error', error: { type: 'api', message: 'boom' } }, errorResult()],
    line: 2,
  },
  {
    rule: 'app.session-id-filename-safe',
    options: app,
    good: envelopeTurn(),
    bad: [init({ session_id: 'tab:1/2' }), assistant('m', textBlock('a')), result()],
    line: 1,
  },
  {
    rule: 'app.bash-command',
    options: app,
    good: [
      init(),
      assistant(
        'm',
        toolUseBlock('c1', 'Bash', { command: 'ls' }),
        toolUseBlock('c2', 'Bash', { _invalid_arguments: '{' }),
      ),
      userResult('c1', 'a.txt'),
      userResult('c2', 'invalid arguments', true),
      result(),
    ],
    bad: [init(), assistant('m', toolUseBlock('c1', 'Bash', { cmd: 'ls' })), userResult('c1', 'a.txt'), result()],
    line: 2,
  },
  { rule: 'app.flat-dialect', options: app, good: envelopeTurn(), bad: flat, line: 2 },
];
