// The bundled shim keeps its glob engine (tinyglobby) in a file of its own next to the bundle
// (dist/yume-shim-glob.cjs), loaded the first time a turn globs: Glob and Grep work through the built bin, and a
// bin copied without that file still ends the turn properly, with the tool's failure naming the missing file.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../harness/mock/scenario-types.js';
import { runScenario } from './helpers/scenario-run.js';
import { ROOT, toolResults } from './helpers/shim-process.js';

const WORKSPACE = path.resolve(__dirname, '..', '..', 'transcripts', 'single-tool', 'workspace');

const globScenario = {
  id: 'feature-glob-chunk',
  title: 'glob and grep',
  description: 'Glob then Grep in one model call, then an answer',
  spec: 'R3',
  workspaceDir: WORKSPACE,
  turns: [
    {
      prompt: 'Which text files are there, and which mention Hello?',
      responses: [
        {
          toolCalls: [
            { id: 'g1', name: 'Glob', input: { pattern: '*.txt' } },
            { id: 'g2', name: 'Grep', input: { pattern: 'Hello' } },
          ],
          usage: { input_tokens: 50, output_tokens: 10 },
        },
        { text: ['Two files; hello.txt says Hello.'], usage: { input_tokens: 80, output_tokens: 8 } },
      ],
      expect: { isError: false },
    },
  ],
} as unknown as Scenario;

describe('the glob engine in its own file', () => {
  it('Glob and Grep of the built bin find files and matches', async () => {
    const result = await runScenario(globScenario, 'openai-chat');
    const [run] = result.runs;
    expect(run!.code, run!.stderr).toBe(0);
    const [glob, grep] = toolResults(run!.lines);
    expect(glob).toMatchObject({ is_error: false, content: 'hello.txt\nnotes.txt' });
    expect(grep).toMatchObject({ is_error: false });
    expect(grep!.content).toContain('hello.txt');
    expect(run!.lines.find((line) => line.type === 'result')).toMatchObject({ is_error: false });
  });

  it('a bin copied without the glob file fails only the glob tools, naming the file', async () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'yume-shim-no-glob-'));
    try {
      for (const file of ['yume-shim.cjs', 'yume-shim-bundle.cjs'])
        copyFileSync(path.join(ROOT, 'dist', file), path.join(copy, file));
      const result = await runScenario(globScenario, 'openai-chat', { bin: path.join(copy, 'yume-shim.cjs') });
      const [run] = result.runs;
      expect(run!.code, run!.stderr).toBe(0);
      const results = toolResults(run!.lines);
      expect(results).toHaveLength(2);
      for (const failed of results) {
        expect(failed.is_error).toBe(true);
        expect(failed.content).toContain('yume-shim-glob.cjs');
      }
      expect(run!.lines.find((line) => line.type === 'result')).toMatchObject({ is_error: false });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
