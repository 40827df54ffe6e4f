// End to end, beyond the committed scenarios: interrupts by SIGINT (R6), real streaming, secrets kept out of the
// output (D2) and a reader that closes stdout (EPIPE).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DUMMY_CREDENTIALS } from '../../harness/mock/credentials.js';
import { startMockServer } from '../../harness/mock/mock-server.js';
import type { Scenario } from '../../harness/mock/scenario/scenario-types.js';
import { HELLO_WORKSPACE, mustFindings, NO_HOME, removeDir, shimEnv, tempDir } from './helpers/feature-setup.js';
import { runScenario } from './helpers/scenario-run.js';
import { lineText, runShim, toolResults, toolUses } from './helpers/shim-process.js';

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
        removeDir(result.workspace);
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
          env: shimEnv(NO_HOME, mock.baseUrls),
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
    const workspace = tempDir('yume-shim-ws-');
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
          env: shimEnv(NO_HOME, mock.baseUrls),
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
