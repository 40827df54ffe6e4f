// End to end, beyond the committed scenarios: sessions and resume (R8), --history-file, the prompt on stdin,
// permission modes, persistent mode with its control frames, interrupts (R6) and real streaming.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DUMMY_CREDENTIALS } from '../../harness/mock/credentials.js';
import { providerEnvironment } from '../../harness/mock/provider-environment.js';
import { startMockServer } from '../../harness/mock/mock-server.js';
import type { MockProviderId, Scenario } from '../../harness/mock/scenario/scenario-types.js';
import { validateStream } from '../../harness/validate/validate-stream.js';
import { runPersistentScenario } from './helpers/persistent-run.js';
import { runScenario } from './helpers/scenario-run.js';
import { lineText, runShim, toolResults, toolUses } from './helpers/shim-process.js';

const HELLO_WORKSPACE = path.resolve(__dirname, '..', '..', 'transcripts', 'single-tool', 'workspace');

function bodiesText(requests: Array<{ rawBody: string; turn: number }>, turn: number): string {
  return requests
    .filter((request) => request.turn === turn)
    .map((request) => request.rawBody)
    .join('\n');
}

function mustFindings(stdout: Buffer, mode: 'spawn-per-turn' | 'persistent' = 'spawn-per-turn'): string[] {
  return validateStream(stdout, { profile: 'spec', mode })
    .findings.filter((finding) => finding.severity === 'MUST')
    .map((finding) => `${finding.rule} line ${finding.line}: ${finding.message}`);
}

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
        const { rmSync } = await import('node:fs');
        rmSync(result.workspace, { recursive: true, force: true });
        rmSync(result.home, { recursive: true, force: true });
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
    const { mkdtempSync } = await import('node:fs');
    const os = await import('node:os');
    const home = mkdtempSync(path.join(os.tmpdir(), 'yume-shim-home-'));
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
        env: { PATH: process.env.PATH, HOME: home, ...providerEnvironment(mock.baseUrls) },
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
    const { mkdtempSync } = await import('node:fs');
    const os = await import('node:os');
    const home = mkdtempSync(path.join(os.tmpdir(), 'yume-shim-home-'));
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
        env: { PATH: process.env.PATH, HOME: home, ...providerEnvironment(mock.baseUrls) },
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
      result.workspace && (await import('node:fs')).rmSync(result.workspace, { recursive: true, force: true });
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
      (await import('node:fs')).rmSync(result.workspace, { recursive: true, force: true });
    }
  });
});

describe('persistent mode', () => {
  const twoTurns: Scenario = {
    id: 'persistent-two',
    title: 't',
    description: 'd',
    spec: 'R6',
    mode: 'persistent',
    turns: [
      {
        prompt: 'First question.',
        responses: [{ text: ['First answer.'], usage: { input_tokens: 10, output_tokens: 2 } }],
        expect: { isError: false },
      },
      {
        prompt: 'Second question.',
        stdin: [
          '',
          '   ',
          '{"type":"set_permission_mode","mode":"auto","extra":1}\r',
          'not json',
          '{"type":"bogus_frame"}',
          '[1,2]',
        ],
        responses: [{ text: ['Second answer.'], usage: { input_tokens: 20, output_tokens: 2 } }],
        expect: { isError: false },
      },
    ],
  };

  it('serves one turn per user frame, tolerates blank lines/CRLF/unknown fields, answers bad frames with error lines, ends on EOF', async () => {
    const result = await runPersistentScenario(twoTurns, 'gemini');
    try {
      const { run } = result;
      expect(run.timedOut).toBe(false);
      expect(run.code).toBe(0);
      expect(run.lines.filter((line) => line.type === 'system' && line.subtype === 'init')).toHaveLength(1);
      expect(run.lines.filter((line) => line.type === 'result').map((line) => line.is_error)).toEqual([false, false]);
      const errors = run.lines.filter((line) => line.type === 'error').map((line) => String(line.message));
      expect(errors).toHaveLength(3);
      expect(errors[0]).toMatch(/not valid JSON/);
      expect(errors[1]).toMatch(/unknown frame type "bogus_frame"/);
      expect(errors[2]).toMatch(/no "type"/);
      expect(run.lines.filter((line) => line.type === 'error').every((line) => line.code === 'invalid_frame')).toBe(
        true,
      );
      // The second turn carries the first one.
      expect(bodiesText(result.requests, 1)).toContain('First answer.');
    } finally {
      result.cleanup();
    }
  });

  it('accepts the claude form of the user frame', async () => {
    const result = await runPersistentScenario(twoTurns, 'anthropic', {
      frameFor: (prompt) =>
        JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: prompt }] } }),
    });
    try {
      expect(result.run.lines.filter((line) => line.type === 'result').map((line) => line.is_error)).toEqual([
        false,
        false,
      ]);
      expect(bodiesText(result.requests, 0)).toContain('First question.');
    } finally {
      result.cleanup();
    }
  });

  it('an interrupt frame ends the turn (interrupt, error result) and the next user frame is served', async () => {
    const scenario: Scenario = {
      id: 'persistent-interrupt',
      title: 't',
      description: 'd',
      spec: 'R6',
      mode: 'persistent',
      turns: [
        {
          prompt: 'Count.',
          interrupt: 'after-first-text',
          responses: [{ text: ['One, ', 'two.'], stall: 'after-first-text' }],
          expect: { isError: true },
        },
        { prompt: 'Again?', responses: [{ text: ['Sure.'] }], expect: { isError: false } },
      ],
    };
    const result = await runPersistentScenario(scenario, 'openai-responses');
    try {
      const types = result.run.lines.map((line) => line.type);
      const interruptAt = types.indexOf('interrupt');
      expect(interruptAt).toBeGreaterThan(0);
      expect(result.run.lines[interruptAt + 1]).toMatchObject({ type: 'result', is_error: true, subtype: 'cancelled' });
      expect(result.run.lines.filter((line) => line.type === 'result').map((line) => line.is_error)).toEqual([
        true,
        false,
      ]);
      expect(result.requests[0]!.closedByClient).toBe(true);
      expect(mustFindings(result.run.stdout, 'persistent')).toEqual([]);
    } finally {
      result.cleanup();
    }
  });
});

describe('interrupt (spawn-per-turn, SIGINT)', () => {
  it.runIf(process.platform === 'linux')(
    'during a Bash tool: the tool tree dies, its call gets an error result, then interrupt and an error result; exit within 2 s',
    async () => {
      const scenario: Scenario = {
        id: 'interrupt-tool',
        title: 't',
        description: 'd',
        spec: 'R6',
        turns: [
          {
            prompt: 'Run it.',
            interrupt: 'during-tool',
            responses: [
              {
                toolCalls: [
                  { id: 'b1', name: 'Bash', input: { command: 'setsid sleep 60 & echo $! > escaped.pid; sleep 60' } },
                ],
              },
            ],
            expect: { isError: true },
          },
        ],
      };
      const result = await runScenario(scenario, 'openai-chat', { keepDirs: true });
      try {
        const [run] = result.runs;
        const types = run!.lines.map((line) => line.type);
        expect(types.slice(-4)).toEqual(['tool_result', 'interrupt', 'result', 'message_stop']);
        expect(toolResults(run!.lines)[0]).toMatchObject({
          is_error: true,
          content: expect.stringContaining('interrupted'),
        });
        const sigintAt = run!.lineTimes[types.indexOf('tool_use')]! + 150;
        expect(run!.durationMs - sigintAt).toBeLessThan(2000);
        const escaped = Number(readFileSync(path.join(result.workspace, 'escaped.pid'), 'utf8'));
        const stat = (() => {
          try {
            return readFileSync(`/proc/${escaped}/stat`, 'utf8');
          } catch {
            return '';
          }
        })();
        expect(stat === '' || / Z /.test(stat)).toBe(true);
        expect(mustFindings(run!.stdout)).toEqual([]);
      } finally {
        (await import('node:fs')).rmSync(result.workspace, { recursive: true, force: true });
      }
    },
  );
});

describe('streaming', () => {
  it('prints the first text line while the provider still withholds the rest of the stream', async () => {
    const scenario: Scenario = {
      id: 'gate',
      title: 't',
      description: 'd',
      spec: 'streaming',
      turns: [{ prompt: 'hi', responses: [{ text: ['First chunk. ', 'Second chunk.'] }], expect: { isError: false } }],
    };
    for (const dialect of ['flat', 'claude']) {
      const mock = await startMockServer({ scenario, provider: 'anthropic', gate: true });
      try {
        let sawFirst = false;
        const run = await runShim({
          args: ['--provider', 'anthropic', '--cwd', HELLO_WORKSPACE, '--prompt', 'hi', '--dialect', dialect],
          env: { PATH: process.env.PATH, HOME: '/nonexistent-home', ...providerEnvironment(mock.baseUrls) },
          onLine(line) {
            if (!sawFirst && lineText(line) !== undefined) {
              sawFirst = true;
              expect(lineText(line)).toBe('First chunk. ');
              mock.openGate();
            }
          },
        });
        expect(sawFirst).toBe(true);
        expect(run.lines.map(lineText).filter(Boolean).join('')).toBe('First chunk. Second chunk.');
      } finally {
        await mock.close();
      }
    }
  });
});

describe('secrets', () => {
  it('never prints the dummy credentials, even when the provider echoes them', async () => {
    const scenario: Scenario = {
      id: 'echo',
      title: 't',
      description: 'd',
      spec: 'D2',
      turns: [
        {
          prompt: 'Show env.',
          responses: [
            { toolCalls: [{ id: 'e1', name: 'Bash', input: { command: 'env; cat secret.txt' } }] },
            { text: [`Your key is ${DUMMY_CREDENTIALS.openaiApiKey} and ${DUMMY_CREDENTIALS.gcloudAccessToken}`] },
          ],
          expect: { isError: false },
        },
      ],
    };
    const { mkdtempSync } = await import('node:fs');
    const os = await import('node:os');
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'yume-shim-ws-'));
    writeFileSync(
      path.join(workspace, 'secret.txt'),
      `${DUMMY_CREDENTIALS.ghToken}\n${DUMMY_CREDENTIALS.anthropicApiKey}\n`,
    );
    const result = await runScenario({ ...scenario, workspaceDir: workspace } as never, 'openai-chat');
    const everything = result.runs.map((run) => run.stdout.toString() + run.stderr).join('');
    for (const secret of Object.values(DUMMY_CREDENTIALS)) expect(everything).not.toContain(secret);
    expect(toolUses(result.runs[0]!.lines)).toHaveLength(1);
    expect(everything).toContain('[REDACTED]');
  });
});

describe('stdout closed by the reader (EPIPE)', () => {
  it('ends quietly: no stack trace, the process exits', async () => {
    const scenario: Scenario = {
      id: 'epipe',
      title: 't',
      description: 'd',
      spec: 'framing',
      turns: [
        // Text keeps coming (100 ms apart), so the shim writes again after the reader has gone, whenever that
        // is: a stream that stalls after its first chunk leaves nothing to write when the shim is quicker than
        // the reader, and then no EPIPE ever comes.
        {
          prompt: 'hi',
          responses: [
            { text: Array.from({ length: 40 }, (_, index) => `t${index} `), fault: { kind: 'drip', gapMs: 100 } },
          ],
          expect: { isError: true },
        },
      ],
    };
    const mock = await startMockServer({ scenario, provider: 'openai-chat' });
    const { spawn } = await import('node:child_process');
    const { SHIM_BIN } = await import('./helpers/shim-process.js');
    try {
      const child = spawn(
        process.execPath,
        [SHIM_BIN, '--provider', 'openai', '--cwd', HELLO_WORKSPACE, '--prompt', 'hi'],
        {
          env: { PATH: process.env.PATH, HOME: '/nonexistent-home', ...providerEnvironment(mock.baseUrls) },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.on('close', (exitCode) => {
          clearTimeout(timer);
          resolve(exitCode);
        });
      });
      expect(code).not.toBeNull();
      expect(stderr).not.toMatch(/at .*\(|Error: write EPIPE|internal error/);
      // The server may notice the closed socket a moment after the process is gone.
      for (let waited = 0; !mock.requests()[0]!.closedByClient && waited < 2000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(mock.requests()[0]!.closedByClient).toBe(true);
    } finally {
      await mock.close();
    }
  });
});
