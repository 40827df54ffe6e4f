// One turn from prompt to `result` (R2): runs the provider (agent loop or whole-turn provider), saves the
// session, and prints the ending R4–R6 ask for — success result, or error / system error / interrupt, then an
// error result — followed by message_stop. Never a success result after an error.

import { isCompactPrompt } from '../../common/compact-command.js';
import type { Emitter } from '../output/emitter.js';
import type { ModelProvider, Provider } from '../providers/provider.js';
import { isoTimestamp, nowMs } from '../session/clock.js';
import { addUsage, type SessionFile, saveSession, titleFrom } from '../session/store.js';
import type { InterruptSignal } from '../tools/interrupt.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolContext } from '../tools/types.js';
import { type CompactTurnDeps, runCompactTurn } from './compact-turn.js';
import { callTokens, compactedHistory, type Summary, summarize } from './compaction.js';
import { type LoopContext, type LoopOutcome, runAgentLoop } from './loop.js';
import type { PermissionGate } from './permissions.js';
import { costUsd } from './pricing.js';
import { runProviderTurn } from './provider-turn.js';
import { ToolIdAllocator } from './tool-ids.js';
import type { ShimSession, TurnEnd } from './turn-types.js';
import { TurnUsage } from './usage.js';

export interface TurnRunnerOptions {
  emitter: Emitter;
  provider: Provider;
  tools: ToolRegistry;
  toolContext: Omit<ToolContext, 'signal'>;
  gate: PermissionGate;
  session: ShimSession;
  model: string;
  system: string;
  maxModelCalls: number;
  log: (message: string) => void;
}

export class TurnRunner {
  private readonly ids: ToolIdAllocator;

  constructor(private readonly options: TurnRunnerOptions) {
    this.ids = new ToolIdAllocator(options.session.history);
  }

  async run(prompt: string, signal: InterruptSignal): Promise<TurnEnd> {
    const { emitter, session } = this.options;
    if (isCompactPrompt(prompt)) return runCompactTurn(this.compactDeps(), prompt, signal);
    const started = nowMs();
    if (!session.title) session.title = titleFrom(prompt);
    session.history.push({ role: 'user', content: prompt });
    const turn: TurnAccount = { usage: new TurnUsage(), retriedErrors: [], stats: { apiMs: 0, modelCalls: 0 } };
    const outcome = await this.runProvider(prompt, signal, turn);

    if (turn.usage.hasAny) session.usage = addUsage(session.usage, turn.usage.totals);
    // A provider that runs whole turns (an official CLI) reports a turn's totals, not the size of its last call.
    if (this.options.provider.kind === 'turn') session.lastCallTokens = 0;
    else if (turn.usage.lastCall) session.lastCallTokens = callTokens(turn.usage.lastCall);
    await this.save();

    const resultUsage = turn.usage.forResult();
    const base: ResultBase = {
      durationMs: nowMs() - started,
      durationApiMs: turn.stats.apiMs,
      numTurns: turn.stats.modelCalls,
      usage: resultUsage,
      totalCostUsd: resultUsage && !resultUsage.estimated ? costUsd(this.options.model, turn.usage.totals) : undefined,
    };
    printEnding(emitter, outcome, { base, retriedErrors: turn.retriedErrors });
    emitter.messageStop();
    await emitter.flush();
    return { isError: outcome.kind !== 'success', interrupted: outcome.kind === 'interrupted' };
  }

  /** The agent loop's context for a model provider's calls in one turn. */
  private loopContext(provider: ModelProvider, signal: InterruptSignal, turn: TurnAccount): LoopContext {
    return {
      provider,
      emitter: this.options.emitter,
      tools: this.options.tools,
      toolContext: this.options.toolContext,
      gate: this.options.gate,
      ids: this.ids,
      model: this.options.model,
      system: this.options.system,
      maxModelCalls: this.options.maxModelCalls,
      history: this.options.session.history,
      usage: turn.usage,
      retriedErrors: turn.retriedErrors,
      signal,
      log: this.options.log,
      stats: turn.stats,
    };
  }

  private compactDeps(): CompactTurnDeps {
    const { emitter, provider, session } = this.options;
    return {
      emitter,
      provider,
      session,
      model: this.options.model,
      permissionMode: this.options.gate.mode,
      save: () => this.save(),
      loopContext: (signal, stats) => {
        if (provider.kind !== 'model') throw new Error('a loop context needs a model provider');
        return this.loopContext(provider, signal, { usage: new TurnUsage(), retriedErrors: [], stats });
      },
    };
  }

  /** The agent loop for a model provider; the whole turn for a provider that runs it (an official CLI). */
  private async runProvider(prompt: string, signal: InterruptSignal, turn: TurnAccount): Promise<LoopOutcome> {
    const { emitter, provider, session } = this.options;
    const { usage, retriedErrors, stats } = turn;
    if (provider.kind === 'model') {
      const context = this.loopContext(provider, signal, turn);
      context.onContextOverflow = () => compactOnOverflow(context, session);
      return runAgentLoop(context);
    }
    const state = { value: session.providerState };
    const outcome = await runProviderTurn({
      provider,
      emitter,
      ids: this.ids,
      prompt,
      sessionId: session.id,
      model: this.options.model,
      cwd: session.cwd,
      permissionMode: this.options.gate.mode,
      history: session.history,
      state,
      usage,
      retriedErrors,
      signal,
      log: this.options.log,
      stats,
      onCompaction: () => {
        session.compactionCount += 1;
      },
    });
    session.providerState = state.value;
    return outcome;
  }

  private async save(): Promise<void> {
    const { session } = this.options;
    const file: SessionFile = {
      id: session.id,
      provider: session.providerFlag,
      model: session.model,
      cwd: session.cwd,
      title: session.title,
      created: session.created,
      updated: isoTimestamp(),
      history: session.history,
      usage: session.usage,
      metadata: {
        title: session.title,
        ...(session.providerState !== undefined ? { providerState: session.providerState } : {}),
        ...(session.compactionCount > 0 ? { compactionCount: session.compactionCount } : {}),
        ...(session.lastCallTokens > 0 ? { lastCallTokens: session.lastCallTokens } : {}),
      },
    };
    try {
      await saveSession(session.file, file);
    } catch (error) {
      this.options.log(`could not save the session to ${session.file}: ${(error as Error).message}`);
    }
  }
}

/**
 * An automatic compaction (docs/protocol.md#r21-compaction): the provider said this turn's request is over the
 * model's context window. The history before this turn's prompt is summarized and replaced, a boundary with
 * `trigger: "auto"` is printed, and the turn counts only the calls after it; false (the turn ends with the
 * provider's error) when there is nothing before the prompt or the summary fails.
 */
async function compactOnOverflow(context: LoopContext, session: ShimSession): Promise<boolean> {
  const history = context.history;
  const start = history.findLastIndex((entry) => entry.role === 'user');
  if (start <= 0) return false;
  let summary: Summary;
  try {
    summary = await summarize(context, history.slice(0, start), '');
  } catch (error) {
    context.log(`automatic compaction failed: ${(error as Error).message}`);
    return false;
  }
  if (context.signal.aborted) return false;
  const preTokens = context.usage.lastCall ? callTokens(context.usage.lastCall) : session.lastCallTokens;
  history.splice(0, start, ...compactedHistory(history.slice(0, start), summary.text));
  if (summary.usage) session.usage = addUsage(session.usage, summary.usage);
  session.compactionCount += 1;
  context.usage.reset();
  context.emitter.compactBoundary('auto', preTokens);
  return true;
}

/** What one turn counts as it runs: usage, the errors it retried past, API time and model calls. */
interface TurnAccount {
  usage: TurnUsage;
  retriedErrors: string[];
  stats: { apiMs: number; modelCalls: number };
}

type ResultBase = Pick<
  Parameters<Emitter['result']>[0],
  'durationMs' | 'durationApiMs' | 'numTurns' | 'usage' | 'totalCostUsd'
>;

/** The turn's ending (R4–R6): a success result, or interrupt / system error / error, then an error result. */
function printEnding(
  emitter: Emitter,
  outcome: LoopOutcome,
  { base, retriedErrors }: { base: ResultBase; retriedErrors: string[] },
): void {
  switch (outcome.kind) {
    case 'success':
      emitter.result({ ...base, isError: false, subtype: 'success', text: outcome.text, errors: retriedErrors });
      break;
    case 'interrupted':
      emitter.interrupt();
      emitter.result({
        ...base,
        isError: true,
        subtype: 'cancelled',
        text: 'Interrupted by the user.',
        errors: retriedErrors,
      });
      break;
    case 'max_turns': {
      const message = `Stopped after ${outcome.limit} model calls without a final answer (max turns reached).`;
      emitter.result({
        ...base,
        isError: true,
        subtype: 'error_max_turns',
        text: message,
        errors: [...retriedErrors, message],
      });
      break;
    }
    case 'error': {
      const { error } = outcome;
      if (error.kind === 'auth' || error.kind === 'config') emitter.systemError(error.message);
      else
        emitter.error(
          error.message,
          error.details.code ?? (error.details.status ? String(error.details.status) : undefined),
        );
      emitter.result({
        ...base,
        isError: true,
        subtype: 'error_during_execution',
        text: error.message,
        errors: [...retriedErrors, error.message],
      });
      break;
    }
  }
}
