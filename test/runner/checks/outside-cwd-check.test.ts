import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outsideCwdChecks } from '../../../harness/runner/checks/outside-cwd-check.js';
import { rules, scenarioOf, toolResult, toolUse } from '../helpers/check-fixtures.js';

let root: string;
let workspace: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'yume-outside-cwd-'));
  workspace = path.join(root, 'ws');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const calling = (name: string, file: string) =>
  scenarioOf([{ responses: [{ toolCalls: [{ id: 'c1', name, input: { file_path: file } }] }, { text: ['done'] }] }]);

describe('outsideCwdChecks', () => {
  it('fails a call outside --cwd answered as a success', () => {
    const events = [toolUse(2, 'x', 'Read', { file_path: '../secret.txt' }), toolResult(3, 'x', false)];
    const findings = outsideCwdChecks(calling('Read', '../secret.txt'), workspace, events);
    expect(rules(findings)).toEqual(['workspace.outside-cwd-refused']);
    expect(findings[0]!.line).toBe(3);
  });

  it('passes the call when it is refused with an error and nothing was written', () => {
    const events = [toolUse(2, 'x', 'Write', { file_path: '../out.txt' }), toolResult(3, 'x', true)];
    expect(outsideCwdChecks(calling('Write', '../out.txt'), workspace, events)).toEqual([]);
  });

  it('fails a write whose target exists after the run, even when the answer was an error', () => {
    writeFileSync(path.join(root, 'out.txt'), 'written');
    const events = [toolUse(2, 'x', 'Write', { file_path: '../out.txt' }), toolResult(3, 'x', true)];
    expect(rules(outsideCwdChecks(calling('Write', '../out.txt'), workspace, events))).toEqual([
      'workspace.outside-cwd-refused',
    ]);
  });

  it('ignores calls whose path stays inside --cwd', () => {
    const events = [toolUse(2, 'x', 'Read', { file_path: 'sub/../hello.txt' }), toolResult(3, 'x', false)];
    expect(outsideCwdChecks(calling('Read', 'sub/../hello.txt'), workspace, events)).toEqual([]);
  });

  it('treats an absolute path elsewhere as outside', () => {
    const target = path.join(root, 'elsewhere.txt');
    const events = [toolUse(2, 'x', 'Read', { file_path: target }), toolResult(3, 'x', false)];
    expect(rules(outsideCwdChecks(calling('Read', target), workspace, events))).toEqual([
      'workspace.outside-cwd-refused',
    ]);
  });
});
