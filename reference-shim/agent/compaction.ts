// Compaction (docs/protocol.md#r21-compaction): the session's history replaced by a summary the model writes, so
// the next request starts small. Asked for by `/compact <hints>`, or done on the shim's own when the provider
// says a request is over the model's context window. This file holds what both share: the summary request, the
// history that replaces the old one, and the size the boundary reports.
import { ProviderError } from '../providers/provider.js';
import type { HistoryEntry, TokenUsage } from '../session/history.js';
import { callModelQuietly, type LoopContext } from './loop.js';

/** The request appended to the history for a summary. `/compact` itself is never sent: it is not a question. */
export function summaryInstruction(hints: string): string {
  const lines = [
    'Summarize this conversation so far, so that it can continue from the summary alone: the task, what was',
    'done and found, the files involved and their relevant contents, decisions made, and what remains to do.',
    'Answer with the summary as text only; do not call any tool.',
  ];
  if (hints) lines.push('', `Additional instructions: ${hints}`);
  return lines.join('\n');
}

/** The user message that opens a compacted history: the summary, said to be one. */
export function summaryMessage(summary: string): string {
  return `This session continues an earlier conversation that was compacted. A summary of it:\n\n${summary}`;
}

/**
 * The history after a compaction: the summary, then the last answer kept verbatim when it was plain text (as
 * claude keeps its most recent messages); the compacted turns' prompts, calls and results are gone.
 */
export function compactedHistory(history: readonly HistoryEntry[], summary: string): HistoryEntry[] {
  const compacted: HistoryEntry[] = [{ role: 'user', content: summaryMessage(summary) }];
  const last = history.at(-1);
  if (last?.role === 'assistant' && last.content && !last.toolCalls?.length) {
    compacted.push({ role: 'assistant', content: last.content, ...(last.provider ? { provider: last.provider } : {}) });
  }
  return compacted;
}

/** A boundary's `pre_tokens`: the last provider call's input + cache + output tokens. */
export function callTokens(usage: TokenUsage | undefined): number {
  if (!usage) return 0;
  return usage.inputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheCreationTokens ?? 0) + usage.outputTokens;
}

export interface Summary {
  text: string;
  usage?: TokenUsage;
}

/**
 * Asks the model for a summary of `history`: the whole of it plus the instruction, with the tools declared (an
 * API that sees tool calls in the history wants them) but the answer asked to be text. Nothing is printed.
 * Throws the ProviderError of a failed call, or one of kind `request` when the model answers with no text.
 */
export async function summarize(
  context: LoopContext,
  history: readonly HistoryEntry[],
  hints: string,
): Promise<Summary> {
  const request: HistoryEntry[] = [...history, { role: 'user', content: summaryInstruction(hints) }];
  context.stats.modelCalls += 1;
  const message = await callModelQuietly(context, request);
  const text = message.text.trim();
  if (!text)
    throw new ProviderError('request', `${context.provider.id}: the model answered the summary request with no text`);
  return { text, ...(message.usage ? { usage: message.usage } : {}) };
}
