// The `/compact` turn (docs/protocol.md#r21-compaction): the session's history is summarized and replaced by the
// summary, and the turn prints `init` (already printed), a `compact_boundary` with `trigger: "manual"`, and a
// result with 0/0 usage carrying the summary: the app's only counter reset, and the text it shows as the summary.
// Nothing else of the turn is printed: the summary is not assistant text. An interrupt or a failure leaves the
// history as it was and ends in an error result without 0/0 (the app would take 0/0 for a compaction). A provider
// that runs whole turns (an official CLI) compacts through its own `compact()`: claude runs `/compact` itself,
// the other CLIs are asked for the summary (providers/cli/cli-compaction.ts).
import { compactHints } from '../../common/compact-command.js';
import type { Emitter } from '../output/emitter.js';
import { type Provider, ProviderError, type TurnProvider } from '../providers/provider.js';
import { nowMs } from '../session/clock.js';
import { addUsage } from '../session/store.js';
import type { InterruptSignal } from '../tools/interrupt.js';
import { compactedHistory, type Summary, summarize, summaryInstruction } from './compaction.js';
import type { LoopContext } from './loop.js';
import type { ShimSession, TurnEnd } from './turn-types.js';

export interface CompactTurnDeps {
  emitter: Emitter;
  provider: Provider;
  session: ShimSession;
  model: string;
  permissionMode: string;
  /** The loop's context for this turn's model calls (Type A providers). */
  loopContext(signal: InterruptSignal, stats: { apiMs: number; modelCalls: number }): LoopContext;
  save(): Promise<void>;
}

/** Said when `/compact` meets a session with nothing in it: no summary request is made. */
export const NOTHING_TO_COMPACT = 'Nothing to compact: this session has no history yet.';

/** `preTokens`: the size the provider itself measured before the compaction (claude's own boundary). */
type Compaction =
  | { kind: 'compacted'; summary: Summary; preTokens?: number }
  | { kind: 'interrupted' }
  | { kind: 'error'; error: ProviderError };

export async function runCompactTurn(deps: CompactTurnDeps, prompt: string, signal: InterruptSignal): Promise<TurnEnd> {
  const { emitter, session } = deps;
  const started = nowMs();
  const stats = { apiMs: 0, modelCalls: 0 };
  const outcome = session.history.length === 0 ? nothingToCompact() : await compact(deps, prompt, { signal, stats });
  const base = { durationMs: nowMs() - started, durationApiMs: stats.apiMs, numTurns: 0 };
  if (outcome.kind === 'compacted') {
    const preTokens = outcome.preTokens ?? session.lastCallTokens;
    session.history.splice(0, session.history.length, ...compactedHistory(session.history, outcome.summary.text));
    session.compactionCount += 1;
    session.lastCallTokens = 0; // the context it measured is gone
    if (outcome.summary.usage) session.usage = addUsage(session.usage, outcome.summary.usage);
    await deps.save();
    emitter.compactBoundary('manual', preTokens);
    const zero = { input_tokens: 0, output_tokens: 0 };
    emitter.result({ ...base, isError: false, subtype: 'success', text: outcome.summary.text, usage: zero });
  } else if (outcome.kind === 'interrupted') {
    emitter.interrupt();
    emitter.result({
      ...base,
      isError: true,
      subtype: 'cancelled',
      text: 'Interrupted: the session was not compacted.',
    });
  } else {
    const { error } = outcome;
    if (error.kind === 'auth' || error.kind === 'config') emitter.systemError(error.message);
    else emitter.error(error.message, error.details.code);
    emitter.result({
      ...base,
      isError: true,
      subtype: 'error_during_execution',
      text: error.message,
      errors: [error.message],
    });
  }
  emitter.messageStop();
  await emitter.flush();
  return { isError: outcome.kind !== 'compacted', interrupted: outcome.kind === 'interrupted' };
}

function nothingToCompact(): Compaction {
  return { kind: 'error', error: new ProviderError('request', NOTHING_TO_COMPACT) };
}

async function compact(
  deps: CompactTurnDeps,
  prompt: string,
  turn: { signal: InterruptSignal; stats: { apiMs: number; modelCalls: number } },
): Promise<Compaction> {
  const { provider, session } = deps;
  try {
    if (provider.kind === 'turn') return await compactThrough(provider, deps, prompt, turn);
    const summary = await summarize(deps.loopContext(turn.signal, turn.stats), session.history, compactHints(prompt));
    return turn.signal.aborted ? { kind: 'interrupted' } : { kind: 'compacted', summary };
  } catch (error) {
    if (turn.signal.aborted || (error instanceof ProviderError && error.kind === 'aborted'))
      return { kind: 'interrupted' };
    if (error instanceof ProviderError) return { kind: 'error', error };
    return {
      kind: 'error',
      error: new ProviderError('stream', `${provider.id}: ${(error as Error)?.message ?? String(error)}`),
    };
  }
}

/** A provider that runs whole turns compacts itself; its state for the next turn is kept whatever the outcome. */
async function compactThrough(
  provider: TurnProvider,
  deps: CompactTurnDeps,
  prompt: string,
  turn: { signal: InterruptSignal; stats: { apiMs: number; modelCalls: number } },
): Promise<Compaction> {
  const { session } = deps;
  if (!provider.compact)
    return { kind: 'error', error: new ProviderError('config', `${provider.id} cannot compact a session`) };
  const started = nowMs();
  const outcome = await provider.compact({
    command: prompt,
    instruction: summaryInstruction(compactHints(prompt)),
    history: session.history,
    sessionId: session.id,
    model: deps.model,
    cwd: session.cwd,
    permissionMode: deps.permissionMode,
    state: session.providerState,
    signal: turn.signal,
  });
  turn.stats.apiMs += nowMs() - started;
  if ('state' in outcome) session.providerState = outcome.state;
  if (turn.signal.aborted) return { kind: 'interrupted' };
  if (!outcome.ok)
    return outcome.error.kind === 'aborted' ? { kind: 'interrupted' } : { kind: 'error', error: outcome.error };
  const summary: Summary = { text: outcome.summary, ...(outcome.usage ? { usage: outcome.usage } : {}) };
  return { kind: 'compacted', summary, ...(outcome.preTokens === undefined ? {} : { preTokens: outcome.preTokens }) };
}
