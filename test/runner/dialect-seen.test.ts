// The dialect a run's stdout spoke (R1a): each process's own lines decide, a process with only shared lines
// (init alone, killed before it printed more) says nothing, and processes that disagree make the run mixed.
import { describe, expect, it } from 'vitest';
import { runDialect } from '../../harness/runner/results/dialect-seen.js';
import { validateStream } from '../../harness/validate/validate-stream.js';

const stream = (...lines: object[]) =>
  validateStream(Buffer.from(lines.map((line) => `${JSON.stringify(line)}\n`).join('')), {
    profile: 'spec',
    mode: 'spawn-per-turn',
    keepEvents: false,
  });
const init = { type: 'system', subtype: 'init', session_id: 's', model: 'm', cwd: '/w', tools: [] };
const result = { type: 'result', subtype: 'success', is_error: false, session_id: 's' };
const flat = stream(init, { type: 'text', content: 'hi' }, result);
const claude = stream(
  init,
  { type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'hi' }] } },
  result,
);
const initOnly = stream(init);

describe('the dialect a run spoke', () => {
  it('is each process’s own, whatever a process with shared lines only printed', () => {
    expect(runDialect([flat])).toBe('flat');
    expect(runDialect([claude])).toBe('claude');
    expect(runDialect([claude, initOnly, claude])).toBe('claude');
    expect(runDialect([flat, initOnly])).toBe('flat');
  });

  it('is mixed when processes disagree, and unknown when no process printed a line a dialect owns', () => {
    expect(runDialect([flat, claude])).toBe('mixed');
    expect(runDialect([initOnly])).toBeUndefined();
    expect(runDialect([])).toBeUndefined();
  });

  it('names a stream that mixes both dialects in one process', () => {
    const both = stream(init, { type: 'text', content: 'a' }, { type: 'assistant', message: { content: [] } }, result);
    expect(both.dialectLines).toEqual({ flat: 1, envelope: 1 });
    expect(runDialect([both])).toBe('mixed');
  });
});
