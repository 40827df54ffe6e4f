import { describe, expect, it } from 'vitest';
import type { Turn } from '../../../harness/mock/scenario/scenario-types.js';
import type { CanonicalEvent } from '../../../harness/protocol/canonical.js';
import type { CheckInput } from '../../../harness/runner/checks/check-types.js';
import {
  faultOutcomeChecks,
  missingCliOutcomeChecks,
  retried,
} from '../../../harness/runner/checks/fault-outcome-checks.js';
import { rules, toolUse } from '../helpers/check-fixtures.js';

type Fault = NonNullable<Turn['responses'][number]['fault']>;

const faultTurn = (fault: Fault, isError: boolean): Turn => ({
  prompt: 'hi',
  responses: [{ fault }, { text: ['ok'] }],
  expect: { isError },
});
const http = (status: number) => ({ kind: 'http', status }) as Fault;
const systemError = (line: number, message = 'auth failed'): CanonicalEvent => ({
  kind: 'system',
  line,
  subtype: 'error',
  message,
});
const errorLine = (line: number): CanonicalEvent => ({ kind: 'error', line, message: 'boom' }) as CanonicalEvent;
const result = (line: number, isError: boolean, errors?: unknown): CanonicalEvent => ({
  kind: 'result',
  line,
  isError,
  ...(errors === undefined ? {} : { errors }),
});

describe('faultOutcomeChecks, a turn that must fail', () => {
  it('asks a system error before the error result for 401 and 403', () => {
    const turn = faultTurn(http(401), true);
    expect(faultOutcomeChecks(turn, 0, [systemError(1), result(2, true)], { label: 'the shim' })).toEqual([]);
    const findings = faultOutcomeChecks(turn, 0, [errorLine(1), result(2, true)], { label: 'the shim' });
    expect(rules(findings)).toEqual(['error.fault-outcome']);
    expect(findings[0]!.line).toBe(2);
  });

  it('asks an error line (or a system error) before the error result for other faults', () => {
    const turn = faultTurn(http(500), true);
    expect(faultOutcomeChecks(turn, 0, [errorLine(1), result(2, true)], { label: 'the shim' })).toEqual([]);
    expect(faultOutcomeChecks(turn, 0, [systemError(1), result(2, true)], { label: 'the shim' })).toEqual([]);
    expect(rules(faultOutcomeChecks(turn, 0, [result(1, true)], { label: 'the shim' }))).toEqual([
      'error.fault-outcome',
    ]);
    // An error printed after the result does not count.
    expect(rules(faultOutcomeChecks(turn, 0, [result(1, true), errorLine(2)], { label: 'the shim' }))).toEqual([
      'error.fault-outcome',
    ]);
  });
});

describe('faultOutcomeChecks, a turn that recovers', () => {
  const turn = faultTurn(http(429), false);

  it('asks result.errors to list the failed requests, when retries are visible', () => {
    expect(faultOutcomeChecks(turn, 0, [result(1, false, ['429 retried'])], { label: 'the shim' })).toEqual([]);
    expect(rules(faultOutcomeChecks(turn, 0, [result(1, false, [])], { label: 'the shim' }))).toEqual([
      'error.retries-listed',
    ]);
    expect(faultOutcomeChecks(turn, 0, [result(1, false)], { label: 'the shim', retriesVisible: false })).toEqual([]);
  });

  it('judges nothing without a result, without faults, or in an interrupted turn', () => {
    expect(faultOutcomeChecks(turn, 0, [], { label: 'the shim' })).toEqual([]);
    const calm: Turn = { prompt: 'hi', responses: [{ text: ['ok'] }], expect: { isError: false } };
    expect(faultOutcomeChecks(calm, 0, [result(1, false)], { label: 'the shim' })).toEqual([]);
    const interrupted = { ...faultTurn(http(500), true), interrupt: 'after-first-text' } as Turn;
    expect(faultOutcomeChecks(interrupted, 0, [result(1, true)], { label: 'the shim' })).toEqual([]);
  });
});

describe('missingCliOutcomeChecks', () => {
  it('passes a readable system error then an error result', () => {
    expect(missingCliOutcomeChecks(0, [systemError(1, 'gemini is not installed'), result(2, true)], 't')).toEqual([]);
  });

  it('fails a success result, a system error without a message, and a reported tool call', () => {
    expect(rules(missingCliOutcomeChecks(0, [systemError(1), result(2, false)], 't'))).toEqual(['error.fault-outcome']);
    const silent = missingCliOutcomeChecks(0, [systemError(1, ' '), result(2, true)], 't');
    expect(rules(silent)).toEqual(['error.fault-outcome']);
    expect(silent[0]!.line).toBe(1);
    const withTool = missingCliOutcomeChecks(0, [systemError(1), toolUse(2, 'a', 'Bash'), result(3, true)], 't');
    expect(rules(withTool)).toEqual(['error.fault-outcome']);
    expect(withTool[0]!.line).toBe(2);
  });
});

describe('retried', () => {
  const input = (extra: Partial<CheckInput>) => ({ requests: [], ...extra }) as CheckInput;

  it('is true when the mock answered a request of the turn with an HTTP fault, or the fake CLI finished it', () => {
    expect(retried(input({ requests: [{ turn: 0, outcome: 'http-fault' }] as CheckInput['requests'] }), 0)).toBe(true);
    expect(retried(input({ requests: [{ turn: 1, outcome: 'http-fault' }] as CheckInput['requests'] }), 0)).toBe(false);
    const cli = (finalEvent: boolean) =>
      ({ log: [{ event: 'exit', turnIndex: 0, finalEvent }] }) as unknown as CheckInput['cli'];
    expect(retried(input({ cli: cli(true) }), 0)).toBe(true);
    expect(retried(input({ cli: cli(false) }), 0)).toBe(false);
  });
});
