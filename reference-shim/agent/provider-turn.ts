// Runs a turn on a TurnProvider (a provider that runs whole turns itself, e.g. an official CLI) and keeps the
// stream conformant whatever order it reports things in: a tool_use is held back until its result arrives and
// then printed right before it (R3's one-at-a-time pairing), results for unknown ids are dropped, and calls
// left unanswered at the end get an error result. Once the turn is interrupted, whatever the provider still
// reports is dropped (R6): a CLI that is being stopped may print a killed command's result, or even play on. A
// provider that compacts the session itself (claude on a context overflow) has its boundary printed and the
// shim's own history compacted with the same summary (docs/protocol.md#r21-compaction).
import type { Emitter } from '../output/emitter.js';
import { type ProviderCompaction, ProviderError, type TurnProvider, type TurnSink } from '../providers/provider.js';
import { nowMs } from '../session/clock.js';
import type { HistoryEntry, TokenUsage, ToolCallRecord } from '../session/history.js';
import type { InterruptSignal } from '../tools/interrupt.js';
import { capText } from '../tools/output-cap.js';
import { compactedHistory } from './compaction.js';
import type { LoopOutcome } from './loop.js';
import type { ToolIdAllocator } from './tool-ids.js';
import { type TurnUsage, toUsageFields } from './usage.js';

export interface ProviderTurnContext {
  provider: TurnProvider;
  emitter: Emitter;
  ids: ToolIdAllocator;
  prompt: string;
  sessionId: string;
  model: string;
  cwd: string;
  permissionMode: string;
  history: HistoryEntry[];
  state: { value?: unknown };
  usage: TurnUsage;
  retriedErrors: string[];
  signal: InterruptSignal;
  log: (message: string) => void;
  stats: { apiMs: number; modelCalls: number };
  /** Called when the provider compacted the session itself (the session counts its compactions). */
  onCompaction?: () => void;
}

class PairingSink implements TurnSink {
  private readonly pending = new Map<string, ToolCallRecord>();
  private textSinceLastCall = '';
  allText = '';
  /** Where this turn's prompt is in the history: what a compaction replaces is before it. */
  private promptAt: number;
  /** Tool calls the provider announced before any interrupt: each came from a model answer that completed. */
  callsAnnounced = 0;
  /** Characters of those calls' inputs, for an estimate of the answers' size. */
  callChars = 0;

  constructor(private readonly context: ProviderTurnContext) {
    this.promptAt = context.history.length - 1;
  }

  /**
   * After the interrupt the shim answers the running calls itself (finish()), then prints `interrupt` and
   * an error result; nothing the provider reports later may come between (R6).
   */
  private get interrupted(): boolean {
    return this.context.signal.aborted;
  }

  text(delta: string): void {
    if (!delta || this.interrupted) return;
    this.textSinceLastCall += delta;
    this.allText += delta;
    this.context.emitter.text(delta);
  }

  thinking(delta: string): void {
    if (this.interrupted) return;
    this.context.emitter.thinking(delta);
  }

  toolUse(call: { id?: string; name: string; input: Record<string, unknown> }): string {
    const id = this.context.ids.allocate(call.id, `call_${this.context.provider.id.replace(/[^A-Za-z0-9]/g, '_')}_`);
    if (this.interrupted) return id; // announced after the interrupt: never printed, never answered
    this.callsAnnounced += 1;
    this.callChars += call.name.length + JSON.stringify(call.input ?? {}).length;
    this.pending.set(id, {
      id,
      ...(call.id && call.id !== id ? { wireId: call.id } : {}),
      name: call.name,
      input: call.input && typeof call.input === 'object' ? call.input : {},
    });
    return id;
  }

  toolResult(result: { toolUseId: string; content: string; isError: boolean }): void {
    if (this.interrupted) {
      this.context.log(`${this.context.provider.id}: result for ${result.toolUseId} after the interrupt dropped`);
      return; // the call stays pending: finish() answers it as interrupted
    }
    const call = this.pending.get(result.toolUseId);
    if (!call) {
      this.context.log(`${this.context.provider.id}: result for unknown tool id ${result.toolUseId} dropped`);
      return;
    }
    this.pending.delete(result.toolUseId);
    // A CLI reports its tools' whole output; cap it as the shim's own tools do (R9: one line stays small).
    this.print(call, capText(result.content), result.isError);
  }

  usage(usage: TokenUsage): void {
    this.context.stats.modelCalls += 1;
    this.context.usage.addReported(usage);
    // What a stopped CLI says it billed still counts in the result's totals (claude reports its usage only
    // in its closing result line, which comes after the interrupt), but no line is printed for it.
    if (this.interrupted) return;
    this.context.emitter.usage(toUsageFields(usage));
  }

  retried(message: string): void {
    if (this.interrupted) return;
    this.context.retriedErrors.push(message);
  }

  compacted(compaction: ProviderCompaction): void {
    if (this.interrupted) return;
    const { context } = this;
    context.emitter.compactBoundary(compaction.trigger, compaction.preTokens);
    // The turn reports the calls after the boundary (R21): whatever came before it is not this turn's.
    context.usage.reset();
    if (compaction.summary !== undefined && this.promptAt > 0) {
      const compacted = compactedHistory(context.history.slice(0, this.promptAt), compaction.summary);
      context.history.splice(0, this.promptAt, ...compacted);
      this.promptAt = compacted.length;
    }
    context.onCompaction?.();
  }

  /** Answers every call still waiting, then records the final text. */
  finish(reason: string): void {
    for (const call of [...this.pending.values()]) {
      this.pending.delete(call.id);
      this.print(call, reason, true);
    }
    if (this.textSinceLastCall) {
      this.context.history.push({
        role: 'assistant',
        content: this.textSinceLastCall,
        provider: this.context.provider.id,
      });
      this.textSinceLastCall = '';
    }
  }

  private print(call: ToolCallRecord, content: string, isError: boolean): void {
    this.context.emitter.toolUse({ id: call.id, name: call.name, input: call.input });
    this.context.emitter.toolResult({ toolUseId: call.id, content, isError });
    this.context.history.push(
      { role: 'assistant', content: this.textSinceLastCall, provider: this.context.provider.id, toolCalls: [call] },
      {
        role: 'tool',
        toolCallId: call.id,
        ...(call.wireId ? { wireId: call.wireId } : {}),
        name: call.name,
        content,
        ...(isError ? { isError: true } : {}),
      },
    );
    this.textSinceLastCall = '';
  }
}

export async function runProviderTurn(context: ProviderTurnContext): Promise<LoopOutcome> {
  const sink = new PairingSink(context);
  const started = nowMs();
  const requestChars = context.prompt.length + JSON.stringify(context.history).length;
  const priorHistory = context.history.slice(0, -1); // without the prompt just added
  let outcome: LoopOutcome;
  try {
    const answer = await context.provider.runTurn(
      {
        prompt: context.prompt,
        history: priorHistory,
        sessionId: context.sessionId,
        model: context.model,
        cwd: context.cwd,
        permissionMode: context.permissionMode,
        state: context.state.value,
        signal: context.signal,
      },
      sink,
    );
    if ('state' in answer) context.state.value = answer.state;
    if (context.signal.aborted) outcome = { kind: 'interrupted' };
    else if (answer.ok) outcome = { kind: 'success', text: answer.assistantText || sink.allText };
    else outcome = answer.error.kind === 'aborted' ? { kind: 'interrupted' } : { kind: 'error', error: answer.error };
  } catch (error) {
    if (context.signal.aborted || (error instanceof ProviderError && error.kind === 'aborted'))
      outcome = { kind: 'interrupted' };
    else if (error instanceof ProviderError) outcome = { kind: 'error', error };
    else
      outcome = {
        kind: 'error',
        error: new ProviderError(
          'stream',
          `${context.provider.id} failed: ${(error as Error)?.message ?? String(error)}`,
        ),
      };
  }
  context.stats.apiMs += nowMs() - started;
  sink.finish(
    outcome.kind === 'interrupted'
      ? 'Interrupted before the tool reported a result.'
      : 'The provider reported no result for this call.',
  );
  // R4: a CLI that reported no usage is estimated. Gemini and codex report it only in their closing event, which
  // an interrupted CLI never prints: a turn interrupted after a tool call (so after a model answer that completed)
  // is estimated too, never left without usage; one interrupted in its first answer may omit it.
  const answered = outcome.kind === 'success' || (outcome.kind === 'interrupted' && sink.callsAnnounced > 0);
  if (answered && !context.usage.hasAny) {
    context.stats.modelCalls = Math.max(1, context.stats.modelCalls);
    context.usage.addEstimate(requestChars, sink.allText.length + sink.callChars);
  }
  return outcome;
}
