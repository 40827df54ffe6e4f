/*
 * Provider interface of the reference shim.
 *
 * A provider comes in one of two kinds; the turn runner (agent/turn-runner.ts) handles both and owns
 * everything R2–R6 require of a turn (init once, one result per turn, errors, interrupt, usage, sessions):
 *
 * 1. ModelProvider (`kind: 'model'`, Type A): a stateless model API. `stream()` sends the whole history and
 *    the tool declarations, and yields ModelStreamEvents: `text` / `thinking` deltas as they arrive (printed
 *    at once), then exactly one `done` carrying the assembled message (full text, thinking with signatures,
 *    complete tool calls, usage, stop reason). It throws ProviderError on any failure; the agent loop
 *    (agent/loop.ts) retries retryable ones (R5), runs the tools, and calls `stream()` again.
 *
 * 2. TurnProvider (`kind: 'turn'`, Type B): something that runs a whole turn itself, such as an official CLI
 *    (reference-shim/providers/cli/). `runTurn()` reports what happens through the TurnSink (text, thinking,
 *    tool uses and their results, usage per provider call) and resolves with a TurnOutcome; it must stop
 *    promptly and kill its children when `request.signal` aborts. The sink keeps R3's pairing: a tool_use is
 *    held back until its result arrives, and unanswered ones get an error result when the turn ends.
 *    Failures are reported by resolving `{ ok: false, error }` (or throwing a ProviderError).
 *
 * Both kinds are created by providers/registry.ts from the `--provider` flag.
 */

import { YumeError, type YumeErrorOptions } from '../../common/errors.js';
import type { HistoryEntry, ThinkingRecord, TokenUsage } from '../session/history.js';
import type { InterruptSignal } from '../tools/interrupt.js';
import type { ToolSpec } from '../tools/types.js';

export interface ModelRequest {
  model: string;
  system: string;
  history: readonly HistoryEntry[];
  tools: readonly ToolSpec[];
  signal: InterruptSignal;
}

/** A tool call as the provider produced it, fragments already joined. */
export interface ModelToolCall {
  /** The provider's id, printed as is when unique (OpenAI, Anthropic). Absent: the loop makes one. */
  id?: string;
  /** An id to send back that must not be printed (Gemini's optional functionCall.id). */
  wireId?: string;
  name: string;
  /** Raw JSON text of the arguments (OpenAI, Anthropic); may be invalid JSON (R3). */
  argumentsText?: string;
  /** Already-parsed arguments (Gemini sends an object). */
  input?: Record<string, unknown>;
  /** Gemini thoughtSignature of the part, replayed in the next request. */
  signature?: string;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'other';

export interface AssembledMessage {
  text: string;
  textSignature?: string;
  thinking: ThinkingRecord[];
  toolCalls: ModelToolCall[];
  /** undefined when the provider did not report usage (the turn then estimates it, R4). */
  usage?: TokenUsage;
  stopReason: StopReason;
}

export type ModelStreamEvent =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'done'; message: AssembledMessage };

export interface ModelProvider {
  readonly kind: 'model';
  /** The --provider flag value this instance serves (also the session directory name). */
  readonly id: string;
  /** Prefix for ids the loop generates when the provider gives none (`call_gemini_` → call_gemini_1). */
  readonly generatedIdPrefix: string;
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

export interface TurnRequest {
  prompt: string;
  /** Everything before this prompt (from the session file or --history-file). */
  history: readonly HistoryEntry[];
  sessionId: string;
  model: string;
  cwd: string;
  permissionMode: string;
  /** Whatever the provider returned as `state` last turn (e.g. a CLI's own thread id). */
  state?: unknown;
  signal: InterruptSignal;
}

export interface TurnSink {
  text(delta: string): void;
  thinking(delta: string): void;
  /** Returns the id printed for the call (the given id, made unique in the session when needed). */
  toolUse(call: { id?: string; name: string; input: Record<string, unknown> }): string;
  toolResult(result: { toolUseId: string; content: string; isError: boolean }): void;
  /** Usage of one provider call; summed into result.usage. */
  usage(usage: TokenUsage): void;
  /** A retried failure (listed in result.errors, R5). */
  retried(message: string): void;
  /**
   * The provider compacted the session itself (docs/protocol.md#r21-compaction): claude on a context overflow. The
   * boundary is printed; the usage reported from here on is the turn's.
   */
  compacted(compaction: ProviderCompaction): void;
}

/** A compaction a provider made: its trigger, the size it measured before, and the summary it kept. */
export interface ProviderCompaction {
  trigger: 'manual' | 'auto';
  preTokens: number;
  summary?: string;
}

/**
 * A `/compact` for a provider that runs whole turns (docs/protocol.md#r21-compaction). `command` is the user's prompt
 * (`/compact <hints>`), `instruction` the summary request the shim would send a model: a provider whose own command
 * compacts passes the first on, any other asks for the second.
 */
export interface CompactRequest extends Omit<TurnRequest, 'prompt'> {
  command: string;
  instruction: string;
}

/**
 * A compaction's outcome. `preTokens`: the size the provider measured before it, when it knows it; `usage`: what
 * the summary cost (counted in the session, never in the 0/0 result); `state`: the provider's state for the next
 * turn (a CLI that continues from the summary in a new session of its own).
 */
export type CompactOutcome =
  | { ok: true; summary: string; preTokens?: number; usage?: TokenUsage; state?: unknown }
  | { ok: false; error: ProviderError; state?: unknown };

export type TurnOutcome =
  | { ok: true; assistantText: string; state?: unknown }
  | { ok: false; error: ProviderError; state?: unknown };

export interface TurnProvider {
  readonly kind: 'turn';
  readonly id: string;
  /** Tool names the provider may report (listed in system.tools). */
  readonly tools: readonly string[];
  runTurn(request: TurnRequest, sink: TurnSink): Promise<TurnOutcome>;
  /** Compacts the session (`/compact`); a provider without it cannot compact. */
  compact?(request: CompactRequest): Promise<CompactOutcome>;
}

export type Provider = ModelProvider | TurnProvider;

/**
 * What went wrong, classified by what R5 requires the shim to print:
 *   auth       → system subtype:error, error result, no retry (401/403, missing credentials)
 *   retryable  → bounded retries honouring retryAfterMs (429/500/503...), then `error` + error result
 *   request    → `error` + error result (400/404, refused request); a request over the model's context window
 *                (`details.contextOverflow`) is compacted and retried once first (docs/protocol.md#r21-compaction)
 *   stream     → `error` + error result (malformed chunk, stream cut, in-stream error)
 *   config     → system subtype:error + error result (unsupported provider, missing binary)
 *   aborted    → the turn was interrupted (R6); not an error of the provider
 */
export type ProviderErrorKind = 'auth' | 'retryable' | 'request' | 'stream' | 'config' | 'aborted';

/** `code` is PROVIDER_<KIND> (PROVIDER_AUTH, PROVIDER_RETRYABLE...); `details.code` is the provider's own. */
export class ProviderError extends YumeError {
  override name = 'ProviderError';
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly details: { status?: number; retryAfterMs?: number; code?: string; contextOverflow?: boolean } = {},
    options?: YumeErrorOptions,
  ) {
    super(`PROVIDER_${kind.toUpperCase()}`, message, options);
  }
}
