// The turn's interrupt signal behaves as AbortController's does for what the shim uses of it.
import { describe, expect, it } from 'vitest';
import { abortSignalFor, Interrupter, type InterruptSignal } from '../../reference-shim/tools/interrupt.js';

/** The same steps against either implementation. */
function scenario(signal: InterruptSignal, abort: () => void): string[] {
  const calls: string[] = [];
  const first = () => calls.push('first');
  const removed = () => calls.push('removed');
  const removedByFirst = () => calls.push('removed by first');
  signal.addEventListener('abort', first, { once: true });
  signal.addEventListener('abort', first); // the same listener again: still called once
  signal.addEventListener('abort', removed);
  signal.addEventListener('abort', () => {
    calls.push(`second sees aborted=${signal.aborted}`);
    signal.removeEventListener('abort', removedByFirst);
  });
  signal.addEventListener('abort', removedByFirst);
  signal.removeEventListener('abort', removed);
  calls.push(`before: aborted=${signal.aborted}`);
  abort();
  abort(); // a second abort does nothing
  signal.addEventListener('abort', () => calls.push('added after the abort'));
  abort();
  return calls;
}

describe('Interrupter', () => {
  it('calls each listener once, in order, as AbortController does', () => {
    const node = new AbortController();
    const expected = scenario(node.signal, () => node.abort());
    const interrupter = new Interrupter();
    expect(scenario(interrupter.signal, () => interrupter.abort())).toEqual(expected);
    expect(expected).toEqual(['before: aborted=false', 'first', 'second sees aborted=true']);
  });

  it('gives Node APIs a real AbortSignal that follows it, before or after the abort', () => {
    const later = new Interrupter();
    const follower = abortSignalFor(later.signal);
    expect(follower.signal).toBeInstanceOf(AbortSignal);
    expect(follower.signal.aborted).toBe(false);
    later.abort();
    expect(follower.signal.aborted).toBe(true);

    const already = new Interrupter();
    already.abort();
    expect(abortSignalFor(already.signal).signal.aborted).toBe(true);

    const released = new Interrupter();
    const detached = abortSignalFor(released.signal);
    detached.release();
    released.abort();
    expect(detached.signal.aborted).toBe(false);
  });
});
