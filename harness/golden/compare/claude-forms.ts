// Claude Code's own forms of protocol points (the alternatives real `claude -p --output-format stream-json`
// prints, docs/protocol.md#r13-real-programs-decide-what-conforms): each conforms only in the Claude (envelope) dialect, so a flat shim
// still owes the flat form. The runner's checks ask these helpers before reporting a missing flat form.

import type { CanonicalEvent } from '../../protocol/canonical.js';
import type { StreamDialect } from '../../protocol/dialect.js';
import type { ModelItem, TurnModel } from '../golden-model.js';

/** The text claude prints as a user message when a turn is interrupted. */
export const CLAUDE_INTERRUPT_TEXT = '[Request interrupted by user]';

/** Whether a stream speaks the Claude (envelope) dialect, the only one in which Claude's forms count. */
export function isClaudeDialect(dialect: StreamDialect | undefined): boolean {
  return dialect === 'claude-envelope';
}

/** Events after the turn's last tool_result (the whole turn when it has none). */
function afterLastToolResult(events: readonly CanonicalEvent[]): CanonicalEvent[] {
  let from = 0;
  events.forEach((event, index) => {
    if (event.kind === 'tool_result') from = index + 1;
  });
  return events.slice(from);
}

/**
 * Claude's way of showing a provider error: assistant text (the error message) after the last tool result,
 * then an error result. `before` holds the turn's events before its result.
 */
export function claudeErrorShown(before: readonly CanonicalEvent[], resultIsError: boolean): boolean {
  return (
    resultIsError && afterLastToolResult(before).some((event) => event.kind === 'text' && event.text.trim() !== '')
  );
}

/** Claude's way of acknowledging an interrupt: a user message `[Request interrupted by user]`, then an error result. */
export function claudeInterruptAcknowledged(after: readonly CanonicalEvent[]): boolean {
  const notice = after.find(
    (event) => event.kind === 'other' && event.type === 'user' && (event.text ?? '').includes(CLAUDE_INTERRUPT_TEXT),
  );
  const result = after.find((event) => event.kind === 'result');
  return notice !== undefined && result?.kind === 'result' && result.isError && result.line > notice.line;
}

/** Claude's way of reporting retries: `system` lines with subtype `api_retry`. */
export function claudeRetriesReported(events: readonly CanonicalEvent[]): number {
  return events.filter((event) => event.kind === 'system' && event.subtype === 'api_retry').length;
}

/**
 * The last text stretch of an error turn is the error message (claude prints it as assistant text) or, in the
 * flat dialect, the partial text streamed before the fault: it is left out of the golden text comparison in
 * either dialect. Returns the turn without it, and the stretch itself (for the partial-text SHOULD check).
 */
export function withoutErrorMessage(turn: TurnModel): {
  turn: TurnModel;
  dropped?: Extract<ModelItem, { kind: 'text' }>;
} {
  const items = turn.items;
  const resultAt = items.findIndex((item) => item.kind === 'result');
  const end = resultAt < 0 ? items.length : resultAt;
  const last = items[end - 1];
  if (last?.kind !== 'text') return { turn };
  return { turn: { items: [...items.slice(0, end - 1), ...items.slice(end)] }, dropped: last };
}
