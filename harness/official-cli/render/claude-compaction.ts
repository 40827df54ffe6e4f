// How the fake claude compacts a session, as Claude Code 2.1.332 does in `-p` mode (captures/claude/7-* to 10-*,
// test/fixtures/streams/captures/HOW-CAPTURED.md, "Compaction captures"):
// - `/compact <hints>` runs as claude's own command: status "compacting" and its outcome BEFORE init, then init, a
//   `compact_boundary` (manual, pre_tokens the last call's size), the synthetic summary message, the command's
//   output and a result with empty text, num_turns 0 and 0/0 usage; the session id is kept;
// - a session with no conversation has nothing to compact: init, "Error: No messages to compact", the same result;
// - SIGINT while the summary streams: the two status lines (compact_result "failed"), no init, no result, exit 0;
// - a request over the context window compacts on its own (init first, then the status lines, an `auto` boundary
//   whose pre_tokens adds the new message, the summary message) and retries once; the result counts the retry only.
// The summary is asked once, and a second time when the answer has no `<summary>` block (a scripted summary answers
// both, as the mock's does); claude keeps the first answer unless the second has the block.
import os from 'node:os';
import { type ModelFailure, SCRIPT_EXHAUSTED_RESPONSE, type ScriptCursor } from '../script-playback.js';
import type { ScriptResponse } from '../script-types.js';
import {
  compactedStdoutLine,
  compactingStatusLine,
  compactionLines,
  compactResultLine,
  keptSummary,
  newMessageTokens,
  nothingToCompactLine,
  summaryMessageText,
} from './claude-compact-lines.js';
import { claudeApiError } from './claude-errors.js';
import type { ClaudeSessionPast } from './claude-session.js';

/** What a compaction needs of the run it happens in (render/claude.ts's ClaudeRun). */
export interface CompactingRun {
  readonly past: ClaudeSessionPast;
  readonly sessionId: string;
  readonly workspace: string;
  /** The size of the session's last completed call; undefined: none. */
  readonly lastCallTokens: number | undefined;
  /** Whether the session holds conversation, this run's included. */
  readonly conversation: boolean;
  emit(line: Record<string, unknown>): void;
  init(): void;
  /** Bills a summary call and prints nothing; false when its stream stalled and broke off. */
  billSummary(response: ScriptResponse): Promise<boolean>;
  /** While true, an interrupt ends the `/compact` (its failed status line, exit 0) rather than a turn. */
  setCompactingOnCommand(on: boolean): void;
  /** After a compaction inside a turn: `usage` counts only the calls after it, and num_turns one more. */
  countFromHere(): void;
  /** The `/compact` command's result (local_command "compact", 0/0); exit 0. */
  finishCommand(): Promise<never>;
  fail(failure: ModelFailure): Promise<never>;
}

type SummaryOutcome = { kind: 'ok'; text: string } | { kind: 'failed'; failure: ModelFailure };

/** What the compaction's status line says of a failure (9-compact-interrupted: "API Error: Request was aborted."). */
export const ABORTED_COMPACTION = 'API Error: Request was aborted.';

async function summarize(run: CompactingRun, cursor: ScriptCursor): Promise<SummaryOutcome> {
  const call = cursor.call(1);
  if (call.kind === 'failed') return { kind: 'failed', failure: call.failure };
  if (!(await run.billSummary(call.response)))
    return { kind: 'failed', failure: { kind: 'cut', response: call.response } };
  const first = keptSummary((call.response.text ?? []).join(''));
  if (first.tagged) return { kind: 'ok', text: first.text };
  const second = call.response.summary ? call.response : secondAnswer(cursor);
  if (!second || !(await run.billSummary(second))) return { kind: 'ok', text: first.text };
  const again = keptSummary((second.text ?? []).join(''));
  return { kind: 'ok', text: again.tagged ? again.text : first.text };
}

/** The next scripted answer, for the second summary request; undefined when it failed (claude keeps the first). */
function secondAnswer(cursor: ScriptCursor): ScriptResponse | undefined {
  const call = cursor.call(1);
  return call.kind === 'ok' && call.response !== SCRIPT_EXHAUSTED_RESPONSE ? call.response : undefined;
}

/** Where claude keeps the session's full transcript (the summary message names it). */
function transcriptPath(run: CompactingRun): string {
  const project = run.workspace.replace(/[^A-Za-z0-9]/g, '-');
  return `${os.homedir()}/.claude/projects/${project}/${run.sessionId}.jsonl`;
}

function printCompaction(
  run: CompactingRun,
  trigger: 'manual' | 'auto',
  { summary, preTokens, newTokens, kept }: { summary: string; preTokens: number; newTokens: number; kept: number },
): void {
  const message = summaryMessageText(summary, { toolsUsed: run.past.toolsUsed, transcript: transcriptPath(run) });
  const lines = compactionLines(trigger, { preTokens, kept, message, newTokens });
  run.emit(lines.boundary);
  run.emit(lines.summary);
}

/** `/compact <hints>` as claude's own command (7-compact, 9-compact-interrupted, 10-compact-empty). */
export async function compactOnCommand(run: CompactingRun, cursor: ScriptCursor): Promise<never> {
  if (!run.conversation) {
    run.init();
    run.emit(nothingToCompactLine());
    return run.finishCommand();
  }
  run.emit(compactingStatusLine('manual'));
  run.setCompactingOnCommand(true);
  const outcome = await summarize(run, cursor);
  run.setCompactingOnCommand(false);
  if (outcome.kind === 'failed') {
    // Not captured beyond the interrupt: the failed status line, then the API error as any run reports it.
    run.emit(compactResultLine(claudeApiError(outcome.failure).text));
    run.init();
    return run.fail(outcome.failure);
  }
  run.emit(compactResultLine());
  run.init();
  // Turn 1's last answer is kept verbatim after the summary.
  printCompaction(run, 'manual', { summary: outcome.text, preTokens: run.lastCallTokens ?? 0, newTokens: 0, kept: 1 });
  run.emit(compactedStdoutLine());
  return run.finishCommand();
}

/**
 * A request over the context window (8-overflow): compacts the session before the prompt and returns true, so the
 * run retries once; false when there is no conversation to compact or the summary failed.
 */
export async function compactOnOverflow(run: CompactingRun, cursor: ScriptCursor, prompt: string): Promise<boolean> {
  if (!run.conversation) return false;
  run.emit(compactingStatusLine('auto'));
  const outcome = await summarize(run, cursor);
  if (outcome.kind === 'failed') {
    run.emit(compactResultLine(claudeApiError(outcome.failure).text));
    return false;
  }
  run.emit(compactResultLine());
  // The refused request's size: the last call's and the new message (the prompt and its reminder). Kept after the
  // summary: the last answer, the new prompt and its reminder.
  const newTokens = newMessageTokens(prompt);
  const preTokens = (run.lastCallTokens ?? 0) + newTokens;
  printCompaction(run, 'auto', { summary: outcome.text, preTokens, newTokens, kept: 3 });
  run.countFromHere();
  return true;
}
