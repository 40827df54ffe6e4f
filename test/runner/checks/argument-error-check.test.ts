import { describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../../harness/protocol/canonical.js';
import { runFinding } from '../../../harness/rules/finding.js';
import { argumentErrorCheck } from '../../../harness/runner/checks/argument-error-check.js';
import { processOf, rules } from '../helpers/check-fixtures.js';

const systemError: CanonicalEvent = { kind: 'system', line: 1, subtype: 'error', message: 'unknown flag' };
const errorResult: CanonicalEvent = { kind: 'result', line: 2, isError: true };
const stdout = Buffer.from('{}\n{}\n');

describe('argumentErrorCheck, the flat form', () => {
  it('passes a system error, an error result and exit code 2', () => {
    const verdict = argumentErrorCheck(
      processOf({ exit: { exitCode: 2, stdout } }),
      [systemError, errorResult],
      '--bogus',
      'flat',
    );
    expect(verdict.findings).toEqual([]);
    expect(verdict.applies(runFinding('framing.not-empty', 'x'))).toBe(true);
  });

  it('fails each missing part: no system error first, a success result, another exit code, an answer', () => {
    const text: CanonicalEvent = { kind: 'text', line: 2, text: 'hello' };
    const success: CanonicalEvent = { kind: 'result', line: 3, isError: false };
    const verdict = argumentErrorCheck(
      processOf({ exit: { exitCode: 0, stdout } }),
      [text, success],
      '--bogus',
      'flat',
    );
    expect(rules(verdict.findings)).toEqual([
      'process.argument-error',
      'process.argument-error',
      'process.argument-error',
      'process.argument-error',
    ]);
  });
});

describe("argumentErrorCheck, Claude Code's silent form", () => {
  const silent = (exitCode: number, stderr: string) =>
    processOf({ exit: { exitCode, stdout: Buffer.alloc(0), stderr: Buffer.from(stderr) } });

  it('conforms in the claude dialect with a message on stderr and a non-zero exit, exempt from output rules', () => {
    const verdict = argumentErrorCheck(silent(1, 'error: unknown option'), [], '--bogus', 'claude');
    expect(verdict.findings).toEqual([]);
    expect(verdict.applies(runFinding('framing.not-empty', 'x'))).toBe(false);
    expect(verdict.applies(runFinding('process.no-output', 'x'))).toBe(false);
    expect(verdict.applies(runFinding('golden.text', 'x'))).toBe(false);
    expect(verdict.applies(runFinding('process.exit-code', 'x'))).toBe(true);
  });

  it('fails it in the flat dialect, with exit code 0, or with nothing on stderr', () => {
    expect(rules(argumentErrorCheck(silent(1, 'error'), [], '--bogus', 'flat').findings)).toEqual([
      'process.argument-error',
    ]);
    expect(rules(argumentErrorCheck(silent(0, 'error'), [], '--bogus', 'claude').findings)).toEqual([
      'process.argument-error',
    ]);
    expect(rules(argumentErrorCheck(silent(1, '  \n'), [], '--bogus', 'claude').findings)).toEqual([
      'process.argument-error',
    ]);
  });

  it('says nothing of a process that never started or timed out', () => {
    expect(argumentErrorCheck(processOf({ exit: { spawnError: 'ENOENT' } }), [], '--x', 'flat').findings).toEqual([]);
    expect(argumentErrorCheck(processOf({ exit: { timedOut: true } }), [], '--x', 'flat').findings).toEqual([]);
  });
});
