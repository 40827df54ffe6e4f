// `/compact` for an official CLI (docs/protocol.md#r21-compaction, "Official CLIs"). claude compacts on its own
// command in `-p` mode: the command goes to it as the prompt, and its boundary and summary are what the shim
// reports. gemini and codex do not (their command reaches the model as text: test/fixtures/streams/captures/
// HOW-CAPTURED.md), and copilot compacts without printing the summary or a boundary, so the shim compacts through
// them: it asks the CLI, in its own session, for the summary a
// model would be asked for, and the next turn continues the shim's session in a new CLI session seeded with it
// (the shim's compacted history is what the next prompt carries). Nothing of the CLI's run is printed.
import type { TokenUsage } from '../../session/history.js';
import {
  type CompactOutcome,
  type ProviderCompaction,
  ProviderError,
  type TurnOutcome,
  type TurnSink,
} from '../provider.js';

/** Collects what the CLI reports while it compacts; the turn prints none of it. */
export class CompactionSink implements TurnSink {
  /** The assistant text the CLI printed: the summary, when the CLI was asked for one. */
  said = '';
  compaction: ProviderCompaction | undefined;
  usageTotal: TokenUsage | undefined;
  private tools = 0;

  constructor(private readonly log: (message: string) => void) {}

  text(delta: string): void {
    this.said += delta;
  }

  thinking(): void {}

  toolUse(call: { id?: string; name: string }): string {
    this.tools += 1;
    this.log(`the CLI called ${call.name} while it summarized the session; not shown`);
    return call.id ?? `compaction_tool_${this.tools}`;
  }

  toolResult(): void {}

  usage(usage: TokenUsage): void {
    const total = this.usageTotal ?? { inputTokens: 0, outputTokens: 0 };
    this.usageTotal = {
      inputTokens: total.inputTokens + usage.inputTokens,
      outputTokens: total.outputTokens + usage.outputTokens,
      ...(usage.cacheReadTokens || total.cacheReadTokens
        ? { cacheReadTokens: (total.cacheReadTokens ?? 0) + (usage.cacheReadTokens ?? 0) }
        : {}),
    };
  }

  retried(): void {}

  compacted(compaction: ProviderCompaction): void {
    this.compaction = compaction;
  }
}

/** What the compaction's CLI run came to, and what the outcome needs to be told. */
export interface CompactionRun {
  /** The CLI ran its own `/compact` (claude); else it was asked for a summary. */
  ownCommand: boolean;
  binary: string;
  turn: TurnOutcome;
  sink: CompactionSink;
  /** Why the CLI said its compaction failed, when it said so. */
  compactError?: string;
  /** The provider state after a compaction through the CLI: a new CLI session next turn. */
  freshState: unknown;
}

/** The compaction's outcome: the summary and the state the next turn starts from, or the error that stopped it. */
export function compactionOutcome(run: CompactionRun): CompactOutcome {
  const { turn, sink, binary } = run;
  const state = 'state' in turn ? turn.state : undefined;
  if (!turn.ok) return { ok: false, error: turn.error, state };
  const usage = sink.usageTotal ? { usage: sink.usageTotal } : {};
  if (run.ownCommand) {
    const { compaction } = sink;
    if (compaction?.summary === undefined) {
      const why =
        run.compactError ?? (sink.said.trim() || turn.assistantText.trim() || 'it printed no compact_boundary');
      return { ok: false, error: new ProviderError('request', `${binary} did not compact the session: ${why}`), state };
    }
    return { ok: true, summary: compaction.summary, preTokens: compaction.preTokens, ...usage, state };
  }
  const summary = (sink.said || turn.assistantText).trim();
  if (!summary)
    return {
      ok: false,
      error: new ProviderError('request', `${binary} answered the summary request with no text`),
      state,
    };
  return { ok: true, summary, ...usage, state: run.freshState };
}
