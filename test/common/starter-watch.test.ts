// The starter watch: it calls back once, within an interval of the starter's end, by each platform's sign (POSIX:
// the parent pid changes; Windows: the starter's pid no longer runs); it never starts on a starter already gone,
// and stop() ends it. The reference shim's end to end use is in test/reference-shim/e2e-starter-gone.test.ts.
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { processIsRunning, STARTER_POLL_MS, watchStarter } from '../../common/starter-watch.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('watchStarter on POSIX', () => {
  it('calls back once, within an interval of the parent pid changing (the orphan handed to another parent)', () => {
    let parent = 4321;
    const onGone = vi.fn();
    const watch = watchStarter(onGone, { platform: 'linux', starter: 4321, currentParent: () => parent });
    expect(watch).toBeDefined();
    vi.advanceTimersByTime(STARTER_POLL_MS * 5);
    expect(onGone).not.toHaveBeenCalled();
    parent = 1;
    vi.advanceTimersByTime(STARTER_POLL_MS);
    expect(onGone).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(STARTER_POLL_MS * 5);
    expect(onGone).toHaveBeenCalledTimes(1);
  });

  it('does not start on a process orphaned already, or without a starter', () => {
    const onGone = vi.fn();
    expect(watchStarter(onGone, { platform: 'linux', starter: 4321, currentParent: () => 1 })).toBeUndefined();
    expect(watchStarter(onGone, { platform: 'linux', starter: 1, currentParent: () => 1 })).toBeUndefined();
    vi.advanceTimersByTime(STARTER_POLL_MS * 5);
    expect(onGone).not.toHaveBeenCalled();
  });
});

describe('watchStarter on Windows', () => {
  it("calls back once the starter's pid no longer runs (Windows never changes a child's parent pid)", () => {
    const running = new Set([2004]);
    const isRunning = vi.fn((pid: number) => running.has(pid));
    const onGone = vi.fn();
    // The parent pid never changes on Windows: were it looked at, the watch would never fire.
    const currentParent = vi.fn(() => 2004);
    watchStarter(onGone, { platform: 'win32', starter: 2004, isRunning, currentParent });
    vi.advanceTimersByTime(STARTER_POLL_MS * 3);
    expect(onGone).not.toHaveBeenCalled();
    running.delete(2004);
    vi.advanceTimersByTime(STARTER_POLL_MS);
    expect(onGone).toHaveBeenCalledTimes(1);
    expect(isRunning).toHaveBeenCalledWith(2004);
    expect(currentParent).not.toHaveBeenCalled();
  });

  it('does not start when the starter is gone before the watch begins, and stop() ends it', () => {
    const onGone = vi.fn();
    expect(watchStarter(onGone, { platform: 'win32', starter: 2004, isRunning: () => false })).toBeUndefined();
    let running = true;
    const watch = watchStarter(onGone, { platform: 'win32', starter: 2004, isRunning: () => running });
    watch!.stop();
    running = false;
    vi.advanceTimersByTime(STARTER_POLL_MS * 5);
    expect(onGone).not.toHaveBeenCalled();
  });
});

describe('processIsRunning', () => {
  it('is true of a running process and false of one that has exited', () => {
    vi.useRealTimers();
    expect(processIsRunning(process.pid)).toBe(true);
    const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    expect(processIsRunning(Number(exited.stdout))).toBe(false);
  });
});
