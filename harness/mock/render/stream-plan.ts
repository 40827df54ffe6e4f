// Turns rendered frames plus the script's fault/stall into the steps the server performs on the socket.
import type { MockProviderId, ModelResponse } from '../scenario/scenario-types.js';
import { anthropicStreamError } from './render-anthropic.js';
import { geminiStreamError } from './render-gemini.js';
import { openAIChatStreamError } from './render-openai-chat.js';
import { openAIResponsesStreamError } from './render-openai-responses.js';
import type { WireFrame } from './wire-frames.js';

export type PlanStep =
  | { kind: 'bytes'; bytes: string; atomic?: boolean }
  /** The first text delta has been written: emit 'first-text-sent'; a gate waits here. */
  | { kind: 'first-text' }
  /** Hold the stream open until the client disconnects (or the server closes). */
  | { kind: 'stall' }
  /** Reset the connection (after a partial event). */
  | { kind: 'cut' };

export interface StreamPlan {
  steps: PlanStep[];
  /** Pause between writes (slow drip). */
  gapMs: number;
}

/** The position after which in-stream faults and stalls act: the first text frame, else early in the stream. */
function faultPoint(frames: WireFrame[]): number {
  const first = frames.findIndex((frame) => frame.firstText);
  return first >= 0 ? first : Math.min(frames.length - 1, Math.max(0, Math.floor(frames.length / 2) - 1));
}

/** The same frame with the JSON of its data line cut in half: a chunk no JSON parser accepts. */
export function malformFrame(frame: WireFrame): WireFrame {
  const match = /^data: (.*)$/m.exec(frame.bytes);
  if (!match || match.index === undefined) {
    const body = frame.bytes;
    return { bytes: body.slice(0, Math.max(1, Math.floor(body.length / 2))) };
  }
  const json = match[1] ?? '';
  const broken = json.slice(0, Math.max(1, Math.floor(json.length / 2)));
  return {
    bytes: `${frame.bytes.slice(0, match.index)}data: ${broken}${frame.bytes.slice(match.index + match[0].length)}`,
  };
}

function streamError(provider: MockProviderId, frames: WireFrame[], upTo: number): WireFrame {
  switch (provider) {
    case 'openai-chat':
      return openAIChatStreamError();
    case 'openai-responses':
      return openAIResponsesStreamError(upTo + 1);
    case 'gemini':
      return geminiStreamError();
    case 'anthropic':
      void frames;
      return anthropicStreamError();
  }
}

export function buildStreamPlan(provider: MockProviderId, frames: WireFrame[], response: ModelResponse): StreamPlan {
  const fault = response.fault;
  const point = faultPoint(frames);
  const steps: PlanStep[] = [];
  const push = (frame: WireFrame): void => {
    steps.push({ kind: 'bytes', bytes: frame.bytes, atomic: frame.atomic });
    if (frame.firstText) steps.push({ kind: 'first-text' });
  };
  const head = frames.slice(0, point + 1);
  const tail = frames.slice(point + 1);

  if (response.stall) {
    head.forEach(push);
    steps.push({ kind: 'stall' });
  } else if (fault?.kind === 'cut') {
    head.forEach(push);
    const next = tail[0] ?? frames[frames.length - 1]!;
    steps.push({ kind: 'bytes', bytes: next.bytes.slice(0, Math.max(1, Math.floor(next.bytes.length / 2))) });
    steps.push({ kind: 'cut' });
  } else if (fault?.kind === 'malformed') {
    head.forEach(push);
    push(malformFrame(tail[0] ?? frames[point]!));
    tail.forEach(push);
  } else if (fault?.kind === 'mid-stream-error') {
    head.forEach(push);
    push(streamError(provider, frames, point));
  } else {
    frames.forEach(push);
  }
  return { steps, gapMs: fault?.kind === 'drip' ? fault.gapMs : 0 };
}
