// What one mock server's parts share: its options, the script being played, what it recorded, and the waits
// close() and openGate() release. One object, made once per server, so the request path, the stream writer
// and the server's handle read and release the same waits.
import { EventEmitter } from 'node:events';
import { type AcceptedCredentials, defaultAcceptedCredentials } from '../credentials.js';
import type { MockServerOptions, RecordedRequest } from '../mock-types.js';
import type { ChunkMode } from '../render/rechunk.js';
import { ResponseScript } from '../scenario/response-script.js';

export interface MockState {
  readonly options: MockServerOptions;
  readonly credentials: AcceptedCredentials;
  readonly chunkMode: ChunkMode;
  readonly stallTimeoutMs: number;
  readonly events: EventEmitter;
  readonly recorded: RecordedRequest[];
  /** performance.now() when the server started: requests record their arrival relative to it. */
  readonly startedAt: number;
  readonly script: ResponseScript;
  /** The gate of the current turn: open, or the streams withheld after their first text. */
  gateOpen: boolean;
  gateWaiters: (() => void)[];
  /** Every wait that close() must end: stalls and gates. */
  readonly stopWaiters: Set<() => void>;
  /** close() was called: connections it ends are not the client's doing. */
  closing: boolean;
}

export function createMockState(options: MockServerOptions): MockState {
  const events = new EventEmitter();
  events.setMaxListeners(100);
  return {
    options,
    credentials: { ...defaultAcceptedCredentials(), ...options.acceptedCredentials },
    chunkMode: chunkModeOf(options),
    stallTimeoutMs: options.stallTimeoutMs ?? 120_000,
    events,
    recorded: [],
    startedAt: performance.now(),
    script: new ResponseScript(options.scenario, options.autoAdvance === true),
    gateOpen: false,
    gateWaiters: [],
    stopWaiters: new Set(),
    closing: false,
  };
}

function chunkModeOf(options: MockServerOptions): ChunkMode {
  if (options.chunking === 'every-offset') return { kind: 'every-offset' };
  if (options.chunking === 'frames' || options.seed === undefined) return { kind: 'frames' };
  return { kind: 'seeded', seed: options.seed };
}

/** Ms since the server started, rounded: what a recorded request's times are measured in. */
export function elapsedMs(state: MockState): number {
  return Math.round(performance.now() - state.startedAt);
}
