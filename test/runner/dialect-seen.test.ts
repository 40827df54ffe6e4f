// The dialect a run's stdout spoke (R1a): each process's own lines decide, a process with only shared lines
// (init alone, killed before it printed more) says nothing, and processes that disagree make the run mixed.
// Such a process is judged in the dialect of the run's other processes, else the one the run asks for.
import { describe, expect, it } from 'vitest';
import { judgedDialect, runDialect } from '../../harness/runner/results/dialect-seen.js';
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

describe('the dialect a process is judged in', () => {
  const deltas = stream(init, {
    type: 'stream_event',
    event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Once' } },
  });

  it('is its own when it printed lines a dialect owns', () => {
    expect(judgedDialect(flat, { printed: 'claude', asked: 'claude' })).toBe('flat');
    expect(judgedDialect(claude, { printed: 'flat', asked: 'flat' })).toBe('claude-envelope');
  });

  it('is the run’s for a process of stream_event deltas alone (killed before its first envelope)', () => {
    expect(deltas.dialect).toBe('flat'); // read alone, shared lines look flat
    expect(judgedDialect(deltas, { printed: 'claude', asked: 'flat' })).toBe('claude-envelope');
    expect(judgedDialect(deltas, { printed: 'flat', asked: 'claude' })).toBe('flat');
  });

  it('is the one asked for (or declared) when no other process names one', () => {
    expect(judgedDialect(deltas, { printed: undefined, asked: 'claude' })).toBe('claude-envelope');
    expect(judgedDialect(deltas, { printed: 'mixed', asked: 'claude' })).toBe('claude-envelope');
    expect(judgedDialect(initOnly, { printed: undefined, asked: 'flat' })).toBe('flat');
    expect(judgedDialect(undefined, { printed: undefined, asked: undefined })).toBe('flat');
  });
});
