import { describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../../harness/protocol/canonical.js';
import { about, eventsOf, lineTime, prefixed, turnEvents } from '../../../harness/runner/checks/run-events.js';
import { processOf } from '../helpers/check-fixtures.js';

const text = (line: number): CanonicalEvent => ({ kind: 'text', line, text: `t${line}` });
const result = (line: number): CanonicalEvent => ({ kind: 'result', line, isError: false });

describe('about and prefixed', () => {
  it('name the process only when the run has several', () => {
    expect(about('the shim', 'exited')).toBe('exited');
    expect(about('turn 2', 'exited')).toBe('turn 2: exited');
    const findings = [{ rule: 'r.x', severity: 'MUST' as const, message: 'm' }];
    expect(prefixed(findings, 'the shim')).toBe(findings);
    expect(prefixed(findings, 'turn 2')[0]!.message).toBe('turn 2: m');
    expect(findings[0]!.message).toBe('m');
  });
});

describe('the events of a process', () => {
  const persistent = processOf({
    events: [text(1), result(2), text(3), result(4), text(5)],
    turnStarts: new Map([
      [0, 0],
      [1, 2],
      [2, 4],
    ]),
  });

  it('cuts each turn at its result, and keeps an unfinished last turn', () => {
    expect(turnEvents(persistent, 0).map((event) => event.line)).toEqual([1, 2]);
    expect(turnEvents(persistent, 1).map((event) => event.line)).toEqual([3, 4]);
    expect(turnEvents(persistent, 2).map((event) => event.line)).toEqual([5]);
    expect(eventsOf(persistent)).toHaveLength(5);
  });

  it('dates a line by its arrival, undefined for a line never seen', () => {
    const timed = processOf({ events: [text(1)] });
    timed.live.events[0]!.atMs = 123;
    expect(lineTime(timed, 1)).toBe(123);
    expect(lineTime(timed, 9)).toBeUndefined();
  });
});
