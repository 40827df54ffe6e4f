// Watches a shim's stdout while it runs: splits the raw chunks into lines (0x0A only, R9), maps each
// complete line to canonical events as it arrives, and lets the runner wait for moments that matter — the
// first assistant text (the streaming gate, the interrupt), a tool call, the N-th result.
import { type CanonicalEvent, messageToCanonicalEvents } from '../../protocol/canonical.js';

export interface TimedEvent {
  event: CanonicalEvent;
  /** Arrival of the line, ms since the process started. */
  atMs: number;
}

type Waiter = { predicate: (event: CanonicalEvent) => boolean; resolve: (found: TimedEvent | undefined) => void };

export class LiveStdout {
  private pending: Buffer[] = [];
  private line = 0;
  readonly events: TimedEvent[] = [];
  private waiters: Waiter[] = [];
  private listeners: ((timed: TimedEvent) => void)[] = [];
  private closed = false;

  /** Calls `listener` with every event from now on, as it arrives. */
  onEvent(listener: (timed: TimedEvent) => void): void {
    this.listeners.push(listener);
  }

  /** Feed one stdout chunk (as spawnShim's onStdout delivers it). */
  push(chunk: Buffer, atMs: number): void {
    let start = 0;
    for (let index = chunk.indexOf(0x0a); index !== -1; index = chunk.indexOf(0x0a, start)) {
      if (this.pending.length === 0) {
        // Only object lines carry events: others are counted without even a view of their bytes.
        if (chunk[start] === 0x7b) this.completeLine(chunk.subarray(start, index), atMs);
        else this.line += 1;
      } else {
        this.pending.push(chunk.subarray(start, index));
        this.completeLine(Buffer.concat(this.pending), atMs);
        this.pending = [];
      }
      start = index + 1;
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
  }

  /** The process ended: pending waiters get undefined. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters) waiter.resolve(undefined);
    this.waiters = [];
  }

  /** Resolves with the first event (past or future) matching `predicate`, or undefined when stdout ends. */
  waitFor(predicate: (event: CanonicalEvent) => boolean, fromIndex = 0): Promise<TimedEvent | undefined> {
    const found = this.events.slice(fromIndex).find((timed) => predicate(timed.event));
    if (found || this.closed) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ predicate, resolve }));
  }

  count(kind: CanonicalEvent['kind']): number {
    return this.events.filter((timed) => timed.event.kind === kind).length;
  }

  private completeLine(bytes: Buffer, atMs: number): void {
    this.line += 1;
    const line = this.line;
    // Only an object line carries events: anything else is skipped without a parse (a flood of junk lines
    // would otherwise cost an exception each). The validator judges every line afterwards.
    let last = bytes.length - 1;
    while (last > 0 && (bytes[last] === 0x20 || bytes[last] === 0x0d || bytes[last] === 0x09)) last -= 1;
    if (bytes[0] !== 0x7b || bytes[last] !== 0x7d) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      return; // the validator judges broken lines; here they carry no event
    }
    messageToCanonicalEvents(parsed, line, (event) => {
      const timed = { event, atMs };
      this.events.push(timed);
      for (const listener of this.listeners) listener(timed);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.predicate(event)) return true;
        waiter.resolve(timed);
        return false;
      });
    });
  }
}

/**
 * A line carrying assistant text: a flat `text`, an envelope with a text block, or a `stream_event` text delta
 * (claude's `--include-partial-messages`). The delta counts only in the Claude dialect: check-run.ts reports a
 * flat stream whose text came first as deltas (see isStreamEventText).
 */
export const isAssistantText = (event: CanonicalEvent): boolean =>
  (event.kind === 'text' && event.text.length > 0) || isStreamEventText(event);

/** A `stream_event` text delta. */
export const isStreamEventText = (event: CanonicalEvent): boolean =>
  event.kind === 'other' && event.type === 'stream_event' && (event.text ?? '').length > 0;
