// The exit watcher (exit-watcher.ts) times a process's exit on a worker thread, so a stall of the runner's own
// thread does not move it: here the test's thread (the runner) busy-waits 1.5 s while a child that lives
// 0.2 s exits, and the interval still brackets the real exit, not the moment the runner could look again.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExitWatcher, POLL_MS } from '../../harness/process/exit-watcher.js';

const linux = process.platform === 'linux';
const scratch = mkdtempSync(path.join(tmpdir(), 'yume-exit-watcher-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Blocks this thread: no timer fires, no exit is reaped. */
function stallFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // the runner's loop is stalled
  }
}

/** Waits (without blocking the thread) until `check` holds, for at most `ms`. */
async function until<T>(check: () => T | undefined, ms: number): Promise<T | undefined> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined || performance.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Runs `body` with `watcher` held, releasing it after. */
async function holding(watcher: ExitWatcher, body: () => void | Promise<void>): Promise<void> {
  watcher.acquire();
  try {
    await body();
  } finally {
    watcher.release();
  }
}

describe.runIf(linux)('ExitWatcher (Linux)', () => {
  it('brackets an exit that happened while the runner was stalled', async () => {
    const watcher = new ExitWatcher();
    await holding(watcher, async () => {
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 200)'], { stdio: 'ignore' });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      await new Promise((resolve) => child.on('spawn', resolve));
      const spawnedAt = performance.now();
      const watch = watcher.watch(child.pid!)!;
      expect(watch).toBeDefined();
      // Give the worker a poll that finds the child running, then stall well past its exit.
      await until(() => (performance.now() - spawnedAt > 3 * POLL_MS ? true : undefined), 1000);
      stallFor(1500);
      const seenAt = performance.now();
      const interval = watch.interval();
      await exited;
      expect(interval, 'the worker saw the exit during the stall').toBeDefined();
      expect(interval!.aliveAt).toBeDefined();
      expect(interval!.aliveAt!).toBeLessThan(interval!.goneBy);
      // Node takes tens of ms to start; the child lives 0.2 s after that. The stall ended 1.5 s after the watch.
      expect(interval!.goneBy - spawnedAt).toBeLessThan(1000);
      expect(seenAt - interval!.goneBy).toBeGreaterThan(400);
      watch.stop();
    });
  });

  it('reports a process that was already gone as never seen running', async () => {
    const watcher = new ExitWatcher();
    await holding(watcher, async () => {
      const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
      await new Promise((resolve) => child.on('exit', resolve));
      const watch = watcher.watch(child.pid!)!;
      const interval = await until(() => watch.interval(), 2000);
      expect(interval?.aliveAt).toBeUndefined();
      expect(interval?.goneBy).toBeGreaterThan(0);
      watch.stop();
    });
  });

  it('keeps a running process open, and watches nothing once released', async () => {
    const watcher = new ExitWatcher();
    watcher.acquire();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.on('spawn', resolve));
      const watch = watcher.watch(child.pid!)!;
      await new Promise((resolve) => setTimeout(resolve, 10 * POLL_MS));
      expect(watch.interval()).toBeUndefined();
      watch.stop();
    } finally {
      watcher.release();
      child.kill('SIGKILL');
    }
    expect(watcher.watch(child.pid!)).toBeUndefined();
  });

  it('does not watch where there is no /proc', async () => {
    const watcher = new ExitWatcher(path.join(scratch, 'no-proc'));
    await holding(watcher, () => {
      expect(watcher.watch(process.pid)).toBeUndefined();
    });
  });
});
