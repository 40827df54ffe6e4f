// The interrupt and kill triggers on a watched turn, without a shim: a fake mock (its events), a fake process
// (what the triggers call on it) and a real LiveStdout. Every deadline counts the shim's own time through a
// CPU-wait clock that never waited, so the verdicts do not hang on this machine's load.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockServer } from '../../../harness/mock/mock-server.js';
import type { Turn } from '../../../harness/mock/scenario/scenario-types.js';
import type { ShimProcess } from '../../../harness/process/shim-process.js';
import { TimerScope } from '../../../harness/process/timer-scope.js';
import type { ExitClock } from '../../../harness/runner/execution/exit-clock.js';
import { interruptWhenDue } from '../../../harness/runner/execution/interrupt-trigger.js';
import { killWhenDue } from '../../../harness/runner/execution/kill-trigger.js';
import { LiveStdout } from '../../../harness/runner/execution/live-stdout.js';
import type { InterruptContext, WatchedTurn } from '../../../harness/runner/execution/moment-watch.js';
import { GATE_WAIT_MS } from '../../../harness/runner/execution/streaming-gate.js';

afterEach(() => {
  vi.useRealTimers();
});

const line = (message: unknown) => Buffer.from(`${JSON.stringify(message)}\n`);
const assistantText = line({
  type: 'assistant',
  message: { role: 'assistant', content: [{ type: 'text', text: 'Hi' }] },
});
const result = line({ type: 'result', subtype: 'success', is_error: false, session_id: 's' });

function setUp(moment: { interrupt?: Turn['interrupt']; kill?: Turn['kill'] }) {
  const events = new EventEmitter();
  const notes: string[] = [];
  const timers = new TimerScope();
  const context: InterruptContext = {
    mock: { events, requests: () => [] } as unknown as MockServer,
    timers,
    platform: 'linux',
    timeoutMs: 60_000,
    note: (_source, text) => notes.push(text),
  };
  const written: string[] = [];
  const signals: string[] = [];
  const shim = {
    cpuWait: () => 0,
    elapsedMs: () => 1500,
    write: (text: string) => written.push(text) > 0,
    signalGroup: (signal: string) => signals.push(signal) > 0,
    watchExit: vi.fn(),
    descendants: () => [],
  } as unknown as ShimProcess;
  const live = new LiveStdout();
  const turn = { prompt: 'p', responses: [], ...moment } as unknown as Turn;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const watched: WatchedTurn = { shim, live, fromIndex: 0, turnIndex: 1, turn, finished };
  return { events, notes, timers, context, written, signals, shim, live, watched, finish };
}

describe('interruptWhenDue', () => {
  it("writes the interrupt frame once the shim printed the stalled stream's first text, and records why", async () => {
    const run = setUp({ interrupt: 'after-first-text' });
    const sent = interruptWhenDue(run.context, run.watched, { method: 'interrupt-frame' });
    run.live.push(assistantText, 700);
    const record = await sent;
    expect(record).toMatchObject({ turn: 1, atMs: 1500, method: 'interrupt-frame', delivered: true });
    expect(record?.trigger).toBe('first-text');
    expect(record?.cause).toBe("the shim printed the stalled stream's first text (line 1)");
    expect(record?.missed).toBeUndefined();
    expect(run.written).toEqual(['{"type":"interrupt"}\n']);
    expect(run.notes.at(-1)).toMatch(/^interrupt \(interrupt frame on stdin\) at 1\.50 s: the shim printed/);
    run.timers.close();
  });

  it("sends SIGINT after the gate's wait of the shim's own time, and starts the exit clock", async () => {
    vi.useFakeTimers();
    const run = setUp({ interrupt: 'after-first-text' });
    const clock = { start: vi.fn() } as unknown as ExitClock;
    let record: Awaited<ReturnType<typeof interruptWhenDue>>;
    void interruptWhenDue(run.context, run.watched, { method: 'sigint-group', clock }).then((sent) => {
      record = sent;
    });
    run.events.emit('first-text-sent', { turn: 0 }); // another turn's first text starts nothing
    run.events.emit('first-text-sent', { turn: 1 });
    await vi.advanceTimersByTimeAsync(GATE_WAIT_MS - 50);
    expect(run.signals).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(record!).toMatchObject({ trigger: 'gate-timeout', method: 'sigint-group', delivered: true });
    expect(record!.cause).toBe('no text on stdout 3.00 s after the mock streamed its first text chunk');
    expect(run.signals).toEqual(['SIGINT']);
    expect(run.shim.watchExit).toHaveBeenCalledOnce();
    expect(clock.start).toHaveBeenCalledWith('interrupt');
    run.timers.close();
  });

  it('sends nothing when the turn ended on its own before the moment', async () => {
    const run = setUp({ interrupt: 'after-first-text' });
    const sent = interruptWhenDue(run.context, run.watched, { method: 'interrupt-frame' });
    run.live.push(Buffer.concat([assistantText, result]), 700);
    expect(await sent).toBeUndefined();
    expect(run.written).toEqual([]);
    expect(run.notes).toEqual(['turn 2 ended before the interrupt was due']);
    run.timers.close();
  });
});

describe('killWhenDue', () => {
  it("kills at the mock's first text chunk once the shim printed it, and says so", async () => {
    const run = setUp({ kill: 'after-first-text' });
    const killing = killWhenDue(run.context, run.watched);
    run.events.emit('first-text-sent', { turn: 1 });
    run.live.push(assistantText, 700);
    const record = await killing;
    // No pid to kill in this fake: the record says the kill was not delivered.
    expect(record).toEqual({
      turn: 1,
      atMs: 1500,
      delivered: false,
      cause: 'the mock sent the first text chunk and the shim printed it (line 1)',
    });
    expect(run.events.listenerCount('first-text-sent')).toBe(0);
    run.timers.close();
  });

  it('kills nothing when the turn ended before its moment', async () => {
    const run = setUp({ kill: 'after-first-text' });
    const killing = killWhenDue(run.context, run.watched);
    run.live.push(result, 700);
    run.finish();
    expect(await killing).toBeUndefined();
    expect(run.notes).toEqual(['turn 2 ended before the kill was due']);
    run.timers.close();
  });
});
