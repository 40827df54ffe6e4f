// The mock provider's public shapes: how it is started, what it records of each request, and its handle.
import type { EventEmitter } from 'node:events';
import type { AcceptedCredentials } from './credentials.js';
import type { MockProviderId, ModelResponse, Scenario } from './scenario/scenario-types.js';

export interface MockServerOptions {
  scenario: Scenario;
  /** The provider under test (what checks and `serve` focus on). Every provider's endpoints are served. */
  provider?: MockProviderId;
  /** Re-chunk every stream at offsets drawn from this seed (deterministic). */
  seed?: number;
  /** Overrides the split: 'every-offset' writes one byte at a time (opt-in, slow). Default: seeded when `seed` is set. */
  chunking?: 'frames' | 'seeded' | 'every-offset';
  /** Withhold the rest of each stream after its first text chunk until openGate(). */
  gate?: boolean;
  /** 0 (default) = a random free port. */
  port?: number;
  /** When a turn's responses are used up, move on to the next turn by itself (for `serve`). */
  autoAdvance?: boolean;
  acceptedCredentials?: Partial<AcceptedCredentials>;
  /** Safety bound for a stalled stream that nobody closes (default 120 s). */
  stallTimeoutMs?: number;
  /** Largest request body accepted (default DEFAULT_MAX_BODY_BYTES); a larger one is answered 413 unread. */
  maxBodyBytes?: number;
  /**
   * Answer with the tools the request declares when it lacks the scripted app names: given by whoever knows
   * those tools (official-cli/map-tools.ts for the official CLIs). Without it an undeclared tool gets a 400.
   */
  mapTools?: ToolMapper;
}

/** Renames a response's scripted tool calls to tools the request declares (the rest unchanged). */
export type ToolMapper = (
  provider: MockProviderId,
  response: ModelResponse,
  declared: readonly string[],
) => ModelResponse;

/** Default request body limit: far above any real conversation, far below what would exhaust the runner. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

export type RequestOutcome =
  | 'stream' // a scripted streaming answer
  | 'json' // a scripted non-streaming answer
  | 'http-fault' // a scripted HTTP error
  | 'auth-rejected' // credentials missing or wrong
  | 'tools-not-declared' // D1: a tool the script calls is not declared
  | 'unscripted' // more requests than the script answers
  | 'no-route' // not an endpoint of any mocked API
  | 'bad-body' // body is not JSON
  | 'body-too-large'; // body over maxBodyBytes: answered 413, not read

export interface RecordedRequest {
  /** 0-based arrival order within this server. */
  index: number;
  provider: MockProviderId | undefined;
  method: string;
  path: string;
  /** Raw query string including '?', or ''. */
  query: string;
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when absent or not JSON; see rawBody). */
  body: unknown;
  rawBody: string;
  /** 0-based turn the request was answered in. */
  turn: number;
  /** Which scripted response of the turn answered it, and how often that response had been served before. */
  responseIndex?: number;
  attempt?: number;
  /** Arrival: epoch ms, and ms since the server started. */
  time: number;
  elapsedMs: number;
  outcome: RequestOutcome;
  status: number;
  missingTools?: string[];
  /** The client closed the connection before the response was complete. */
  closedByClient: boolean;
  closedAtMs?: number;
  /** The response was written completely (false for cuts, stalls and client aborts). */
  completed: boolean;
}

/** The payload of 'first-text-sent': a stream of `turn` wrote its first text chunk. */
export interface FirstTextSent {
  /** The request's index in the recording. */
  index: number;
  turn: number;
  /** The stream is a compaction summary: the gate does not wait for it, an interrupt fires on it at once. */
  summary: boolean;
}

export interface MockServer {
  url: string;
  baseUrls: { openai: string; anthropic: string; gemini: string };
  port: number;
  setTurn(index: number): void;
  currentTurn(): number;
  openGate(): void;
  requests(): RecordedRequest[];
  /**
   * 'request' (RecordedRequest), 'first-text-sent' (FirstTextSent), 'client-closed' (RecordedRequest),
   * 'response-end' (RecordedRequest); and the answer as sent: 'response-head' (RecordedRequest, { status,
   * headers }), then 'response-data' (RecordedRequest, the bytes of one write).
   */
  events: EventEmitter;
  close(): Promise<void>;
}
