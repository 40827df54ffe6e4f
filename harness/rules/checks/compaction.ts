// Compaction on one stream (docs/protocol.md#r21-compaction): which turns are `/compact` turns, and what a
// successful one prints. The run knows a turn by its prompt and passes that in; `validate` has no prompts and
// takes a turn with a `trigger: "manual"` boundary for one. A boundary on any other turn excuses nothing: the
// usage rules the sequence checks skip for a compaction apply to it in full.
import type { CanonicalEvent, ResultEvent } from '../../protocol/canonical.js';
import type { CheckContext } from './context.js';

interface Boundary {
  line: number;
  trigger: string | undefined;
}

interface CompactionTurn {
  boundary: Boundary | undefined;
  /** Line of the turn's first assistant text. */
  assistantTextLine: number | undefined;
  /** A `user` line with text (claude's synthetic summary message) came in the turn. */
  userText: boolean;
}

/**
 * What a turn is to the compaction rules, as the run knows it from its prompt: an ordinary turn, a `/compact`, or
 * a `/compact` of a session with nothing in it (claude then ends the turn with 0/0 and no boundary, and a shim
 * may do the same or end with an error result).
 */
export type CompactTurn = 'none' | 'compact' | 'nothing-to-compact';

const newTurn = (): CompactionTurn => ({ boundary: undefined, assistantTextLine: undefined, userText: false });

export class CompactionChecks {
  private turn = newTurn();
  /** 0-based index of the current turn in this stream. */
  private turnIndex = 0;

  /** `compactTurns[i]`: what the stream's turn i is (by its prompt); undefined: infer it from the boundary. */
  constructor(
    private readonly ctx: CheckContext,
    private readonly compactTurns: readonly CompactTurn[] | undefined,
  ) {}

  onEvent(event: CanonicalEvent): void {
    const turn = this.turn;
    if (event.kind === 'system' && event.subtype === 'compact_boundary')
      turn.boundary ??= { line: event.line, trigger: event.trigger };
    else if (event.kind === 'text') turn.assistantTextLine ??= event.line;
    else if (event.kind === 'other' && event.type === 'user' && event.text) turn.userText = true;
  }

  /** What the turn the next result ends is. */
  private kind(): CompactTurn {
    if (this.compactTurns) return this.compactTurns[this.turnIndex] ?? 'none';
    return this.turn.boundary?.trigger === 'manual' ? 'compact' : 'none';
  }

  /** Whether the turn the next result ends is a `/compact` turn (of a session with history or without). */
  isCompactTurn(): boolean {
    return this.kind() !== 'none';
  }

  /** The turn's result: a successful `/compact` turn is judged, then the next turn starts. */
  onResult(event: ResultEvent): void {
    const kind = this.kind();
    if (kind === 'compact' && !event.isError) this.judgeCompaction(event);
    else if (kind === 'nothing-to-compact' && !event.isError) this.judgeZeroUsage(event);
    this.turn = newTurn();
    this.turnIndex += 1;
  }

  private judgeCompaction(result: ResultEvent): void {
    const { ctx, turn } = this;
    const line = result.line;
    if (!turn.boundary) {
      ctx.report('compaction.boundary', line, 'a successful /compact turn printed no `system` `compact_boundary`');
    } else if (turn.boundary.trigger !== 'manual') {
      ctx.report(
        'compaction.boundary',
        turn.boundary.line,
        `the boundary of a /compact turn has trigger ${JSON.stringify(turn.boundary.trigger ?? null)}, not "manual"`,
      );
    }
    this.judgeZeroUsage(result);
    if (turn.assistantTextLine !== undefined) {
      ctx.report(
        'compaction.summary-shown',
        turn.assistantTextLine,
        'the /compact turn printed assistant text: the summary belongs in the result text or a synthetic user message',
      );
    } else if (!result.text && !turn.userText) {
      ctx.report(
        'compaction.summary-shown',
        line,
        'the /compact turn shows no summary: its result text is empty and no user message carries it',
      );
    }
  }

  /** A successful `/compact` result reports 0/0: the app's only counter reset. */
  private judgeZeroUsage(result: ResultEvent): void {
    const usage = result.usage;
    if (usage && usage.inputTokens === 0 && usage.outputTokens === 0) return;
    const shown = usage ? `${usage.inputTokens ?? '-'}/${usage.outputTokens ?? '-'}` : 'absent';
    this.ctx.report(
      'compaction.result-zero-usage',
      result.line,
      `the /compact turn's result.usage is ${shown}, not 0/0`,
    );
    this.ctx.report(
      'app.compaction-zero-usage',
      result.line,
      `the /compact turn's result.usage is ${shown}, not 0/0: the app never sees the compaction, keeps its token counter above the threshold and sends /compact again with the next message`,
    );
  }
}
