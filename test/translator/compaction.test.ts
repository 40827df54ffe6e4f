// `/compact` and the official CLIs (docs/protocol.md#r21-compaction), unit by unit: claude's compaction lines become
// the sink's compaction with the summary its synthetic message carries; what a compaction's CLI run came to becomes
// the outcome (claude's own command, or a summary asked of gemini or codex, whose next turn starts a new session).
import { describe, expect, it } from 'vitest';
import { CLAUDE_CLI, claudeSummary } from '../../reference-shim/providers/cli/claude-cli.js';
import { CompactionSink, compactionOutcome } from '../../reference-shim/providers/cli/cli-compaction.js';
import { ProviderError } from '../../reference-shim/providers/provider.js';

const context = { log: () => undefined, cwd: '/work', sessionId: 's', workFile: '/work/.turn' };
const CLAUDE_MESSAGE =
  'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n<system-reminder>\n<tools-used-before-summary>Read</tools-used-before-summary>\n</system-reminder>\nSummary:\n1. Read hello.txt.\n\nIf you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: /home/u/.claude/projects/-w/s.jsonl\nContinue the conversation from where it left off.';

describe('claude compacting a session', () => {
  it('keeps the summary of its synthetic message, without the framing', () => {
    expect(claudeSummary(CLAUDE_MESSAGE)).toBe('Summary:\n1. Read hello.txt.');
    expect(claudeSummary('just a summary')).toBe('just a summary');
  });

  it("reports its boundary with the synthetic message's summary, and drops its status lines", () => {
    const sink = new CompactionSink(() => undefined);
    const translator = CLAUDE_CLI.createTranslator(sink, context);
    translator.onEvent({ type: 'system', subtype: 'status', status: 'compacting', session_id: 's' });
    translator.onEvent({ type: 'system', subtype: 'init', session_id: 's' });
    translator.onEvent({
      type: 'system',
      subtype: 'compact_boundary',
      compact_metadata: { trigger: 'manual', pre_tokens: 189, post_tokens: 2754 },
    });
    translator.onEvent({ type: 'user', isSynthetic: true, message: { role: 'user', content: CLAUDE_MESSAGE } });
    translator.onEvent({
      type: 'user',
      isReplay: true,
      message: { role: 'user', content: '<local-command-stdout>Compacted </local-command-stdout>' },
    });
    translator.onEvent({ type: 'result', is_error: false, result: '', usage: { input_tokens: 0, output_tokens: 0 } });
    expect(sink.compaction).toEqual({ trigger: 'manual', preTokens: 189, summary: 'Summary:\n1. Read hello.txt.' });
    expect(sink.said).toBe('');
    expect(sink.usageTotal).toBeUndefined();
    expect(translator.ending).toEqual({ ok: true, text: '' });
  });

  it('an automatic compaction mid-turn, then the answer: the boundary comes first, the answer is text', () => {
    const sink = new CompactionSink(() => undefined);
    const translator = CLAUDE_CLI.createTranslator(sink, context);
    translator.onEvent({
      type: 'system',
      subtype: 'compact_boundary',
      compact_metadata: { trigger: 'auto', pre_tokens: 217 },
    });
    translator.onEvent({ type: 'assistant', message: { content: [{ type: 'text', text: 'Notes.' }] } });
    expect(sink.compaction).toEqual({ trigger: 'auto', preTokens: 217 });
    expect(sink.said).toBe('Notes.');
  });

  it('says why a compaction failed', () => {
    const translator = CLAUDE_CLI.createTranslator(new CompactionSink(() => undefined), context);
    translator.onEvent({
      type: 'system',
      subtype: 'status',
      compact_result: 'failed',
      compact_error: 'Not enough messages to compact.',
    });
    expect(translator.compactError).toBe('Not enough messages to compact.');
  });
});

describe('the outcome of a compaction', () => {
  const ok = { ok: true as const, assistantText: '', state: { cli: 'claude-cli', sessionId: 's' } };

  it("claude's own command: its summary and measure, the same session", () => {
    const sink = new CompactionSink(() => undefined);
    sink.compacted({ trigger: 'manual', preTokens: 189, summary: 'S' });
    expect(
      compactionOutcome({ ownCommand: true, binary: 'claude', turn: ok, sink, freshState: { cli: 'claude-cli' } }),
    ).toEqual({
      ok: true,
      summary: 'S',
      preTokens: 189,
      state: ok.state,
    });
  });

  it('claude that did not compact is an error naming why, keeping its session', () => {
    const sink = new CompactionSink(() => undefined);
    const outcome = compactionOutcome({
      ownCommand: true,
      binary: 'claude',
      turn: ok,
      sink,
      compactError: 'Not enough messages to compact.',
      freshState: {},
    });
    expect(outcome).toMatchObject({ ok: false, state: ok.state });
    expect(!outcome.ok && outcome.error.message).toContain('Not enough messages to compact.');
  });

  it('a summary asked of the CLI: its text and cost, and a new CLI session next turn', () => {
    const sink = new CompactionSink(() => undefined);
    sink.text('Summary: ');
    sink.text('hello.');
    sink.usage({ inputTokens: 240, outputTokens: 31 });
    const fresh = { cli: 'gemini-cli' };
    expect(compactionOutcome({ ownCommand: false, binary: 'gemini', turn: ok, sink, freshState: fresh })).toEqual({
      ok: true,
      summary: 'Summary: hello.',
      usage: { inputTokens: 240, outputTokens: 31 },
      state: fresh,
    });
  });

  it('no summary text, or a failed run, is an error that keeps the CLI session', () => {
    const empty = compactionOutcome({
      ownCommand: false,
      binary: 'codex',
      turn: ok,
      sink: new CompactionSink(() => undefined),
      freshState: {},
    });
    expect(empty).toMatchObject({ ok: false, state: ok.state });
    const error = new ProviderError('aborted', 'codex was interrupted');
    const failed = compactionOutcome({
      ownCommand: false,
      binary: 'codex',
      turn: { ok: false, error, state: ok.state },
      sink: new CompactionSink(() => undefined),
      freshState: {},
    });
    expect(failed).toEqual({ ok: false, error, state: ok.state });
  });
});
