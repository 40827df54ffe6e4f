// Which turns the compaction rules take for a /compact (docs/protocol.md#r21-compaction): by the prompt in a run,
// by a manual boundary in `validate`; what a compaction is excused, and what a boundary elsewhere is not.
import { describe, expect, it } from 'vitest';
import type { CompactTurn } from '../../../harness/rules/checks/compaction.js';
import type { Profile } from '../../../harness/rules/types.js';
import { validateStream } from '../../../harness/validate/validate-stream.js';
import { errorResult, init, type Line, result, stream, text } from '../helpers/streams.js';

const boundary = (trigger: string) => ({
  type: 'system',
  subtype: 'compact_boundary',
  compact_metadata: { trigger, pre_tokens: 189 },
});
const zero = { input_tokens: 0, output_tokens: 0 };
const ruleIds = (lines: Line[], options: { profile?: Profile; compactTurns?: CompactTurn[] } = {}) =>
  validateStream(stream(...lines), options).findings.map((finding) => finding.rule);

describe('compaction turns', () => {
  it('validate takes a manual boundary for a /compact: its 0/0 result is excused, in both profiles', () => {
    const compaction = [init(), boundary('manual'), result({ usage: zero, result: 'Summary.' })];
    expect(ruleIds(compaction)).toEqual([]);
    expect(ruleIds(compaction, { profile: 'yume-app' })).toEqual([]);
  });

  it('an automatic boundary excuses nothing: the turn answered, and its 0/0 is the usual trap', () => {
    const auto = [init(), boundary('auto'), text('The answer.'), result({ usage: zero })];
    expect(ruleIds(auto)).toContain('usage.not-zero');
    expect(ruleIds(auto, { profile: 'yume-app' })).toContain('app.zero-usage-result');
  });

  it('a run judges by the prompt: a boundary on an ordinary turn excuses nothing', () => {
    const lines = [init(), boundary('manual'), result({ usage: zero, result: 'Summary.' })];
    expect(ruleIds(lines, { profile: 'yume-app', compactTurns: ['none'] })).toContain('app.zero-usage-result');
    expect(ruleIds(lines, { profile: 'yume-app', compactTurns: ['compact'] })).toEqual([]);
  });

  it('a /compact that met an empty session may end as claude does: 0/0 and no boundary', () => {
    const claude = [
      init(),
      { type: 'user', message: { role: 'user', content: 'Error: No messages to compact' } },
      result({ usage: zero, result: '' }),
    ];
    expect(ruleIds(claude, { profile: 'yume-app', compactTurns: ['nothing-to-compact'] })).toEqual([]);
    expect(ruleIds(claude, { profile: 'yume-app', compactTurns: ['compact'] })).toContain('compaction.boundary');
    const withUsage = [init(), result({ usage: { input_tokens: 40, output_tokens: 6 }, result: '' })];
    expect(ruleIds(withUsage, { profile: 'yume-app', compactTurns: ['nothing-to-compact'] })).toContain(
      'app.compaction-zero-usage',
    );
  });

  it('an error result of a /compact turn is never excused its 0/0 (the app would take it for a compaction)', () => {
    const failed = [init(), { type: 'interrupt' }, errorResult({ usage: zero })];
    expect(ruleIds(failed, { compactTurns: ['compact'] })).toContain('usage.not-zero');
    expect(ruleIds(failed, { profile: 'yume-app', compactTurns: ['compact'] })).toContain('app.zero-usage-result');
  });

  it('claude prints status lines before init on a /compact: allowed there, and only status lines', () => {
    const status = { type: 'system', subtype: 'status', status: 'compacting' };
    expect(ruleIds([status, init(), boundary('manual'), result({ usage: zero, result: 'S.' })])).toEqual([]);
    expect(ruleIds([{ type: 'system', subtype: 'api_retry' }, init(), result()])).toContain('turn.init-first');
  });
});
