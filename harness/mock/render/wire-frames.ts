// Building blocks shared by the four renderers: SSE frames and deterministic splitting of strings.

/** One unit the renderer produced; the server writes frames (or re-chunked slices of them) to the socket. */
export interface WireFrame {
  bytes: string;
  /** Carries the response's first text delta: gates, stalls and in-stream faults act right after it. */
  firstText?: boolean;
  /** Must reach the client as a chunk of its own (Gemini's bare in-stream error object). */
  atomic?: boolean;
}

/** `event: <type>` + `data: <json>` frame (Anthropic, Responses). */
export function namedEvent(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Data-only frame (Chat Completions, Gemini). */
export function dataEvent(data: unknown): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/**
 * Splits `value` into `pieces` parts at code-point boundaries (never inside a surrogate pair), so a client
 * concatenating them gets `value` back. Used for tool arguments, which providers stream in fragments.
 */
export function splitIntoPieces(value: string, pieces: number): string[] {
  const points = Array.from(value);
  if (points.length === 0) return [''];
  const count = Math.max(1, Math.min(pieces, points.length));
  const out: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const start = Math.floor((i * points.length) / count);
    const end = Math.floor(((i + 1) * points.length) / count);
    out.push(points.slice(start, end).join(''));
  }
  return out;
}

/** The JSON text a tool call's arguments travel as: raw (possibly invalid) text, or the serialised input. */
export function argumentsText(call: { input?: Record<string, unknown>; rawArguments?: string }): string {
  return call.rawArguments ?? JSON.stringify(call.input ?? {});
}

/** A fixed creation time (seconds) so that rendered bytes do not depend on the clock. */
export const MOCK_CREATED_AT = 1761000000;
