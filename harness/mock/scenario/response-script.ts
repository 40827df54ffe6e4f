// Which scripted response answers the next request of a turn: each in order (a response may `repeat`), a cut
// or malformed last response once more to a streamed retry and once to a non-streamed fallback, a compaction
// summary to one or two summary requests, and (for `serve`) on to the next turn when a turn is used up.
import type { ModelResponse, Scenario } from './scenario-types.js';

interface TurnCursor {
  response: number;
  served: number;
  /** The turn's last response (a cut or malformed stream) was served again: to a streamed retry, to a non-streamed fallback. */
  replayedStreamed: boolean;
  replayedFallback: boolean;
}

/**
 * A call cut off before it completed (stream cut, malformed chunk) may be retried once, and a client may fall back
 * once to a non-streamed request for it (as Claude Code does); each meets the same fault again. Anything beyond
 * that is unscripted.
 */
function replayable(response: ModelResponse | undefined): boolean {
  return response?.fault?.kind === 'cut' || response?.fault?.kind === 'malformed';
}

/** A compaction summary answers up to this many summary requests (claude sends two, docs/protocol.md#r21-compaction). */
export const SUMMARY_REQUESTS = 2;

/** What the script may ask of the request it answers: whether its history already carries a text. */
export interface RequestContent {
  carries(text: string): boolean;
}

/** The text a summary response streams: what the turns after a compaction must carry. */
export function summaryText(response: ModelResponse): string {
  return (response.text ?? []).join('');
}

export interface NextResponse {
  response: ModelResponse;
  index: number;
  attempt: number;
  replay?: 'streamed' | 'fallback';
}

export class ResponseScript {
  /** 0-based turn the next request is answered in. */
  turn = 0;
  private readonly cursors: TurnCursor[];

  constructor(
    private readonly scenario: Pick<Scenario, 'turns'>,
    private readonly autoAdvance: boolean,
  ) {
    this.cursors = scenario.turns.map(() => ({
      response: 0,
      served: 0,
      replayedStreamed: false,
      replayedFallback: false,
    }));
  }

  /**
   * The scripted response for the next request of the current turn (advancing the turn when allowed). A summary
   * already served once answers a second summary request, but not a request that carries its text: that is the
   * retry after an automatic compaction, which the next response answers.
   */
  peek(stream: boolean, request?: RequestContent): NextResponse | undefined {
    for (;;) {
      const responses = this.scenario.turns[this.turn]?.responses ?? [];
      const cursor = this.cursors[this.turn];
      const current = cursor ? responses[cursor.response] : undefined;
      if (cursor && current?.summary && cursor.served > 0 && request?.carries(summaryText(current))) {
        cursor.response += 1;
        cursor.served = 0;
        continue;
      }
      if (cursor && cursor.response < responses.length) {
        return { response: responses[cursor.response]!, index: cursor.response, attempt: cursor.served };
      }
      if (cursor && replayable(responses.at(-1)) && !(stream ? cursor.replayedStreamed : cursor.replayedFallback)) {
        const attempt = 1 + Number(cursor.replayedStreamed) + Number(cursor.replayedFallback);
        return {
          response: responses.at(-1)!,
          index: responses.length - 1,
          attempt,
          replay: stream ? 'streamed' : 'fallback',
        };
      }
      if (this.autoAdvance && this.turn + 1 < this.scenario.turns.length) {
        this.turn += 1;
        continue;
      }
      return undefined;
    }
  }

  /** Marks the response `peek` gave as served. */
  consume(replay: NextResponse['replay']): void {
    const cursor = this.cursors[this.turn]!;
    if (replay === 'streamed') cursor.replayedStreamed = true;
    if (replay === 'fallback') cursor.replayedFallback = true;
    if (replay) return;
    const response = this.scenario.turns[this.turn]!.responses[cursor.response]!;
    cursor.served += 1;
    if (cursor.served >= (response.summary ? SUMMARY_REQUESTS : (response.repeat ?? 1))) {
      cursor.response += 1;
      cursor.served = 0;
    }
  }
}
