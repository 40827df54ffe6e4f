// How a fake official CLI meets its scripted model responses: one per request in order, `repeat` answering
// several, its retry budget for 408/429/5xx, stream faults never retried, "Done." once the script ends.
import { describe, expect, it } from 'vitest';
import {
  addUsage,
  dripGapMs,
  httpReason,
  isRetryable,
  SCRIPT_EXHAUSTED_RESPONSE,
  ScriptCursor,
} from '../../harness/official-cli/script-playback.js';
import type { ScriptResponse } from '../../harness/official-cli/script-types.js';

const text = (words: string): ScriptResponse => ({ text: [words], stop: 'end_turn' });
const http = (status: number, repeat?: number): ScriptResponse =>
  ({ fault: { kind: 'http', status }, ...(repeat ? { repeat } : {}) }) as ScriptResponse;

describe('ScriptCursor', () => {
  it('answers one response per request, in order, then "Done."', () => {
    const cursor = new ScriptCursor([text('one'), text('two')]);
    expect(cursor.call(3)).toMatchObject({ kind: 'ok', response: { text: ['one'] }, retried: [] });
    expect(cursor.call(3)).toMatchObject({ kind: 'ok', response: { text: ['two'] } });
    expect(cursor.call(3)).toEqual({ kind: 'ok', response: SCRIPT_EXHAUSTED_RESPONSE, retried: [] });
    expect(cursor.requests).toBe(3);
  });

  it('retries a retryable failure within its budget, counting each request', () => {
    const cursor = new ScriptCursor([http(429, 2), text('after')]);
    const call = cursor.call(3);
    expect(call).toMatchObject({ kind: 'ok', response: { text: ['after'] } });
    expect(call.retried).toEqual([
      { kind: 'http', status: 429, retryAfter: undefined },
      { kind: 'http', status: 429, retryAfter: undefined },
    ]);
    expect(cursor.requests).toBe(3);
  });

  it('fails once the budget is spent, and the next call goes on from there', () => {
    const cursor = new ScriptCursor([http(503, 3), text('late')]);
    expect(cursor.call(2)).toMatchObject({ kind: 'failed', failure: { status: 503 }, retried: [{ status: 503 }] });
    expect(cursor.call(2)).toMatchObject({ kind: 'ok', response: { text: ['late'] }, retried: [{ status: 503 }] });
    expect(cursor.requests).toBe(4);
  });

  it('never retries a stream fault or a 400', () => {
    const cut = { text: ['par'], fault: { kind: 'cut' } } as ScriptResponse;
    const cursor = new ScriptCursor([cut, http(400), text('never')]);
    expect(cursor.call(5)).toMatchObject({ kind: 'failed', failure: { kind: 'cut' }, retried: [] });
    expect(cursor.call(5)).toMatchObject({ kind: 'failed', failure: { status: 400 }, retried: [] });
  });

  it('treats a drip as a delivered response', () => {
    const drip = { text: ['slow'], fault: { kind: 'drip', gapMs: 250 } } as ScriptResponse;
    expect(new ScriptCursor([drip]).call(1)).toMatchObject({ kind: 'ok' });
    expect(dripGapMs(drip)).toBe(250);
    expect(dripGapMs(text('fast'))).toBe(0);
  });
});

describe('isRetryable', () => {
  it.each([
    [408, true],
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
    [404, false],
  ])('HTTP %i: %s', (status, retryable) => {
    expect(isRetryable({ kind: 'http', status })).toBe(retryable);
  });
});

describe('addUsage and httpReason', () => {
  it('adds reported usage to the totals, cached reads included, and ignores a missing one', () => {
    const totals = { input: 1, output: 2, cached: 0 };
    addUsage(totals, { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3 });
    addUsage(totals, undefined);
    expect(totals).toEqual({ input: 11, output: 7, cached: 3 });
  });

  it('names known statuses and falls back to "Error"', () => {
    expect(httpReason(429)).toBe('Too Many Requests');
    expect(httpReason(418)).toBe('Error');
  });
});
