// A scripted answer as an HTTP body written chunk by chunk: the plan's bytes (re-chunked as the server's chunk
// mode says), its first-text gate, a stall held until close() or the client leaves, a cut that resets the
// connection. Every wait ends when the client goes away, so an abandoned stream leaves no timer behind.
import { HttpResponse } from 'msw';
import type { FirstTextSent, RecordedRequest } from '../mock-types.js';
import { responseSeed, seededRandom, splitAtRandomOffsets } from '../render/rechunk.js';
import { buildStreamPlan, type PlanStep } from '../render/stream-plan.js';
import type { WireFrame } from '../render/wire-frames.js';
import type { MockProviderId, ModelResponse } from '../scenario/scenario-types.js';
import type { MockState } from './mock-state.js';

export interface StreamReply {
  frames: WireFrame[];
  response: ModelResponse;
  provider: MockProviderId;
  contentType: string;
}

/** What one stream's writer works with: where it writes, and the signal that the client went away. */
interface StreamWriter {
  state: MockState;
  entry: RecordedRequest;
  abort: AbortController;
  controller: ReadableStreamDefaultController<Uint8Array>;
  /** The pause between two writes (ms; 0 = the next turn of the event loop). */
  gapMs: number;
  random: (() => number) | undefined;
  first: boolean;
  /** A compaction summary: a shim prints no assistant text for it, so the gate never withholds it. */
  summary: boolean;
}

export function streamResponse(state: MockState, entry: RecordedRequest, reply: StreamReply): Response {
  const plan = buildStreamPlan(reply.provider, reply.frames, reply.response);
  const abort = new AbortController();
  const key = `${entry.turn}.${entry.responseIndex}.${entry.attempt}`;
  const { chunkMode } = state;
  const random = chunkMode.kind === 'seeded' ? seededRandom(responseSeed(chunkMode.seed, key)) : undefined;
  const body = new ReadableStream<Uint8Array>({
    start: async (controller) => {
      const summary = reply.response.summary === true;
      const writer: StreamWriter = { state, entry, abort, controller, gapMs: plan.gapMs, random, first: true, summary };
      try {
        await playSteps(writer, plan.steps as PlanStep[]);
      } catch (error) {
        if (!abort.signal.aborted) controller.error(error);
      }
    },
    cancel: () => abort.abort(),
  });
  return new HttpResponse(body, {
    status: 200,
    headers: { 'content-type': reply.contentType, 'cache-control': 'no-cache', connection: 'keep-alive' },
  });
}

async function playSteps(writer: StreamWriter, steps: PlanStep[]): Promise<void> {
  const { abort, controller, entry, state } = writer;
  const encoder = new TextEncoder();
  // Consecutive byte steps form one segment, re-chunked as a whole (several events per chunk).
  const pending: string[] = [];
  for (const step of steps) {
    if (abort.signal.aborted) return;
    if (step.kind === 'bytes' && !step.atomic) {
      pending.push(step.bytes);
      continue;
    }
    await flush(writer, pending);
    if (step.kind === 'bytes') {
      await wait(abort, 15); // an atomic chunk must not merge with the previous one
      await write(writer, encoder.encode(step.bytes));
      await wait(abort, 15);
    } else if (step.kind === 'first-text') {
      const sent: FirstTextSent = { index: entry.index, turn: entry.turn, summary: writer.summary };
      state.events.emit('first-text-sent', sent);
      if (state.options.gate && !state.gateOpen && !writer.summary) await untilGateOpens(state, abort);
    } else if (step.kind === 'stall') {
      await untilStopped(state, abort, state.stallTimeoutMs);
      if (!abort.signal.aborted) controller.close();
      return;
    } else if (step.kind === 'cut') {
      await new Promise<void>((resolve) => setTimeout(resolve, 5));
      controller.error(new Error('yume-conformance mock: stream cut mid-event'));
      return;
    }
  }
  await flush(writer, pending);
  if (!abort.signal.aborted) {
    entry.completed = true;
    controller.close();
  }
}

async function write(writer: StreamWriter, chunk: Uint8Array): Promise<void> {
  const { abort } = writer;
  if (abort.signal.aborted) return;
  // A pause between writes lets each chunk leave as its own TCP segment (split points are the test).
  if (!writer.first)
    await (writer.gapMs > 0 ? wait(abort, writer.gapMs) : new Promise<void>((resolve) => setImmediate(resolve)));
  writer.first = false;
  if (!abort.signal.aborted) writer.controller.enqueue(chunk);
}

async function flush(writer: StreamWriter, pending: string[]): Promise<void> {
  if (pending.length === 0) return;
  const { chunkMode } = writer.state;
  const encoder = new TextEncoder();
  if (chunkMode.kind === 'frames') {
    for (const piece of pending) await write(writer, encoder.encode(piece));
  } else {
    const bytes = encoder.encode(pending.join(''));
    const chunks =
      chunkMode.kind === 'every-offset'
        ? Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1))
        : splitAtRandomOffsets(bytes, writer.random!);
    for (const chunk of chunks) await write(writer, chunk);
  }
  pending.length = 0;
}

function wait(abort: AbortController, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (abort.signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      abort.signal.removeEventListener('abort', done);
      resolve();
    }
    abort.signal.addEventListener('abort', done, { once: true });
  });
}

// Released by close(), the client going away or the timeout; whichever comes first clears the others, so
// a stall released by close() leaves no timer behind to hold the runner's process open.
function untilStopped(state: MockState, abort: AbortController, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(finish, timeoutMs);
    function finish(): void {
      clearTimeout(timer);
      state.stopWaiters.delete(finish);
      abort.signal.removeEventListener('abort', finish);
      resolve();
    }
    if (abort.signal.aborted) return finish();
    state.stopWaiters.add(finish);
    abort.signal.addEventListener('abort', finish, { once: true });
  });
}

/** Released by openGate(), by close(), or by the client going away meanwhile. */
function untilGateOpens(state: MockState, abort: AbortController): Promise<void> {
  return new Promise<void>((resolve) => {
    state.gateWaiters.push(resolve);
    state.stopWaiters.add(resolve);
    abort.signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
