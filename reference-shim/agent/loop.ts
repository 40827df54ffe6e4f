// The Type-A agent loop: think → act → observe until the model stops.
// Each model call streams its text at once; its tool calls run afterwards one at a time, each tool_use
// printed and answered by its tool_result before the next (R3). Retryable failures are retried (R5).
import type { Emitter } from '../output/emitter.js';
import { type AssembledMessage, type ModelProvider, type ModelToolCall, ProviderError } from '../providers/provider.js';
import { nowMs } from '../session/clock.js';
import type { AssistantEntry, HistoryEntry, ToolCallRecord } from '../session/history.js';
import type { InterruptSignal } from '../tools/interrupt.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolContext, ToolOutcome } from '../tools/types.js';
import type { PermissionGate } from './permissions.js';
import type { ToolIdAllocator } from './tool-ids.js';
import { type TurnUsage, toUsageFields } from './usage.js';

export const MAX_ATTEMPTS = 3;
/** A server asking for a longer pause than this is not waited for: the turn fails instead of hanging. */
const MAX_RETRY_AFTER_MS = 60_000;
const BACKOFF_BASE_MS = 500;

export interface LoopContext {
  provider: ModelProvider;
  emitter: Emitter;
  tools: ToolRegistry;
  toolContext: Omit<ToolContext, 'signal'>;
  gate: PermissionGate;
  ids: ToolIdAllocator;
  model: string;
  system: string;
  maxModelCalls: number;
  /** The session history; the loop appends to it as the turn proceeds. */
  history: HistoryEntry[];
  usage: TurnUsage;
  /** Failures that were retried (result.errors, R5). */
  retriedErrors: string[];
  signal: InterruptSignal;
  log: (message: string) => void;
  stats: { apiMs: number; modelCalls: number };
  /**
   * Called once per turn when the provider says the request is over the model's context window: compacts the
   * session's earlier history (docs/protocol.md#r21-compaction) and resolves true when the loop may retry.
   */
  onContextOverflow?: (error: ProviderError) => Promise<boolean>;
}

export type LoopOutcome =
  | { kind: 'success'; text: string }
  | { kind: 'max_turns'; limit: number }
  | { kind: 'interrupted' }
  | { kind: 'error'; error: ProviderError };

function sleep(ms: number, signal: InterruptSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function asProviderError(error: unknown, signal: InterruptSignal): ProviderError {
  if (signal.aborted) return new ProviderError('aborted', 'interrupted');
  if (error instanceof ProviderError) return error;
  return new ProviderError('stream', `provider failure: ${(error as Error)?.message ?? String(error)}`);
}

/** What one model call sends, and whether its text is printed as it streams (a summary's is not). */
interface CallShape {
  history: readonly HistoryEntry[];
  print: boolean;
}

/** One model call with R5's bounded retries. Text printed before a failure is reported through `partial`. */
async function callModel(
  context: LoopContext,
  partial: { text: string },
  shape: CallShape = { history: context.history, print: true },
): Promise<AssembledMessage> {
  const { emitter } = context;
  for (let attempt = 1; ; attempt += 1) {
    let printed = false;
    const started = nowMs();
    if (shape.print) emitter.beginModelMessage();
    try {
      for await (const event of context.provider.stream({
        model: context.model,
        system: context.system,
        history: shape.history,
        tools: context.tools.specs,
        signal: context.signal,
      })) {
        if (context.signal.aborted) throw new ProviderError('aborted', 'interrupted');
        if (event.type === 'done') {
          if (shape.print) emitter.endModelMessage();
          return event.message;
        }
        if (!shape.print) continue;
        printed = true;
        if (event.type === 'text') {
          partial.text += event.text;
          emitter.text(event.text);
        } else emitter.thinking(event.text);
      }
      throw new ProviderError('stream', `${context.provider.id}: the stream ended without a complete answer`);
    } catch (caught) {
      const error = asProviderError(caught, context.signal);
      if (shape.print) emitter.endModelMessage();
      const wait = error.details.retryAfterMs ?? BACKOFF_BASE_MS * 2 ** (attempt - 1);
      const retry = error.kind === 'retryable' && !printed && attempt < MAX_ATTEMPTS && wait <= MAX_RETRY_AFTER_MS;
      if (!retry) throw error;
      context.retriedErrors.push(`attempt ${attempt}: ${error.message}`);
      context.emitter.systemNotice('api_retry', {
        attempt,
        max_retries: MAX_ATTEMPTS - 1,
        retry_delay_ms: Math.round(wait),
        ...(error.details.status ? { error_status: error.details.status } : {}),
        error: error.message,
      });
      context.log(`retrying in ${Math.round(wait)} ms after: ${error.message}`);
      await sleep(wait, context.signal);
      if (context.signal.aborted) throw new ProviderError('aborted', 'interrupted');
    } finally {
      context.stats.apiMs += nowMs() - started;
    }
  }
}

/**
 * A model call whose answer is not printed (a compaction's summary, docs/protocol.md#r21-compaction), with the
 * same bounded retries; it sends `history` instead of the session's.
 */
export function callModelQuietly(context: LoopContext, history: readonly HistoryEntry[]): Promise<AssembledMessage> {
  return callModel(context, { text: '' }, { history, print: false });
}

/** Parses a call's arguments; invalid JSON (or JSON that is not an object) is kept raw (R3). */
function argumentsOf(call: ModelToolCall): { input: Record<string, unknown>; raw?: string; problem?: string } {
  if (call.input) return { input: call.input };
  const text = call.argumentsText ?? '';
  if (text.trim() === '') return { input: {} };
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return { input: parsed as Record<string, unknown> };
    return { input: {}, raw: text, problem: 'the arguments are JSON but not an object' };
  } catch (error) {
    return { input: {}, raw: text, problem: (error as Error).message };
  }
}

function recordCalls(context: LoopContext, calls: ModelToolCall[]): Array<ToolCallRecord & { problem?: string }> {
  return calls.map((call) => {
    const id = context.ids.allocate(call.id, context.provider.generatedIdPrefix);
    const wireId = call.wireId ?? (call.id && call.id !== id ? call.id : undefined);
    const args = argumentsOf(call);
    return {
      id,
      ...(wireId ? { wireId } : {}),
      name: call.name,
      input: args.raw === undefined ? args.input : { _invalid_arguments: args.raw },
      ...(args.raw !== undefined ? { rawArguments: args.raw } : {}),
      ...(call.signature ? { signature: call.signature } : {}),
      ...(args.problem ? { problem: args.problem } : {}),
    };
  });
}

async function answerCall(
  context: LoopContext,
  call: ToolCallRecord & { problem?: string },
  siblings: readonly string[],
): Promise<ToolOutcome> {
  if (call.problem !== undefined) {
    return {
      content: `The arguments for ${call.name} were not valid JSON (${call.problem}); nothing was run. Call the tool again with a JSON object.`,
      isError: true,
    };
  }
  const decision = await context.gate.decide(
    [call.id, ...(call.wireId ? [call.wireId] : [])],
    context.signal,
    siblings,
  );
  if (decision === 'interrupted')
    return { content: `${call.name} was not run: the turn was interrupted.`, isError: true };
  if (decision === 'deny') {
    return {
      content: `Permission denied: ${call.name} was not run (permission mode ${context.gate.mode}).`,
      isError: true,
    };
  }
  if (decision === 'no-channel') {
    return {
      content: `${call.name} was not run: permission mode interactive needs approvals, which only arrive with --input-format stream-json.`,
      isError: true,
    };
  }
  return context.tools.run(call.name, call.input, { ...context.toolContext, signal: context.signal });
}

export async function runAgentLoop(context: LoopContext): Promise<LoopOutcome> {
  let compacted = false;
  for (;;) {
    if (context.stats.modelCalls >= context.maxModelCalls) return { kind: 'max_turns', limit: context.maxModelCalls };
    context.stats.modelCalls += 1;
    const partial = { text: '' };
    let message: AssembledMessage;
    try {
      message = await callModel(context, partial);
    } catch (caught) {
      const error = asProviderError(caught, context.signal);
      // What the user already saw stays in the conversation.
      if (partial.text)
        context.history.push({ role: 'assistant', content: partial.text, provider: context.provider.id });
      // One automatic compaction per turn, then one retry; a second overflow ends the turn (never the same
      // oversized request again).
      if (error.details.contextOverflow && !compacted && context.onContextOverflow && !partial.text) {
        compacted = true;
        if (await context.onContextOverflow(error)) continue;
      }
      return error.kind === 'aborted' || context.signal.aborted ? { kind: 'interrupted' } : { kind: 'error', error };
    }

    if (message.usage) {
      context.usage.addReported(message.usage);
      context.emitter.usage(toUsageFields(message.usage));
    } else {
      // The history is still the request's: the answer joins it below.
      const requestChars = context.system.length + JSON.stringify(context.history).length;
      const answerChars =
        message.text.length +
        JSON.stringify(message.toolCalls).length +
        message.thinking.reduce((n, t) => n + t.text.length, 0);
      context.usage.addEstimate(requestChars, answerChars);
    }

    const calls = recordCalls(context, message.toolCalls);
    const entry: AssistantEntry = {
      role: 'assistant',
      content: message.text,
      provider: context.provider.id,
      ...(message.thinking.length > 0 ? { thinking: message.thinking } : {}),
      ...(message.textSignature ? { textSignature: message.textSignature } : {}),
    };
    context.history.push(entry);
    if (calls.length === 0) return { kind: 'success', text: message.text };

    const siblingIds = calls.flatMap((call) => [call.id, ...(call.wireId ? [call.wireId] : [])]);
    entry.toolCalls = [];
    for (const call of calls) {
      if (context.signal.aborted) break; // calls not yet printed are dropped from the conversation
      const { problem: _problem, ...record } = call;
      entry.toolCalls.push(record);
      context.emitter.toolUse({ id: call.id, name: call.name, input: call.input });
      const outcome = await answerCall(context, call, siblingIds);
      context.emitter.toolResult({ toolUseId: call.id, content: outcome.content, isError: outcome.isError });
      context.history.push({
        role: 'tool',
        toolCallId: call.id,
        ...(call.wireId ? { wireId: call.wireId } : {}),
        name: call.name,
        content: outcome.content,
        ...(outcome.isError ? { isError: true } : {}),
      });
    }
    if (context.signal.aborted) {
      if (entry.toolCalls.length === 0) delete entry.toolCalls;
      return { kind: 'interrupted' };
    }
  }
}
