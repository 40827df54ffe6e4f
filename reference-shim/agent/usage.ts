// Token accounting for one turn (R4): the sum over its provider calls of what each provider reported; calls
// that reported nothing are estimated from their size and the total is marked `estimated`.
import type { ResultUsage, UsageFields } from '../output/types.js';
import type { TokenUsage } from '../session/history.js';

const MAX_TOKENS = 2 ** 32 - 1;
/** A common rule of thumb for English and code: about four characters per token. */
const CHARS_PER_TOKEN = 4;

function clampTokens(value: number): number {
  return Math.min(MAX_TOKENS, Math.max(0, Math.round(Number.isFinite(value) ? value : 0)));
}

export function estimateTokens(characters: number): number {
  return Math.max(1, Math.ceil(characters / CHARS_PER_TOKEN));
}

export function toUsageFields(usage: TokenUsage): UsageFields {
  return {
    input_tokens: clampTokens(usage.inputTokens),
    output_tokens: clampTokens(usage.outputTokens),
    ...(usage.cacheReadTokens ? { cache_read_input_tokens: clampTokens(usage.cacheReadTokens) } : {}),
    ...(usage.cacheCreationTokens ? { cache_creation_input_tokens: clampTokens(usage.cacheCreationTokens) } : {}),
  };
}

export class TurnUsage {
  private total: Required<TokenUsage> = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 };
  private calls = 0;
  private estimated = false;
  private last: TokenUsage | undefined;

  /** A call that reported usage. */
  addReported(usage: TokenUsage): void {
    this.add(usage);
    this.last = usage;
  }

  /** A call that completed without usage: count its request and answer sizes instead. */
  addEstimate(requestChars: number, answerChars: number): void {
    this.estimated = true;
    this.add({ inputTokens: estimateTokens(requestChars), outputTokens: estimateTokens(answerChars) });
    this.last = undefined;
  }

  /** What the turn's last call reported; undefined when it reported nothing (or no call completed). */
  get lastCall(): TokenUsage | undefined {
    return this.last;
  }

  /**
   * Forgets the calls so far (an automatic compaction: the turn reports only the calls after its boundary,
   * docs/protocol.md#r21-compaction); the last call stays known.
   */
  reset(): void {
    this.total = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 };
    this.calls = 0;
    this.estimated = false;
  }

  get hasAny(): boolean {
    return this.calls > 0;
  }

  get totals(): Required<TokenUsage> {
    return { ...this.total };
  }

  /**
   * result.usage, or undefined when no call completed (R4: never 0/0). A provider that reported 0/0 for its calls
   * is printed as 0/1: the app reads 0/0 as a compaction. A real compaction prints its 0/0 itself (compact-turn.ts).
   */
  forResult(): ResultUsage | undefined {
    if (this.calls === 0) return undefined;
    const fields = toUsageFields(this.total);
    if (fields.input_tokens === 0 && fields.output_tokens === 0) fields.output_tokens = 1;
    return { ...fields, ...(this.estimated ? { estimated: true } : {}) };
  }

  private add(usage: TokenUsage): void {
    this.calls += 1;
    this.total.inputTokens += usage.inputTokens;
    this.total.outputTokens += usage.outputTokens;
    this.total.cacheReadTokens += usage.cacheReadTokens ?? 0;
    this.total.cacheCreationTokens += usage.cacheCreationTokens ?? 0;
  }
}
