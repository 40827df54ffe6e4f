// End to end, beyond the committed scenarios: sessions and resume (R8), --history-file and the prompt on stdin.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../../harness/mock/mock-server.js';
import type { MockProviderId, Scenario } from '../../harness/mock/scenario/scenario-types.js';
import { validateStream } from '../../harness/validate/validate-stream.js';
import { bodiesText, HELLO_WORKSPACE, mustFindings, removeDir, shimEnv, tempDir } from './helpers/feature-setup.js';
import { runScenario } from './helpers/scenario-run.js';
import { runShim } from './helpers/shim-process.js';

const resumeScenario: Scenario = {
  id: 'feature-resume',
  title: 'resume',
  description: 'two turns, the second resumes the first',
  spec: 'R8',
  turns: [
    {
      prompt: 'Read hello.txt please.',
      responses: [
        {
          text: ['Reading.'],
          toolCalls: [{ id: 'r1', name: 'Read', input: { file_path: 'hello.txt' } }],
          usage: { input_tokens: 50, output_tokens: 10 },
        },
        { text: ['It greets you.'], usage: { input_tokens: 80, output_tokens: 5 } },
      ],
      expect: { isError: false },
    },
    {
      prompt: 'And what did it say again?',
      resume: true,
      responses: [{ text: ['It said hello, as before.'], usage: { input_tokens: 120, output_tokens: 6 } }],
      expect: { isError: false },
    },
  ],
};

describe('sessions and resume (R8)', () => {
  for (const provider of ['gemini', 'anthropic', 'openai-responses'] as MockProviderId[]) {
    it(`${provider}: the second process sends the whole history and keeps the session id; the file has the app's shape`, async () => {
      const result = await runScenario({ ...resumeScenario, workspaceDir: HELLO_WORKSPACE } as never, provider, {
        keepDirs: true,
      });
      try {
        const [first, second] = result.runs;
        const initOf = (run: typeof first) =>
          run!.lines.find((line) => line.type === 'system' && line.subtype === 'init')!;
        expect(initOf(second).session_id).toBe(initOf(first).session_id);
        expect(second!.lines.find((line) => line.type === 'result')).toMatchObject({ is_error: false });
        const turnTwo = bodiesText(result.requests, 1);
        expect(turnTwo).toContain('Read hello.txt please.');
        expect(turnTwo).toContain('Hello from the fixture file.'); // the tool result of turn 1
        expect(turnTwo).toContain('It greets you.');
        expect(result.requestFindings.filter((finding) => finding.severity === 'MUST')).toEqual([]);
        const flag = provider === 'openai-responses' ? 'codex' : provider;
        const file = path.join(result.home, '.yume', 'sessions', flag, `${initOf(first).session_id}.json`);
        const saved = JSON.parse(readFileSync(file, 'utf8'));
        expect(saved).toMatchObject({
          id: initOf(first).session_id,
          provider: flag,
          cwd: result.workspace,
          title: 'Read hello.txt please.',
        });
        expect(saved.usage).toEqual({ inputTokens: 250, outputTokens: 21, cacheReadTokens: 0, cacheCreationTokens: 0 });
        expect(saved.history.map((entry: { role: string }) => entry.role)).toEqual([
          'user',
          'assistant',
          'tool',
          'assistant',
          'user',
          'assistant',
        ]);
        expect(mustFindings(first!.stdout)).toEqual([]);
        expect(mustFindings(second!.stdout)).toEqual([]);
      } finally {
        removeDir(result.workspace);
        removeDir(result.home);
      }
    });
  }

  it('yume-app: an unknown --resume id starts a session under that id (noted on stderr)', async () => {
    const scenario: Scenario = {
      id: 'unknown-resume',
      title: 't',
      description: 'd',
      spec: 'R8',
      turns: [{ prompt: 'hi', responses: [{ text: ['hello'] }], expect: { isError: false } }],
    };
    const mock = await startMockServer({ scenario, provider: 'gemini' });
    const home = tempDir('yume-shim-home-');
    try {
      const run = await runShim({
        args: [
          '--provider',
          'gemini',
          '--model',
          'gemini-2.5-flash',
          '--cwd',
          home,
          '--resume',
          'tab-1764100000000',
          '--prompt',
          'hi',
          '--output-format',
          'stream-json',
          '--verbose',
        ],
        env: shimEnv(home, mock.baseUrls),
      });
      expect(run.lines[0]).toMatchObject({ type: 'system', subtype: 'init', session_id: 'tab-1764100000000' });
      expect(run.stderr).toContain('no saved session tab-1764100000000');
      expect(existsSync(path.join(home, '.yume', 'sessions', 'gemini', 'tab-1764100000000.json'))).toBe(true);
      expect(validateStream(run.stdout, { profile: 'yume-app', mode: 'spawn-per-turn' }).conforms).toBe(true);
    } finally {
      await mock.close();
    }
  });

  it('--history-file seeds the conversation; the prompt can come from stdin', async () => {
    const scenario: Scenario = {
      id: 'history-file',
      title: 't',
      description: 'd',
      spec: 'R8',
      turns: [{ prompt: 'unused', responses: [{ text: ['ok'] }], expect: { isError: false } }],
    };
    const mock = await startMockServer({ scenario, provider: 'openai-chat' });
    const home = tempDir('yume-shim-home-');
    const historyFile = path.join(home, 'history.json');
    writeFileSync(
      historyFile,
      JSON.stringify([
        { role: 'user', content: 'What is the capital of France?' },
        { role: 'assistant', content: [{ type: 'text', text: 'Paris.' }] },
      ]),
    );
    try {
      const run = await runShim({
        args: [
          '--provider',
          'openai',
          '--model',
          'gpt-4.1-mini',
          '--cwd',
          home,
          '--history-file',
          historyFile,
          '--output-format',
          'stream-json',
        ],
        env: shimEnv(home, mock.baseUrls),
        stdin: 'And of Italy?\n',
      });
      expect(run.lines.find((line) => line.type === 'result')).toMatchObject({ is_error: false });
      const body = mock.requests()[0]!.body as { messages: Array<{ role: string; content: string }> };
      expect(body.messages.slice(1)).toEqual([
        { role: 'user', content: 'What is the capital of France?' },
        { role: 'assistant', content: 'Paris.' },
        { role: 'user', content: 'And of Italy?\n' },
      ]);
    } finally {
      await mock.close();
    }
  });
});
