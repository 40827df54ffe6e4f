// The translator's pure parts: how each CLI is called (prompt passed safely), how CLI tools map to the
// app's tools and fields, how codex's shell wrapper is undone, how CLI error wordings become R5 kinds,
// and how a missing binary is found out before spawning.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cmdInvocation } from '../../common/windows-command-line.js';
import { parseClaudeArgs } from '../../harness/official-cli/args/claude-args.js';
import { parseCodexArgs } from '../../harness/official-cli/args/codex-args.js';
import { parseCopilotArgs } from '../../harness/official-cli/args/copilot-args.js';
import { parseGeminiArgs } from '../../harness/official-cli/args/gemini-args.js';
import { locateBinary } from '../../reference-shim/providers/cli/binary.js';
import { CLAUDE_CLI, claudeArgs } from '../../reference-shim/providers/cli/claude-cli.js';
import type { TranslatorContext } from '../../reference-shim/providers/cli/cli-provider.js';
import { CODEX_CLI, codexArgs } from '../../reference-shim/providers/cli/codex-cli.js';
import { appToolCall, COPILOT_CLI, copilotArgs } from '../../reference-shim/providers/cli/copilot-cli.js';
import { errorFromStatus, statusInMessage } from '../../reference-shim/providers/cli/errors.js';
import { GEMINI_CLI, geminiArgs, geminiToApp } from '../../reference-shim/providers/cli/gemini-cli.js';
import { unwrapShellCommand } from '../../reference-shim/providers/cli/shell-words.js';

const input = {
  prompt: '-rf --help "quoted"\nsecond line',
  model: 'm-1',
  cwd: '/work',
  permissionMode: 'default',
  promptOnStdin: false,
  sessionId: '0cb916db-26aa-40f2-86b5-1ba81b225fd2',
  workFile: '/tmp/usage.json',
};

describe('argv: the prompt reaches each CLI intact, whatever it starts with', () => {
  it('gemini: --prompt=<text>', () => {
    const outcome = parseGeminiArgs(geminiArgs(input));
    expect(outcome).toMatchObject({
      kind: 'run',
      invocation: { prompt: input.prompt, model: 'm-1', streamJson: true, autoApprove: true },
    });
  });

  it('codex: after --, and `exec resume <id>` for a later turn', () => {
    expect(parseCodexArgs(codexArgs(input))).toMatchObject({
      kind: 'run',
      invocation: { prompt: input.prompt, workdir: '/work', streamJson: true },
    });
    expect(parseCodexArgs(codexArgs({ ...input, resumeId: 'thread-9' }))).toMatchObject({
      kind: 'run',
      invocation: { resume: 'thread-9', prompt: input.prompt },
    });
    expect(codexArgs({ ...input, promptOnStdin: true }).at(-1)).toBe('-');
  });

  it('claude: after --, allowed tools instead of skipping permissions (refused to root)', () => {
    expect(parseClaudeArgs(claudeArgs(input), {}, true)).toMatchObject({
      kind: 'run',
      invocation: { prompt: input.prompt, streamJson: true },
    });
    expect(claudeArgs(input)).not.toContain('--dangerously-skip-permissions');
    expect(parseClaudeArgs(claudeArgs({ ...input, resumeId: 's-1' }), {}, false)).toMatchObject({
      kind: 'run',
      invocation: { resume: 's-1' },
    });
  });

  it('read-only permission modes keep the CLIs from changing anything', () => {
    const deny = { ...input, permissionMode: 'deny' };
    expect(parseGeminiArgs(geminiArgs(deny))).toMatchObject({ invocation: { autoApprove: false } });
    expect(parseCodexArgs(codexArgs(deny))).toMatchObject({ invocation: { readOnly: true } });
    expect(parseClaudeArgs(claudeArgs(deny), {}, false)).toMatchObject({ invocation: { readOnly: true } });
  });
});

describe('gemini tools → app tools', () => {
  it.each([
    [
      'read_file',
      { file_path: 'a.txt', start_line: 3, end_line: 7 },
      'Read',
      { file_path: 'a.txt', offset: 3, limit: 5 },
    ],
    ['write_file', { file_path: 'a.txt', content: 'x' }, 'Write', { file_path: 'a.txt', content: 'x' }],
    [
      'replace',
      { file_path: 'a.txt', old_string: 'a', new_string: 'b', allow_multiple: true },
      'Edit',
      { file_path: 'a.txt', old_string: 'a', new_string: 'b', replace_all: true },
    ],
    ['run_shell_command', { command: 'ls', description: 'List' }, 'Bash', { command: 'ls', description: 'List' }],
    ['list_directory', { dir_path: 'src' }, 'LS', { path: 'src' }],
    ['glob', { pattern: '*.ts', dir_path: 'src' }, 'Glob', { pattern: '*.ts', path: 'src' }],
    ['grep_search', { pattern: 'x', include_pattern: '*.ts' }, 'Grep', { pattern: 'x', glob: '*.ts' }],
    ['google_web_search', { query: 'q' }, 'WebSearch', { query: 'q' }],
  ])('%s', (name, parameters, appName, appInput) => {
    expect(geminiToApp(name, parameters)).toEqual({ name: appName, input: appInput });
  });
});

describe("codex's shell wrapper", () => {
  it.each([
    ["/bin/bash -lc 'cat hello.txt'", 'cat hello.txt'],
    ['/bin/bash -lc ls', 'ls'],
    [`/bin/bash -lc 'echo '"'"'hi'"'"' > a.txt'`, "echo 'hi' > a.txt"],
    [`bash -lc "grep -n \\"x\\" a"`, 'grep -n "x" a'],
    [
      '"C:\\\\WINDOWS\\\\System32\\\\WindowsPowerShell\\\\v1.0\\\\powershell.exe" -Command "Get-ChildItem"',
      'Get-ChildItem',
    ],
    ['npm test', 'npm test'],
  ])('%s → %s', (wrapped, command) => {
    expect(unwrapShellCommand(wrapped)).toBe(command);
  });
});

describe('CLI error wordings → R5 kinds', () => {
  it.each([
    ['[API Error: {"error":{"code":401,"message":"bad key","status":"UNAUTHENTICATED"}}]', 'auth'],
    ['unexpected status 403 Forbidden: no', 'auth'],
    ['exceeded retry limit, last status: 429 Too Many Requests', 'retryable'],
    ['We’re currently experiencing high demand, which may cause temporary errors.', 'retryable'],
    ['API Error: 500 Mock 500 error. This is a server-side issue', 'retryable'],
    ['unexpected status 404 Not Found: model', 'request'],
    ['stream disconnected before completion: error decoding response body', 'stream'],
    ['[API Error: terminated]', 'stream'],
  ])('%s → %s', (message, kind) => {
    expect(errorFromStatus(statusInMessage(message), message).kind).toBe(kind);
  });
});

describe('finding the binary', () => {
  it('finds an executable on PATH and reports a missing one', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'yume-bin-'));
    writeFileSync(path.join(dir, 'gemini'), '#!/bin/sh\n');
    chmodSync(path.join(dir, 'gemini'), 0o755);
    writeFileSync(path.join(dir, 'codex'), 'not executable');
    expect(locateBinary('gemini', { PATH: dir }, 'linux')).toEqual({ file: path.join(dir, 'gemini'), batch: false });
    expect(locateBinary('codex', { PATH: dir }, 'linux')).toBeUndefined();
    expect(locateBinary('claude', { PATH: dir }, 'linux')).toBeUndefined();
  });

  it('starts a Windows .cmd launcher through cmd.exe with every argument quoted', () => {
    const invocation = cmdInvocation('C:\\npm\\gemini.cmd', ['--prompt=a & b "c"'], 'C:\\Windows\\system32\\cmd.exe');
    expect(invocation.file).toBe('C:\\Windows\\system32\\cmd.exe');
    expect(invocation.args.slice(0, 3)).toEqual(['/d', '/s', '/c']);
    expect(invocation.args[3]).toContain('"C:\\npm\\gemini.cmd"');
    expect(invocation.args[3]).toContain('^^^&'); // & escaped for both cmd.exe passes
  });
});

describe('usage from the CLI, never 0/0 (R4)', () => {
  function recordingSink() {
    const calls: Array<[string, unknown]> = [];
    const sink = {
      text: (delta: string) => void calls.push(['text', delta]),
      thinking: (delta: string) => void calls.push(['thinking', delta]),
      toolUse: (call: { id?: string }) => {
        calls.push(['toolUse', call]);
        return call.id ?? 'id';
      },
      toolResult: (result: unknown) => void calls.push(['toolResult', result]),
      usage: (usage: unknown) => void calls.push(['usage', usage]),
      retried: (message: string) => void calls.push(['retried', message]),
      compacted: (compaction: unknown) => void calls.push(['compacted', compaction]),
    };
    return { sink, calls };
  }
  const context = { log: () => undefined, cwd: '/work', sessionId: 'session-1', workFile: '/nonexistent/usage.json' };

  it('reports the CLI totals, and nothing when the CLI counted 0/0 (the turn then estimates)', () => {
    const gemini = recordingSink();
    const translator = GEMINI_CLI.createTranslator(gemini.sink, context);
    translator.onEvent({
      type: 'result',
      status: 'success',
      stats: { input_tokens: 243, output_tokens: 53, cached: 0 },
    });
    expect(gemini.calls).toEqual([['usage', { inputTokens: 243, outputTokens: 53 }]]);
    expect(translator.ending).toEqual({ ok: true, text: '' });

    const zero = recordingSink();
    const silent = CODEX_CLI.createTranslator(zero.sink, context);
    silent.onEvent({ type: 'turn.completed', usage: { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0 } });
    expect(zero.calls).toEqual([]);
    expect(silent.ending).toMatchObject({ ok: true });

    const claude = recordingSink();
    CLAUDE_CLI.createTranslator(claude.sink, context).onEvent({
      type: 'result',
      is_error: false,
      result: 'x',
      usage: { input_tokens: 0, output_tokens: 0 },
    });
    expect(claude.calls).toEqual([]);
  });

  it('reports what a resumed codex thread added, not its running total, and keeps the total for the next turn', () => {
    const turn = { type: 'turn.completed', usage: { input_tokens: 535, cached_input_tokens: 40, output_tokens: 39 } };
    const resumed = recordingSink();
    const translator = CODEX_CLI.createTranslator(resumed.sink, {
      ...context,
      previousTotals: { inputTokens: 305, outputTokens: 27, cacheReadTokens: 10 },
    });
    translator.onEvent(turn);
    expect(resumed.calls).toEqual([['usage', { inputTokens: 230, outputTokens: 12, cacheReadTokens: 30 }]]);
    expect(translator.usageTotals).toEqual({ inputTokens: 535, outputTokens: 39, cacheReadTokens: 40 });
    // A new thread (nothing saved) reports the total as the turn's own.
    const fresh = recordingSink();
    CODEX_CLI.createTranslator(fresh.sink, context).onEvent(turn);
    expect(fresh.calls).toEqual([['usage', { inputTokens: 535, outputTokens: 39, cacheReadTokens: 40 }]]);
  });

  it('an error result is an error ending with the R5 kind, not a success', () => {
    const { sink } = recordingSink();
    const translator = CLAUDE_CLI.createTranslator(sink, context);
    translator.onEvent({
      type: 'result',
      subtype: 'success',
      is_error: true,
      api_error_status: 429,
      result: 'API Error: Request rejected (429)',
    });
    expect(translator.ending).toMatchObject({ ok: false, error: { kind: 'retryable' } });
  });
});

describe('copilot-cli: argv, tools, results, failures and usage', () => {
  const context = { log: () => undefined, cwd: '/work', sessionId: 'session-1', workFile: '/nonexistent/usage.json' };
  it('passes the prompt attached to --prompt=, names the session, and leaves --allow-all-tools out when changes are not allowed', () => {
    expect(parseCopilotArgs(copilotArgs(input))).toMatchObject({
      kind: 'run',
      invocation: { prompt: input.prompt, model: 'm-1', resume: input.sessionId, streamJson: true, autoApprove: true },
    });
    expect(parseCopilotArgs(copilotArgs({ ...input, permissionMode: 'deny' }))).toMatchObject({
      kind: 'run',
      invocation: { autoApprove: false },
    });
    expect(copilotArgs({ ...input, promptOnStdin: true }).some((argument) => argument.startsWith('--prompt'))).toBe(
      false,
    );
  });

  it("reads copilot's tools back as the app's", () => {
    expect(appToolCall('view', { path: '/w/a.txt', view_range: [3, 5] })).toEqual({
      name: 'Read',
      input: { file_path: '/w/a.txt', offset: 3, limit: 3 },
    });
    expect(appToolCall('create', { path: '/w/n.txt', file_text: 'x' })).toEqual({
      name: 'Write',
      input: { file_path: '/w/n.txt', content: 'x' },
    });
    expect(appToolCall('edit', { path: '/w/a.txt', old_str: 'a', new_str: 'b' })).toEqual({
      name: 'Edit',
      input: { file_path: '/w/a.txt', old_string: 'a', new_string: 'b' },
    });
    expect(appToolCall('bash', { command: 'ls', description: 'List' })).toEqual({
      name: 'Bash',
      input: { command: 'ls', description: 'List' },
    });
    expect(appToolCall('sql', { query: 'x' })).toEqual({ name: 'sql', input: { query: 'x' } });
  });

  function translate(events: Record<string, unknown>[], extra: Partial<TranslatorContext> = {}) {
    const calls: unknown[][] = [];
    const sink = {
      text: (delta: string) => void calls.push(['text', delta]),
      thinking: (delta: string) => void calls.push(['thinking', delta]),
      toolUse: (call: { id?: string; name: string; input: unknown }) => {
        calls.push(['toolUse', call.name, call.input]);
        return call.id ?? 'id';
      },
      toolResult: (result: { content: string; isError: boolean }) =>
        void calls.push(['toolResult', result.isError, result.content]),
      usage: (usage: unknown) => void calls.push(['usage', usage]),
      retried: (message: string) => void calls.push(['retried', message]),
      compacted: (compaction: unknown) => void calls.push(['compacted', compaction]),
    };
    const translator = COPILOT_CLI.createTranslator(sink, { ...context, ...extra });
    for (const event of events) translator.onEvent(event);
    return { calls, translator };
  }

  it('reports a failing command as an error (copilot calls it a success) and a refused write with its reason', () => {
    const { calls } = translate([
      {
        type: 'assistant.message',
        data: {
          content: '',
          toolRequests: [
            { toolCallId: 't1', name: 'bash', arguments: { command: 'exit 3', description: 'x' } },
            { toolCallId: 't2', name: 'create', arguments: { path: '/w/n.txt', file_text: 'x' } },
          ],
        },
      },
      {
        type: 'tool.execution_complete',
        data: {
          toolCallId: 't1',
          success: true,
          shellExecution: { exitCode: 3 },
          result: { content: 'no\n<shellId: 0 completed with exit code 3>' },
        },
      },
      {
        type: 'tool.execution_complete',
        data: { toolCallId: 't2', success: false, error: { message: 'Permission denied', code: 'denied' } },
      },
    ]);
    expect(calls.filter((call) => call[0] === 'toolResult')).toEqual([
      ['toolResult', true, 'no\nExit code 3'],
      ['toolResult', true, 'Permission denied'],
    ]);
  });

  it("takes a 401 before the last failure as the turn's auth error (copilot retries after a 401), and lists each retry", () => {
    const { calls, translator } = translate([
      { type: 'model.call_failure', data: { statusCode: 401 } },
      { type: 'assistant.turn_retry', data: { reason: 'transient_auth_error' } },
      { type: 'model.call_failure', data: { statusCode: 400 } },
      { type: 'session.error', data: { statusCode: 400, message: '400 not expected' } },
      { type: 'result', sessionId: 's', exitCode: 1 },
    ]);
    expect(translator.ending).toMatchObject({ ok: false, error: { kind: 'auth' } });
    expect(calls).toEqual([['retried', 'copilot retried after HTTP 401 (transient_auth_error)']]);
  });

  it("reports what the turn added to the session's running total in the usage file, and keeps the total", () => {
    const workFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'yume-copilot-usage-')), 'usage.json');
    writeFileSync(
      workFile,
      JSON.stringify({ modelMetrics: { m: { usage: { inputTokens: 240, outputTokens: 11, cacheReadTokens: 0 } } } }),
    );
    const { calls, translator } = translate(
      [
        { type: 'assistant.message_delta', data: { messageId: 'm1', deltaContent: 'Hi.' } },
        { type: 'assistant.message', data: { messageId: 'm1', content: 'Hi.', toolRequests: [] } },
        { type: 'result', sessionId: 'session-1', exitCode: 0 },
      ],
      { workFile, previousTotals: { inputTokens: 100, outputTokens: 5, cacheReadTokens: 0 } },
    );
    expect(calls).toEqual([
      ['text', 'Hi.'],
      ['usage', { inputTokens: 140, outputTokens: 6 }],
    ]);
    expect(translator.usageTotals).toEqual({ inputTokens: 240, outputTokens: 11, cacheReadTokens: 0 });
    expect(translator.ending).toEqual({ ok: true, text: 'Hi.' });
    expect(translator.cliSessionId).toBe('session-1');
  });
});
