// The runner's heartbeat (loop-stalls.ts): stretches in which its loop ran late, and how much of a window
// they cover; real stalls of this thread are seen, ordinary timer jitter is not.
import { describe, expect, it } from 'vitest';
import { LoopStalls } from '../../harness/process/loop-stalls.js';

describe('LoopStalls', () => {
  it('notes a late beat as a stall and counts its overlap with a window', () => {
    let now = 1000;
    const stalls = new LoopStalls(() => now);
    stalls.acquire();
    try {
      now = 1020;
      stalls.beat(); // on time
      now = 1045;
      stalls.beat(); // 5 ms late: jitter
      now = 1565;
      stalls.beat(); // due at 1065: a 500 ms stall
      now = 1585;
      stalls.beat();
      expect(stalls.stalledMsBetween(0, 2000)).toBe(500);
      expect(stalls.stalledMsBetween(1300, 2000)).toBe(265);
      expect(stalls.stalledMsBetween(1000, 1100)).toBe(35);
      expect(stalls.stalledMsBetween(1600, 2000)).toBe(0);
    } finally {
      stalls.release();
    }
  });

  it('counts a stall still going on when asked (the asking callback may be the first to run after it)', () => {
    let now = 0;
    const stalls = new LoopStalls(() => now);
    stalls.acquire();
    try {
      now = 20;
      stalls.beat();
      now = 1040; // no beat since 20: due at 40
      expect(stalls.stalledMsBetween(0, 1040)).toBe(1000);
    } finally {
      stalls.release();
    }
  });

  it('dates what the runner saw right after a stall back to its start, and nothing else', () => {
    let now = 0;
    const stalls = new LoopStalls(() => now);
    stalls.acquire();
    try {
      for (const at of [20, 40, 540, 560]) {
        now = at;
        stalls.beat(); // a stall from 60 to 540
      }
      expect(stalls.stallEndingAt(530)).toBe(60); // seen before the heartbeat noted the stall's end
      expect(stalls.stallEndingAt(555)).toBe(60); // within a beat after it
      expect(stalls.stallEndingAt(600)).toBeUndefined(); // the loop had run since
      expect(stalls.stallEndingAt(50)).toBeUndefined(); // before it
      now = 1000; // no beat since 560: a stall going on now, due at 580
      expect(stalls.stallEndingAt(1000)).toBe(580);
    } finally {
      stalls.release();
    }
  });

  it('dates back across a stall and the backlog right after it, with no beat on time between them', () => {
    let now = 0;
    const stalls = new LoopStalls(() => now);
    stalls.acquire();
    try {
      for (const at of [20, 40, 5040]) {
        now = at;
        stalls.beat(); // a stall from 60 to 5040
      }
      now = 5100; // the loop works off what piled up: the heartbeat, due at 5060, is late again
      expect(stalls.stallEndingAt(5090)).toBe(60);
      now = 5110;
      stalls.beat(); // noted: a stall from 5060 to 5110, still no beat on time since 5040
      expect(stalls.stallEndingAt(5105)).toBe(60);
      now = 5130;
      stalls.beat(); // on time
      expect(stalls.stallEndingAt(5140)).toBeUndefined();
    } finally {
      stalls.release();
    }
  });

  it('runs while held, counted, and stops when the last holder releases it', () => {
    const stalls = new LoopStalls();
    stalls.acquire();
    stalls.acquire();
    stalls.release();
    expect(stalls.running).toBe(true);
    stalls.release();
    expect(stalls.running).toBe(false);
  });

  it('sees a real stall of this thread', async () => {
    const stalls = new LoopStalls();
    stalls.acquire();
    try {
      await new Promise((resolve) => setTimeout(resolve, 60));
      const from = performance.now();
      const until = from + 400;
      while (performance.now() < until) {
        // blocked
      }
      await new Promise((resolve) => setTimeout(resolve, 60));
      const to = performance.now();
      const stalled = stalls.stalledMsBetween(from, to);
      expect(stalled).toBeGreaterThan(300);
      expect(stalled).toBeLessThanOrEqual(to - from);
    } finally {
      stalls.release();
    }
  });
});
