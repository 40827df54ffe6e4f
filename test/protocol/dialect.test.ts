// Which dialect a line and a whole stream speak (R1), including the official CLIs' native output that
// `validate` names instead of calling every line malformed.
import { describe, expect, it } from 'vitest';
import { DialectTally, type LineDialect, lineDialect } from '../../harness/protocol/dialect.js';

describe('lineDialect', () => {
  it.each([
    [{ type: 'text', text: 'hi' }, 'flat'],
    [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }, 'flat'],
    [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }, 'flat'],
    [{ type: 'assistant', message: {} }, 'envelope'],
    [{ type: 'user', message: {} }, 'envelope'],
    [{ type: 'system', subtype: 'init' }, 'shared'],
    [{ type: 'result', subtype: 'success', is_error: false }, 'shared'],
    [{ type: 'usage' }, 'shared'],
    [{ type: 'tool_use', tool_name: 'run_shell_command', tool_id: 'x' }, 'gemini-cli-native'],
    [{ type: 'tool_result', tool_id: 'x', status: 'success' }, 'gemini-cli-native'],
    [{ type: 'result', status: 'success', stats: {} }, 'gemini-cli-native'],
    [{ type: 'init', session_id: 's' }, 'gemini-cli-native'],
    [{ type: 'message', role: 'assistant' }, 'gemini-cli-native'],
    [{ type: 'thread.started' }, 'codex-native'],
    [{ type: 'item.completed' }, 'codex-native'],
    [{ type: 'turn.completed' }, 'codex-native'],
    [{ type: 'session.skills_loaded', data: {} }, 'copilot-cli-native'],
    [{ type: 'assistant.message_delta', data: {} }, 'copilot-cli-native'],
    [{ type: 'tool.execution_complete', data: {} }, 'copilot-cli-native'],
    [{ type: 'abort', data: { reason: 'user_initiated' } }, 'copilot-cli-native'],
    [{ type: 'result', sessionId: 's', exitCode: 0 }, 'copilot-cli-native'],
    [{ type: 'surprise' }, 'unknown'],
    [{ type: 3 }, 'unknown'],
    [{}, 'unknown'],
  ] as const)('%j is %s', (line, dialect) => {
    expect(lineDialect(line as Record<string, unknown>)).toBe(dialect);
  });
});

const tally = (...lines: LineDialect[]) => {
  const counts = new DialectTally();
  for (const line of lines) counts.add(line);
  return counts.result();
};

describe('DialectTally', () => {
  it('names a stream by its stream-json lines', () => {
    expect(tally('shared', 'flat', 'flat', 'shared')).toBe('flat');
    expect(tally('shared', 'envelope', 'shared')).toBe('claude-envelope');
    expect(tally('shared', 'flat', 'envelope')).toBe('mixed');
    expect(tally('shared', 'shared')).toBe('flat');
    expect(tally('unknown', 'unknown')).toBe('unknown');
  });

  it('calls a stream foreign when it starts with a foreign line or foreign lines outnumber the rest', () => {
    expect(tally('codex-native', 'flat', 'flat')).toBe('codex-native');
    expect(tally('shared', 'gemini-cli-native', 'gemini-cli-native')).toBe('gemini-cli-native');
    expect(tally('gemini-cli-native', 'codex-native', 'codex-native')).toBe('codex-native');
    expect(tally('copilot-cli-native', 'copilot-cli-native', 'shared')).toBe('copilot-cli-native');
    expect(tally('shared', 'copilot-cli-native', 'codex-native', 'copilot-cli-native')).toBe('copilot-cli-native');
  });

  it('keeps a stream-json stream with a stray foreign line stream-json (the line is reported on its own)', () => {
    expect(tally('shared', 'flat', 'codex-native', 'flat')).toBe('flat');
  });

  it('ignores unknown lines, also for which line came first', () => {
    expect(tally('unknown', 'codex-native', 'flat', 'flat')).toBe('codex-native');
  });
});
