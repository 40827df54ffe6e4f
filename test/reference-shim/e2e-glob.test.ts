// Glob and Grep through the built bin: the glob engine (tinyglobby, with fdir and picomatch) is bundled as
// CommonJS, where its ES-module expectations (import.meta.url) only hold because the build provides them.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../harness/mock/scenario/scenario-types.js';
import { runScenario } from './helpers/scenario-run.js';
import { toolResults } from './helpers/shim-process.js';

const WORKSPACE = path.resolve(__dirname, '..', '..', 'transcripts', 'single-tool', 'workspace');

const globScenario = {
  id: 'feature-glob',
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

describe('Glob and Grep of the built shim', () => {
  it('find files and matches', async () => {
    const result = await runScenario(globScenario, 'openai-chat');
    const [run] = result.runs;
    expect(run!.code, run!.stderr).toBe(0);
    const [glob, grep] = toolResults(run!.lines);
    expect(glob).toMatchObject({ is_error: false, content: 'hello.txt\nnotes.txt' });
    expect(grep).toMatchObject({ is_error: false });
    expect(grep!.content).toContain('hello.txt');
    expect(run!.lines.find((line) => line.type === 'result')).toMatchObject({ is_error: false });
  });
});
