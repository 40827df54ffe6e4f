// End to end, beyond the committed scenarios: the permission modes (deny, interactive with and without a stdin
// channel).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../harness/mock/scenario/scenario-types.js';
import { mustFindings, removeDir } from './helpers/feature-setup.js';
import { runPersistentScenario } from './helpers/persistent-run.js';
import { runScenario } from './helpers/scenario-run.js';
import { toolResults } from './helpers/shim-process.js';

const writeTwoFiles = (permissionMode: Scenario['permissionMode'], approvals?: boolean[]): Scenario => ({
  id: `perm-${permissionMode}`,
  title: 't',
  description: 'd',
  spec: 'permissions',
  permissionMode,
  turns: [
    {
      prompt: 'Create two files.',
      approvals,
      responses: [
        {
          toolCalls: [
            { id: 'w1', name: 'Write', input: { file_path: 'one.txt', content: 'one\n' } },
            { id: 'w2', name: 'Write', input: { file_path: 'two.txt', content: 'two\n' } },
          ],
        },
        { text: ['Done.'] },
      ],
      expect: { isError: false },
    },
  ],
});

describe('permission modes', () => {
  it('deny: every call gets an error tool_result and nothing changes; the loop still ends normally', async () => {
    const result = await runScenario(writeTwoFiles('deny'), 'anthropic', { keepDirs: true });
    try {
      const [run] = result.runs;
      const results = toolResults(run!.lines);
      expect(results.map((r) => r.is_error)).toEqual([true, true]);
      expect(results[0]!.content).toContain('Permission denied');
      expect(
        existsSync(path.join(result.workspace, 'one.txt')) || existsSync(path.join(result.workspace, 'two.txt')),
      ).toBe(false);
      expect(run!.lines.find((line) => line.type === 'result')).toMatchObject({ is_error: false });
      expect(mustFindings(run!.stdout)).toEqual([]);
    } finally {
      removeDir(result.workspace);
    }
  });

  it('interactive (persistent): each call waits for its tool_approval; a denied call changes nothing', async () => {
    const result = await runPersistentScenario(writeTwoFiles('interactive', [true, false]), 'openai-chat');
    try {
      const results = toolResults(result.run.lines);
      expect(results.map((r) => r.is_error)).toEqual([false, true]);
      expect(readFileSync(path.join(result.workspace, 'one.txt'), 'utf8')).toBe('one\n');
      expect(existsSync(path.join(result.workspace, 'two.txt'))).toBe(false);
      expect(result.run.code).toBe(0);
      expect(mustFindings(result.run.stdout, 'persistent')).toEqual([]);
    } finally {
      result.cleanup();
    }
  });

  it('interactive without a stdin channel (spawn-per-turn) refuses the call instead of hanging', async () => {
    const result = await runScenario(writeTwoFiles('interactive'), 'gemini', { keepDirs: true });
    try {
      const results = toolResults(result.runs[0]!.lines);
      expect(results.map((r) => r.is_error)).toEqual([true, true]);
      expect(results[0]!.content).toContain('--input-format stream-json');
    } finally {
      removeDir(result.workspace);
    }
  });
});
