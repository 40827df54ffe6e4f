// The compaction proofs among the stream rules' cases (docs/protocol.md#r21-compaction): `/compact` turns as the
// runner knows them by their prompt, and the turn and app rules a compaction touches. stream-cases.ts lists them
// with the others.
import type { ValidateOptions } from '../../../harness/validate/validate-stream.js';
import type { StreamCase } from './stream-cases.js';
import { assistant, init, type Line, result, text, textBlock } from './streams.js';

const app: ValidateOptions = { profile: 'yume-app' };
/** A stream of one `/compact` turn, as the runner knows it by its prompt (docs/protocol.md#r21-compaction). */
const compacting: ValidateOptions = { compactTurns: ['compact'] };
const boundary = (trigger = 'manual', preTokens = 189) => ({
  type: 'system',
  subtype: 'compact_boundary',
  session_id: 'sess_1',
  compact_metadata: { trigger, pre_tokens: preTokens },
});
const compactResult = (extra: object = {}) =>
  result({ usage: { input_tokens: 0, output_tokens: 0 }, result: 'Summary: the user read hello.txt.', ...extra });
/** A conforming flat /compact turn: init, the boundary, a 0/0 result carrying the summary. */
const compaction = (): Line[] => [init(), boundary(), compactResult()];
const summaryMessage = { type: 'user', message: { role: 'user', content: 'This session is being continued…' } };

export const COMPACTION_STREAM_CASES: StreamCase[] = [
  {
    rule: 'turn.init-first',
    good: [{ type: 'system', subtype: 'status', status: 'compacting' }, ...compaction()],
    bad: [boundary(), init(), compactResult()],
    options: compacting,
    line: 1,
  },
  {
    // Under spec, an id announced after init is followed by the result (a compaction may change it).
    rule: 'turn.result-session-id',
    good: [
      init(),
      boundary(),
      { type: 'system', subtype: 'session_id', session_id: 'sess_2' },
      compactResult({ session_id: 'sess_2' }),
    ],
    bad: [
      init(),
      boundary(),
      { type: 'system', subtype: 'session_id', session_id: 'sess_2' },
      compactResult({ session_id: 'sess_1' }),
    ],
    options: compacting,
    line: 4,
  },
  {
    // Under yume-app the app reads init only: the announcement changes nothing.
    rule: 'turn.result-session-id',
    good: [init(), boundary(), compactResult({ session_id: 'sess_1' })],
    bad: [
      init(),
      boundary(),
      { type: 'system', subtype: 'session_id', session_id: 'sess_2' },
      compactResult({ session_id: 'sess_2' }),
    ],
    options: { ...app, compactTurns: ['compact'] },
    line: 4,
  },
  {
    rule: 'compaction.boundary',
    good: compaction(),
    bad: [init(), compactResult()],
    options: compacting,
    line: 2,
  },
  {
    rule: 'compaction.boundary',
    good: [init(), boundary('manual', 0), compactResult()],
    bad: [init(), boundary('auto'), compactResult()],
    options: compacting,
    line: 2,
  },
  {
    rule: 'compaction.result-zero-usage',
    good: compaction(),
    bad: [init(), boundary(), compactResult({ usage: { input_tokens: 230, output_tokens: 12 } })],
    options: compacting,
    line: 3,
  },
  {
    rule: 'compaction.summary-shown',
    good: [init(), boundary(), summaryMessage, compactResult({ result: '' })],
    bad: [init(), boundary(), text('Summary: the user read hello.txt.'), compactResult()],
    options: compacting,
    line: 3,
  },
  {
    rule: 'compaction.summary-shown',
    good: compaction(),
    bad: [init(), boundary(), compactResult({ result: '' })],
    options: compacting,
    line: 3,
  },
  {
    // A normal turn that prints a boundary is no compaction: its 0/0 is the app's trap as ever.
    rule: 'app.zero-usage-result',
    options: { ...app, compactTurns: ['none'] },
    good: [init(), boundary('auto'), assistant('m', textBlock('a')), result()],
    bad: [init(), boundary(), assistant('m', textBlock('a')), result({ usage: { input_tokens: 0, output_tokens: 0 } })],
    line: 4,
  },
  {
    rule: 'app.compaction-zero-usage',
    options: { ...app, compactTurns: ['compact'] },
    good: compaction(),
    bad: [init(), boundary(), compactResult({ usage: { input_tokens: 230, output_tokens: 12 } })],
    line: 3,
  },
  {
    rule: 'app.session-id-from-init',
    options: app,
    good: [init(), boundary(), compactResult()],
    bad: [init(), boundary(), { type: 'system', subtype: 'session_id', session_id: 'sess_2' }, compactResult()],
    line: 3,
  },
];
