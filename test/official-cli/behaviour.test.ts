// What the fakes do beyond the captures, with real processes: the D4 log, stdin left open, permissions,
// sessions, edits with side effects, launchers on PATH, and clear messages for a broken setup.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  installFakeClis,
  readFakeCliLog,
  setFakeCliTurn,
  waitForFakeCliEvent,
} from '../../harness/official-cli/install.js';
import type { ScriptScenario } from '../../harness/official-cli/script-types.js';
import type { StartEntry, ToolEntry } from '../../harness/official-cli/state.js';
import { FAKE_CLI, HEADLESS_ARGS, newBase, runFake } from './helpers/run-fake.js';

const text = (prompt: string, words = ['Hi.']): ScriptScenario => ({
  id: 't',
  turns: [{ prompt, responses: [{ text: words, usage: { input_tokens: 5, output_tokens: 1 } }] }],
});
const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const EDITS: ScriptScenario = {
  id: 'edits',
  turns: [
    {
      prompt: 'Edit things.',
      responses: [
        {
          toolCalls: [
            { id: 'w', name: 'Write', input: { file_path: 'out.txt', content: 'one\n' } },
            { id: 'e', name: 'Edit', input: { file_path: 'notes.txt', old_string: 'Some', new_string: 'Many' } },
            { id: 'sh', name: 'Bash', input: { command: 'echo ran >> runs.log' } },
          ],
        },
        { text: ['Done.'] },
      ],
    },
  ],
};

describe('the D4 log', () => {
  it('records each start with argv, cwd and the prompt, and each tool with its effects', async () => {
    const run = await runFake({ cli: 'codex', args: HEADLESS_ARGS.codex('Edit things.'), scenario: EDITS });
    expect(run.code).toBe(0);
    const start = run.log.find((entry): entry is StartEntry => entry.event === 'start')!;
    expect(start).toMatchObject({
      cli: 'codex',
      cwd: run.workspace,
      prompt: 'Edit things.',
      argv: HEADLESS_ARGS.codex('Edit things.'),
    });
    const tools = run.log.filter((entry): entry is ToolEntry => entry.event === 'tool');
    expect(tools.map((entry) => [entry.callId, Object.keys(entry.effects)])).toEqual([
      ['w', ['out.txt']],
      ['e', ['notes.txt']],
      ['sh', ['runs.log']],
    ]);
    expect(readFileSync(path.join(run.workspace, 'notes.txt'), 'utf8')).toBe('Many notes.\n');
    const items = lines(run.stdout)
      .filter((line) => line.type === 'item.completed')
      .map((line) => line.item as Record<string, unknown>);
    expect(
      items
        .filter((item) => item.type === 'file_change')
        .map((item) => (item.changes as Array<{ kind: string }>)[0]!.kind),
    ).toEqual(['add', 'update']);
  });
});

describe('codex and stdin', () => {
  it('waits for stdin EOF when the shim leaves stdin open, and logs it', async () => {
    const run = await runFake({
      cli: 'codex',
      args: HEADLESS_ARGS.codex('Hi'),
      scenario: text('Hi'),
      stdin: 'open',
      stdinWaitMs: 300,
    });
    expect(run.stderr).toContain('Reading additional input from stdin...');
    expect(run.log.some((entry) => entry.event === 'stdin-open')).toBe(true);
    expect(run.code).toBe(0);
  });

  it('refuses to run outside a git repository without --skip-git-repo-check', async () => {
    const run = await runFake({ cli: 'codex', args: ['exec', '--json', 'Hi'], scenario: text('Hi') });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--skip-git-repo-check was not specified');
  });
});

describe('permissions', () => {
  const bash: ScriptScenario = {
    id: 'b',
    turns: [
      {
        prompt: 'Run it.',
        responses: [
          { toolCalls: [{ id: 'x', name: 'Bash', input: { command: 'echo ran >> runs.log' } }] },
          { text: ['ok'] },
        ],
      },
    ],
  };

  it('claude denies Bash without bypass or --allowedTools, and says so in permission_denials', async () => {
    const run = await runFake({
      cli: 'claude',
      args: ['-p', '--output-format', 'stream-json', '--verbose', '--', 'Run it.'],
      scenario: bash,
    });
    const printed = lines(run.stdout);
    const toolResult = printed.find((line) => line.type === 'user')!;
    expect(JSON.stringify(toolResult)).toContain("haven't granted it yet");
    expect((printed.at(-1)!.permission_denials as unknown[]).length).toBe(1);
    const allowed = await runFake({
      cli: 'claude',
      args: ['-p', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash', '--', 'Run it.'],
      scenario: bash,
    });
    expect(readFileSync(path.join(allowed.workspace, 'runs.log'), 'utf8')).toBe('ran\n');
  });

  it('gemini refuses a shell command in headless default mode', async () => {
    const run = await runFake({
      cli: 'gemini',
      args: ['--output-format=stream-json', '--prompt=Run it.'],
      scenario: bash,
    });
    const result = lines(run.stdout).find((line) => line.type === 'tool_result')!;
    expect(result).toMatchObject({ status: 'error', error: { type: 'execution_denied' } });
  });
});

describe('sessions', () => {
  it('resumes a session an earlier start created and refuses an unknown one', async () => {
    const base = newBase();
    const first = await runFake({
      cli: 'claude',
      args: ['-p', '--output-format', 'stream-json', '--verbose', '--', 'Hi'],
      scenario: text('Hi'),
      base,
    });
    const sessionId = lines(first.stdout)[0]!.session_id as string;
    const again = await runFake({
      cli: 'claude',
      args: ['-p', '--output-format', 'stream-json', '--verbose', `--resume=${sessionId}`, '--', 'Hi'],
      scenario: text('Hi'),
      base,
    });
    expect(lines(again.stdout)[0]!.session_id).toBe(sessionId);
    const unknown = await runFake({
      cli: 'claude',
      args: ['-p', '--output-format', 'stream-json', '--verbose', '--resume=nope', '--', 'Hi'],
      scenario: text('Hi'),
      base,
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No conversation found with session ID: nope');
  });
});

describe('codex thread usage', () => {
  it('reports a resumed thread’s running total in turn.completed, as codex 0.169 does', async () => {
    const base = newBase();
    const twoTurns: ScriptScenario = {
      id: 't',
      turns: [
        { prompt: 'One', responses: [{ text: ['1'], usage: { input_tokens: 305, output_tokens: 27 } }] },
        { prompt: 'Two', responses: [{ text: ['2'], usage: { input_tokens: 230, output_tokens: 12 } }] },
      ],
    };
    const usageOf = (stdout: string) => lines(stdout).find((line) => line.type === 'turn.completed')!.usage;
    const args = ['exec', '--json', '--skip-git-repo-check'];
    const first = await runFake({ cli: 'codex', args: [...args, '--', 'One'], scenario: twoTurns, base });
    expect(usageOf(first.stdout)).toMatchObject({ input_tokens: 305, output_tokens: 27 });
    const threadId = lines(first.stdout)[0]!.thread_id as string;
    const second = await runFake({
      cli: 'codex',
      args: [...args, 'resume', threadId, '--', 'Two'],
      scenario: twoTurns,
      turnIndex: 1,
      base,
    });
    expect(lines(second.stdout)[0]!.thread_id).toBe(threadId);
    expect(usageOf(second.stdout)).toMatchObject({ input_tokens: 535, output_tokens: 39 });
    // A new thread starts from nothing.
    const fresh = await runFake({ cli: 'codex', args: [...args, '--', 'Two'], scenario: twoTurns, turnIndex: 1, base });
    expect(usageOf(fresh.stdout)).toMatchObject({ input_tokens: 230, output_tokens: 12 });
  });
});

describe('a broken setup gets a clear message, never a stack trace', () => {
  it('no state file configured', () => {
    const run = spawnSync(process.execPath, [FAKE_CLI, 'gemini', '-p', 'x'], {
      env: { PATH: process.env.PATH },
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('YUME_CONFORMANCE_FAKE_CLI_STATE is not set');
    expect(run.stderr).not.toContain('    at ');
  });

  it('a turn the scenario does not have', async () => {
    const base = newBase();
    const binDir = path.join(base, 'bin');
    const stateFile = path.join(base, 'state.json');
    await installFakeClis(binDir, {
      scenario: text('Hi'),
      turnIndex: 0,
      stateFile,
      logFile: path.join(base, 'log.jsonl'),
    });
    expect(() => setFakeCliTurn(stateFile, 3)).toThrow(/names turn 3, but scenario t has 1 turn\(s\)/);
  });

  it('an unknown CLI name', () => {
    const run = spawnSync(process.execPath, [FAKE_CLI, 'aider'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('usage: fake-cli.js <gemini|codex|claude|copilot>');
  });
});

describe.runIf(process.platform !== 'win32')('launchers on PATH', () => {
  it('run the fake with the state and log baked in, even with a bare environment', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'yume-launchers-'));
    const binDir = path.join(base, 'bin');
    const logFile = path.join(base, 'log.jsonl');
    const installed = await installFakeClis(binDir, {
      scenario: text('Hi', ['Hello ', 'there.']),
      turnIndex: 0,
      stateFile: path.join(base, 'state.json'),
      logFile,
      clis: ['gemini', 'codex'],
    });
    expect(Object.keys(installed.launchers)).toEqual(['gemini', 'codex']);
    const run = spawnSync('gemini', ['--output-format=stream-json', '--prompt=Hi'], {
      cwd: base,
      env: { PATH: `${binDir}${path.delimiter}${process.env.PATH}` },
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(
      lines(run.stdout)
        .filter((line) => line.type === 'message' && line.role === 'assistant')
        .map((line) => line.content),
    ).toEqual(['Hello ', 'there.']);
    expect(readFakeCliLog(logFile).filter((entry) => entry.event === 'start')).toHaveLength(1);
    expect(spawnSync('claude', ['--version'], { env: { PATH: binDir }, encoding: 'utf8' }).error).toBeDefined(); // not installed
    expect(await waitForFakeCliEvent(logFile, (entry) => entry.event === 'stall', { timeoutMs: 50 })).toBeUndefined();
    // A wait whose run is over stops at once, however long it was to last (it must not hold the runner open).
    const over = new AbortController();
    const started = performance.now();
    const waiting = waitForFakeCliEvent(logFile, (entry) => entry.event === 'stall', {
      timeoutMs: 60_000,
      pollMs: 10_000,
      signal: over.signal,
    });
    over.abort();
    expect(await waiting).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
