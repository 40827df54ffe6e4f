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

const newTurn = (): CompactionTurn => ({ boundary: undefined, assistantTextLine: undefined, userText: false });

export class CompactionChecks {
  private turn = newTurn();
  /** 0-based index of the current turn in this stream. */
  private turnIndex = 0;

  /** `compactTurns[i]`: the stream's turn i asks for a compaction (by its prompt); undefined: infer it. */
  constructor(
    private readonly ctx: CheckContext,
    private readonly compactTurns: readonly boolean[] | undefined,
  ) {}

  onEvent(event: CanonicalEvent): void {
    const turn = this.turn;
    if (event.kind === 'system' && event.subtype === 'compact_boundary')
      turn.boundary ??= { line: event.line, trigger: event.trigger };
    else if (event.kind === 'text') turn.assistantTextLine ??= event.line;
    else if (event.kind === 'other' && event.type === 'user' && event.text) turn.userText = true;
  }

  /** Whether the turn the next result ends is a `/compact` turn. */
  isCompactTurn(): boolean {
    if (this.compactTurns) return this.compactTurns[this.turnIndex] === true;
    return this.turn.boundary?.trigger === 'manual';
  }

  /** The turn's result: a successful `/compact` turn is judged, then the next turn starts. */
  onResult(event: ResultEvent): void {
    if (this.isCompactTurn() && !event.isError) this.judgeCompaction(event);
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
    const usage = result.usage;
    if (!(usage && usage.inputTokens === 0 && usage.outputTokens === 0)) {
      const shown = usage ? `${usage.inputTokens ?? '-'}/${usage.outputTokens ?? '-'}` : 'absent';
      ctx.report('compaction.result-zero-usage', line, `the /compact turn's result.usage is ${shown}, not 0/0`);
      ctx.report(
        'app.compaction-zero-usage',
        line,
        `the /compact turn's result.usage is ${shown}, not 0/0: the app never sees the compaction, keeps its token counter above the threshold and sends /compact again with the next message`,
      );
    }
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
}
