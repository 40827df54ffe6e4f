// The lines Claude Code 2.1 prints around a compaction, as captures/claude/7-* to 10-* show them
// (test/fixtures/streams/captures/HOW-CAPTURED.md, "Compaction captures"): its status lines, the `compact_boundary`,
// the synthetic user message carrying the summary, the `/compact` command's own output, and the message it makes up
// when a session has nothing to compact. Field sets matter: test/official-cli/captures.test.ts compares them.
import { randomUUID } from 'node:crypto';
import { SYNTHETIC_USAGE } from './claude-shapes.js';

/** What claude re-attaches after a summary in the captures (reminders, the kept messages), in tokens. */
const REATTACHED_TOKENS = 2473;
/** The reminder claude puts before a new prompt (`<total_tokens>` left), counted into the refused request's size. */
const PROMPT_REMINDER = '<system-reminder>\n<total_tokens>15000000 tokens left</total_tokens>\n</system-reminder>\n';

/** claude's estimate of a text's tokens: four characters a token. */
const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** The new user message an automatic compaction adds to the last call's size (8-overflow: 189 + 28 = 217). */
export function newMessageTokens(prompt: string): number {
  return estimateTokens(PROMPT_REMINDER + prompt);
}

/** `status: "compacting"`, printed as a compaction starts (an automatic one also says what it has written so far). */
export function compactingStatusLine(trigger: 'manual' | 'auto'): Record<string, unknown> {
  return {
    type: 'system',
    subtype: 'status',
    status: 'compacting',
    ...(trigger === 'auto' ? { compact_output_chars: 0 } : {}),
  };
}

/** `status: null` with the compaction's outcome; a failed one says why (9-compact-interrupted). */
export function compactResultLine(error?: string): Record<string, unknown> {
  return {
    type: 'system',
    subtype: 'status',
    status: null,
    compact_result: error === undefined ? 'success' : 'failed',
    ...(error === undefined ? {} : { compact_error: error }),
  };
}

/**
 * The summary claude keeps from a summary answer: the text of its `<summary>` block after "Summary:" (the
 * `<analysis>` dropped), or the whole answer when it has no such block (then claude asks a second time).
 */
export function keptSummary(answer: string): { text: string; tagged: boolean } {
  const block = /<summary>([\s\S]*?)<\/summary>/.exec(answer);
  if (!block) return { text: answer.trim(), tagged: false };
  return { text: `Summary:\n${block[1]!.trim()}`, tagged: true };
}

/** The synthetic user message that opens the compacted session: the summary, framed as claude frames it. */
export function summaryMessageText(
  summary: string,
  context: { toolsUsed: readonly string[]; transcript: string },
): string {
  const tools =
    context.toolsUsed.length > 0
      ? `<system-reminder>\n<tools-used-before-summary>${context.toolsUsed.join(', ')}</tools-used-before-summary>\n</system-reminder>\n`
      : '';
  return [
    'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.',
    '',
    `${tools}${summary}`,
    '',
    `If you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: ${context.transcript}`,
    'Continue the conversation from where it left off without asking the user any further questions. Resume directly — do not acknowledge the summary, do not recap what was happening, do not preface with "I\'ll continue" or similar. Pick up the last task as if the break never happened.',
    '',
    'The messages after this summary are the most recent messages from before compaction, kept verbatim. The summary was written without seeing them, so something it says has not happened yet may already have happened in them.',
  ].join('\n');
}

/** What a compaction prints after its status lines: the boundary, then the summary message it anchors. */
export interface CompactionLines {
  boundary: Record<string, unknown>;
  summary: Record<string, unknown>;
}

/**
 * The boundary and the summary message. `preTokens`: the last call's size (an automatic compaction adds its new
 * message); `kept`: the messages kept verbatim after the summary (turn 1's last answer; an automatic compaction
 * also keeps the new prompt and its reminder). A manual one's summary is a string, an automatic one's text blocks.
 */
export function compactionLines(
  trigger: 'manual' | 'auto',
  { preTokens, kept, message, newTokens }: { preTokens: number; kept: number; message: string; newTokens: number },
): CompactionLines {
  const summaryUuid = randomUUID();
  const keptUuids = Array.from({ length: kept }, () => randomUUID());
  const tail = keptUuids.at(-1) ?? summaryUuid;
  const boundary = {
    type: 'system',
    subtype: 'compact_boundary',
    compact_metadata: {
      trigger,
      pre_tokens: preTokens,
      post_tokens: REATTACHED_TOKENS + estimateTokens(message) + newTokens,
      cumulative_dropped_tokens: 0,
      duration_ms: 0,
      preserved_segment: { head_uuid: keptUuids[0] ?? summaryUuid, anchor_uuid: summaryUuid, tail_uuid: tail },
      preserved_messages: { anchor_uuid: summaryUuid, uuids: keptUuids, all_uuids: keptUuids },
    },
    logical_parent_uuid: tail,
  };
  const summary = {
    type: 'user',
    message: { role: 'user', content: trigger === 'manual' ? message : [{ type: 'text', text: message }] },
    parent_tool_use_id: null,
    uuid: summaryUuid,
    timestamp: new Date().toISOString(),
    ...(trigger === 'manual' ? { isReplay: false } : {}),
    isSynthetic: true,
  };
  return { boundary, summary };
}

/** The `/compact` command's own output, replayed as a user line. */
export function compactedStdoutLine(): Record<string, unknown> {
  return {
    type: 'user',
    message: { role: 'user', content: '<local-command-stdout>Compacted </local-command-stdout>' },
    parent_tool_use_id: null,
    timestamp: new Date().toISOString(),
    isReplay: true,
  };
}

/** The assistant message claude makes up when `/compact` meets a session with nothing in it (10-compact-empty). */
export function nothingToCompactLine(): Record<string, unknown> {
  const text = 'Error: No messages to compact';
  return {
    type: 'assistant',
    message: {
      diagnostics: null,
      id: randomUUID(),
      container: null,
      model: '<synthetic>',
      role: 'assistant',
      stop_details: null,
      stop_reason: 'end_turn',
      stop_sequence: null,
      type: 'message',
      usage: SYNTHETIC_USAGE,
      content: [{ type: 'text', text }],
      context_management: null,
    },
    parent_tool_use_id: null,
    local_command_source: `<local-command-stderr>${text}</local-command-stderr>`,
    timestamp: new Date().toISOString(),
    local_command_run: { command: 'compact', args: '' },
    local_command_outcome: { kind: 'failed' },
  };
}
