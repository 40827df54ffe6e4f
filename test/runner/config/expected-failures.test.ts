import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entryMatches, loadExpectedFailures } from '../../../harness/runner/config/expected-failures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'yume-expected-failures-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fileOf(failures: unknown[]): string {
  const file = path.join(dir, 'expected.json');
  writeFileSync(file, JSON.stringify({ failures }));
  return file;
}

describe('loadExpectedFailures', () => {
  it('reads the listed failures', () => {
    const failures = [{ scenario: 'resume', provider: 'gemini', rule: 'session.file', reason: 'bug 12' }];
    expect(loadExpectedFailures(fileOf(failures))).toEqual(failures);
  });

  it('refuses a scenario listed as a whole and per rule for an overlapping provider, naming the entry', () => {
    const file = fileOf([
      { scenario: 'resume', reason: 'whole' },
      { scenario: 'resume', provider: 'gemini', rule: 'session.file', reason: 'one rule' },
    ]);
    expect(() => loadExpectedFailures(file)).toThrow(/failures\[0\].*"session\.file"/);
  });

  it('accepts the same scenario whole and per rule when their OS lists do not overlap', () => {
    const file = fileOf([
      { scenario: 'resume', os: ['win32'], reason: 'whole' },
      { scenario: 'resume', os: ['linux'], rule: 'session.file', reason: 'one rule' },
    ]);
    expect(loadExpectedFailures(file)).toHaveLength(2);
  });

  it('refuses a file that does not match the schema', () => {
    expect(() => loadExpectedFailures(fileOf([{ provider: 'gemini' }]))).toThrow(/expected\.json/);
  });
});

describe('entryMatches', () => {
  const run = { scenario: 'resume', provider: 'gemini', os: 'linux', profile: 'spec', invocation: 'spec' };

  it('matches on the scenario, and on each optional field only when given', () => {
    expect(entryMatches({ scenario: 'resume', reason: 'r' }, run)).toBe(true);
    expect(entryMatches({ scenario: 'interrupt', reason: 'r' }, run)).toBe(false);
    expect(entryMatches({ scenario: 'resume', provider: 'anthropic', reason: 'r' }, run)).toBe(false);
    expect(entryMatches({ scenario: 'resume', os: ['darwin'], reason: 'r' }, run)).toBe(false);
    expect(entryMatches({ scenario: 'resume', os: ['darwin', 'linux'], reason: 'r' }, run)).toBe(true);
    expect(entryMatches({ scenario: 'resume', profile: 'yume-app', reason: 'r' }, run)).toBe(false);
    expect(entryMatches({ scenario: 'resume', invocation: 'yume-app', reason: 'r' }, run)).toBe(false);
  });
});
