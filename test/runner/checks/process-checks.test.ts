import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../../harness/process/process-table.js';
import type { CanonicalEvent } from '../../../harness/protocol/canonical.js';
import { processChecks, secretsCheck } from '../../../harness/runner/checks/process-checks.js';
import { ALL_DUMMY_SECRETS } from '../../../harness/runner/setup/environment.js';
import { processOf, rules } from '../helpers/check-fixtures.js';

const result = (line: number, isError: boolean): CanonicalEvent => ({ kind: 'result', line, isError });
const sleeper = { pid: 42, name: 'sleep' } as ProcessInfo;

// Persistent runs judge no exit timing after a result, so these cases stay about the rule they name.
const judge = (process: ReturnType<typeof processOf>) => rules(processChecks(process, true).findings);

describe('processChecks', () => {
  it('finds nothing in a process that printed, ended with code 0 after a success and left nothing behind', () => {
    expect(judge(processOf({ exit: { exitedAtMs: 5 }, events: [result(1, false)] }))).toEqual([]);
  });

  it('reports a process that did not start, and nothing else about it', () => {
    expect(judge(processOf({ exit: { spawnError: 'spawn ENOENT', stdout: Buffer.alloc(0) } }))).toEqual([
      'process.started',
    ]);
  });

  it('reports a timeout, a flood and silence', () => {
    expect(judge(processOf({ exit: { timedOut: true } }))).toEqual(['process.timeout']);
    expect(judge(processOf({ exit: { flooded: true } }))).toEqual(['process.output-flood']);
    expect(judge(processOf({ exit: { stdout: Buffer.alloc(0) } }))).toEqual(['process.no-output']);
    expect(judge(processOf({ exit: { stdout: Buffer.alloc(0), timedOut: true } }))).toEqual(['process.timeout']);
  });

  it('reports stdio held open and processes left running, unless the runner killed the process itself', () => {
    expect(judge(processOf({ exit: { stdioHeldOpen: true, descendantsKilled: [sleeper] } }))).toEqual([
      'process.stdout-held-open',
    ]);
    expect(judge(processOf({ exit: { descendantsLeft: [sleeper] } }))).toEqual(['process.descendants-gone']);
    const killed = processOf({ exit: { descendantsLeft: [sleeper] }, killed: {} as never });
    expect(judge(killed)).toEqual(['process.orphaned-tools']);
  });

  it('leaves pipes that closed late undecided when the machine took the grace and no holder was found', () => {
    const late = processChecks(processOf({ exit: { stdioHeldOpen: true, stdioUndecided: true } }), true);
    expect(rules(late.findings)).toEqual([]);
    expect(late.notVerified.map((record) => [record.rule, record.cause])).toEqual([
      ['process.stdout-held-open', 'machine'],
    ]);
    // A process found holding them is the shim's, whatever the machine did.
    const held = processOf({ exit: { stdioHeldOpen: true, stdioUndecided: true, descendantsKilled: [sleeper] } });
    expect(judge(held)).toEqual(['process.stdout-held-open']);
    // Decided (the grace passed in the shim's own time): a finding even without a holder.
    expect(judge(processOf({ exit: { stdioHeldOpen: true } }))).toEqual(['process.stdout-held-open']);
  });

  it('judges the exit code against the last result, unless the harness ended the process', () => {
    expect(judge(processOf({ exit: { exitedAtMs: 5, exitCode: 1 }, events: [result(1, false)] }))).toEqual([
      'process.exit-code',
    ]);
    const afterError = processChecks(
      processOf({ exit: { exitedAtMs: 5, exitCode: 0 }, events: [result(3, true)] }),
      true,
    ).findings;
    expect(rules(afterError)).toEqual(['process.exit-code-after-error']);
    expect(afterError[0]!.line).toBe(3);
    const ended = processOf({
      exit: { exitedAtMs: 5, exitCode: 1, killedByHarness: true },
      events: [result(1, false)],
    });
    expect(judge(ended)).toEqual([]);
  });
});

describe('secretsCheck', () => {
  const secret = ALL_DUMMY_SECRETS[0]!;

  it('finds a dummy credential on stdout (with its line) and on stderr', () => {
    const process = processOf({
      exit: { stdout: Buffer.from(`{"a":1}\n{"key":"${secret}"}\n`), stderr: Buffer.from(`env: ${secret}`) },
    });
    const findings = secretsCheck(process);
    expect(rules(findings)).toEqual(['secrets.no-credential-echo', 'secrets.no-credential-echo']);
    expect(findings[0]!.line).toBe(2);
    expect(findings[1]!.line).toBeUndefined();
    // The excerpt is the offending line (the report redacts it later, redact-result.ts).
    expect(findings[0]!.excerpt).toContain('"key"');
    expect(findings[0]!.excerpt).not.toContain('"a"');
  });

  it('finds nothing in clean output', () => {
    expect(secretsCheck(processOf({ exit: { stderr: Buffer.from('fine') } }))).toEqual([]);
  });
});
