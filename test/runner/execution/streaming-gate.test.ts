import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockServer } from '../../../harness/mock/mock-server.js';
import type { ShimProcess } from '../../../harness/process/shim-process.js';
import { TimerScope } from '../../../harness/process/timer-scope.js';
import { LiveStdout } from '../../../harness/runner/execution/live-stdout.js';
import { GATE_WAIT_MS, watchGate } from '../../../harness/runner/execution/streaming-gate.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A mock with only what the gate uses: its events and a counted openGate. */
function gateMock() {
  const events = new EventEmitter();
  const opened = { count: 0 };
  const mock = { events, openGate: () => (opened.count += 1) } as unknown as MockServer;
  return { mock, events, opened };
}

function watch(turn = 0) {
  const { mock, events, opened } = gateMock();
  const timers = new TimerScope();
  const live = new LiveStdout();
  const timeouts: boolean[] = [];
  const open = watchGate(
    { mock, note: () => undefined, timers },
    {
      // A measured machine whose shim never waited for a CPU: the verdict cannot hang on the load average.
      shim: { cpuWait: () => 0 } as unknown as ShimProcess,
      live,
      fromIndex: 0,
      turnIndex: turn,
    },
    (undecided) => timeouts.push(undecided),
  );
  return { events, opened, live, timeouts, open, timers };
}

const assistantText = Buffer.from(
  `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Hi' }] } })}\n`,
);

describe('watchGate', () => {
  it("opens the mock's gate once, on the shim's first assistant text", async () => {
    const gate = watch();
    gate.events.emit('first-text-sent', { turn: 0 });
    expect(gate.opened.count).toBe(0);
    gate.live.push(assistantText, 10);
    await vi.waitFor(() => expect(gate.opened.count).toBe(1));
    gate.open();
    expect(gate.opened.count).toBe(1);
    expect(gate.timeouts).toEqual([]);
    gate.timers.close();
  });

  it('opens it as a timeout after the gate wait when no text comes, decided on an idle machine', async () => {
    vi.useFakeTimers();
    const gate = watch();
    gate.events.emit('first-text-sent', { turn: 0 });
    await vi.advanceTimersByTimeAsync(GATE_WAIT_MS - 50);
    expect(gate.opened.count).toBe(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(gate.timeouts).toEqual([false]);
    expect(gate.opened.count).toBe(1);
    gate.timers.close();
  });

  it("starts no wait for another turn's first text", async () => {
    vi.useFakeTimers();
    const gate = watch(1);
    gate.events.emit('first-text-sent', { turn: 0 });
    await vi.advanceTimersByTimeAsync(GATE_WAIT_MS * 2);
    expect(gate.timeouts).toEqual([]);
    expect(gate.opened.count).toBe(0);
    gate.timers.close();
  });

  it('stops listening once opened by hand', async () => {
    vi.useFakeTimers();
    const gate = watch();
    gate.open();
    gate.events.emit('first-text-sent', { turn: 0 });
    await vi.advanceTimersByTimeAsync(GATE_WAIT_MS * 2);
    expect(gate.opened.count).toBe(1);
    expect(gate.timeouts).toEqual([]);
    expect(gate.events.listenerCount('first-text-sent')).toBe(0);
    gate.timers.close();
  });
});
