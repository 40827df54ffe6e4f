import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TurnModel } from '../../../harness/golden/golden-model.js';
import type { ProcessInfo } from '../../../harness/process/process-table.js';
import type { Finding } from '../../../harness/rules/types.js';
import {
  compareKilledWithGolden,
  killedSessionFindings,
  killedStreamFindings,
  orphanedToolFindings,
} from '../../../harness/runner/checks/kill-checks.js';
import { processOf, rules, scenarioOf } from '../helpers/check-fixtures.js';

const streamFinding = (rule: string, line: number): Finding => ({ rule, severity: 'MUST', message: 'm', line });

describe('killedStreamFindings', () => {
  it('drops the rules that need an ending and any finding on the cut last line', () => {
    const killed = processOf({ exit: { stdout: Buffer.from('{"a":1}\n{"b":2}\n{"c"') } });
    const findings = [
      streamFinding('turn.result-last', 3),
      streamFinding('framing.json', 3),
      streamFinding('framing.json', 2),
    ];
    expect(killedStreamFindings(findings, killed).map((finding) => finding.line)).toEqual([2]);
  });

  it('keeps findings on the last line when the stream ended with a newline', () => {
    const killed = processOf({ exit: { stdout: Buffer.from('{"a":1}\n{"b":2}\n') } });
    const findings = [streamFinding('framing.json', 2)];
    expect(killedStreamFindings(findings, killed)).toHaveLength(1);
  });
});

describe('orphanedToolFindings', () => {
  const info = (pid: number, name: string) => ({ pid, name }) as ProcessInfo;

  it('reports each leftover process once, as a SHOULD', () => {
    const killed = processOf({
      exit: { descendantsLeft: [info(10, 'sleep'), info(10, 'sleep')], descendantsKilled: [], stdioHeldOpen: false },
    });
    const findings = orphanedToolFindings(killed, 'turn 1');
    expect(rules(findings)).toEqual(['process.orphaned-tools']);
    expect(findings[0]!.severity).toBe('SHOULD');
    expect(findings[0]!.message).toContain('pid 10');
  });

  it('counts the killed descendants only when they held stdio open', () => {
    const exit = { descendantsLeft: [], descendantsKilled: [info(11, 'bash')] };
    expect(orphanedToolFindings(processOf({ exit: { ...exit, stdioHeldOpen: false } }), 't')).toEqual([]);
    expect(rules(orphanedToolFindings(processOf({ exit: { ...exit, stdioHeldOpen: true } }), 't'))).toEqual([
      'process.orphaned-tools',
    ]);
  });
});

describe('compareKilledWithGolden', () => {
  const golden: TurnModel[] = [
    {
      items: [
        { kind: 'text', text: 'Counting: one, two.', lines: [2] },
        { kind: 'result', isError: false, lines: [3] },
      ],
    },
  ];
  const printed = (text: string): TurnModel[] => [{ items: [{ kind: 'text', text, lines: [2] }] }];

  it('accepts a prefix of the golden, and nothing at all', () => {
    expect(compareKilledWithGolden(golden, printed('Counting: on'), 'the golden', 'the shim')).toEqual([]);
    expect(compareKilledWithGolden(golden, [], 'the golden', 'the shim')).toEqual([]);
  });

  it('fails printed text the golden does not have, on its line', () => {
    const findings = compareKilledWithGolden(golden, printed('Something else'), 'the golden', 'the shim');
    expect(rules(findings)).toEqual(['golden.text']);
    expect(findings[0]!.line).toBe(2);
  });

  it('fails a tool call where the golden has text as a tool-call difference', () => {
    const observed: TurnModel[] = [
      { items: [{ kind: 'tools', calls: [{ name: 'Read', input: {}, key: 'k', line: 2 }], lines: [2] }] },
    ];
    expect(rules(compareKilledWithGolden(golden, observed, 'g', 's'))).toEqual(['golden.tool-calls']);
  });
});

describe('killedSessionFindings', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'yume-kill-checks-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const scenario = scenarioOf([
    { prompt: 'First "quoted" task' },
    { prompt: 'Killed task', kill: 'after-first-text' },
    {},
  ]);
  const saved = (history: unknown[]) => {
    const file = path.join(dir, 's.json');
    writeFileSync(file, JSON.stringify({ history }));
    return file;
  };

  it('passes a history holding every completed prompt (the killed one may be missing)', () => {
    const file = saved([
      { role: 'user', content: 'First "quoted" task' },
      { role: 'user', content: 'hi' },
    ]);
    expect(killedSessionFindings(scenario, file, '~/s.json')).toEqual([]);
  });

  it('fails once per completed prompt the history lost', () => {
    const file = saved([{ role: 'user', content: 'Killed task' }]);
    expect(rules(killedSessionFindings(scenario, file, '~/s.json'))).toEqual(['session.file', 'session.file']);
  });

  it('asks nothing of scenarios without a kill', () => {
    expect(killedSessionFindings(scenarioOf([{}]), saved([]), '~/s.json')).toEqual([]);
  });
});
