// When the runner's own event loop could not run. A stall does not take the shim's time (the shim runs on
// meanwhile), but it hides when things happened: what the runner sees in the first callbacks after a stall may
// have happened at any time during it (stallEndingAt, used to date an exit where no exit watcher timed it), and
// a grace the runner gives its descendants is extended by the stalls inside it (stalledMsBetween). A heartbeat
// timer notes every stretch in which it ran late.
//
// The heartbeat runs only while some suite holds it (acquire/release) and never keeps the process alive.

import type { CpuWaitClock } from './cpu-wait.js';

/** Heartbeat period. */
const BEAT_MS = 20;
/** Lateness below this is ordinary timer jitter, not a stall. */
const STALL_THRESHOLD_MS = 30;
/** Stalls kept: the oldest are dropped (a deadline window is seconds long, runs are minutes long). */
const MAX_STALLS = 1024;

export interface Stall {
  /** performance.now() when the loop should have run, and when it ran. */
  from: number;
  to: number;
  /** The first beat on time after it: from then on the loop ran freely again. */
  nextBeat?: number;
}

export class LoopStalls {
  private readonly stalls: Stall[] = [];
  private timer: NodeJS.Timeout | undefined;
  private holders = 0;
  private lastBeat = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Starts the heartbeat (counted: it stops when every holder has released it). */
  acquire(): void {
    this.holders += 1;
    if (this.timer) return;
    this.lastBeat = this.now();
    this.timer = setInterval(() => this.beat(), BEAT_MS);
    this.timer.unref();
  }

  release(): void {
    this.holders = Math.max(0, this.holders - 1);
    if (this.holders > 0 || !this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Notes a stall if the loop ran late since the last beat (also called by the heartbeat timer). */
  beat(at = this.now()): void {
    const due = this.lastBeat + BEAT_MS;
    if (at - due > STALL_THRESHOLD_MS) {
      this.stalls.push({ from: due, to: at });
      if (this.stalls.length > MAX_STALLS) this.stalls.splice(0, this.stalls.length - MAX_STALLS);
    } else {
      const last = this.stalls.at(-1);
      if (last && last.nextBeat === undefined) last.nextBeat = at;
    }
    this.lastBeat = at;
  }

  /**
   * ms of [from, to] (performance.now() times) in which the loop was stalled, counting a stall still going on
   * at `to` when the heartbeat is late right now (the callback asking may be the first to run after it).
   */
  stalledMsBetween(from: number, to: number): number {
    let total = 0;
    const overlap = (stall: Stall) => Math.max(0, Math.min(to, stall.to) - Math.max(from, stall.from));
    for (let index = this.stalls.length - 1; index >= 0; index -= 1) {
      const stall = this.stalls[index]!;
      if (stall.to <= from) break;
      total += overlap(stall);
    }
    if (this.timer) {
      const due = this.lastBeat + BEAT_MS;
      const now = this.now();
      if (now - due > STALL_THRESHOLD_MS) total += overlap({ from: due, to: now });
    }
    return total;
  }

  /**
   * The start of the stall that `at` ends (a performance.now() time), if any: something the runner saw at `at`,
   * in the first callbacks after a stall, may have happened at any time during it. The heartbeat notes a stall
   * only when it runs again, so `at` may fall before the stall's recorded end, or after it until the next beat
   * on time (after a long stall the loop may take a while to work off what piled up: a beat's length is not
   * enough on a loaded machine).
   */
  stallEndingAt(at: number): number | undefined {
    const stalls: Stall[] = [...this.stalls];
    if (this.timer) {
      // Not noted yet: the heartbeat is late right now.
      const due = this.lastBeat + BEAT_MS;
      if (this.now() - due > STALL_THRESHOLD_MS) stalls.push({ from: due, to: this.now() });
    }
    for (let index = stalls.length - 1; index >= 0; index -= 1) {
      const stall = stalls[index]!;
      if (stall.from >= at) continue;
      if (at > Math.max(stall.nextBeat ?? Number.POSITIVE_INFINITY, stall.to + BEAT_MS)) return undefined;
      // Stalls with no beat on time between them are one stretch (a long stall, then the backlog it left).
      let from = stall.from;
      for (let earlier = index - 1; earlier >= 0 && stalls[earlier]!.nextBeat === undefined; earlier -= 1)
        from = stalls[earlier]!.from;
      return from;
    }
    return undefined;
  }

  /** Whether a suite holds the heartbeat (for tests). */
  get running(): boolean {
    return this.timer !== undefined;
  }
}

/** The runner's one heartbeat. */
export const loopStalls = new LoopStalls();

/**
 * A CPU-wait clock (cpu-wait.ts) that also counts the runner's own loop stalls from now on, for a deadline the
 * shim meets only through the runner (a scripted moment: the mock serves what the shim needs to reach it, and
 * the runner's loop sees it): while that loop stalls (on a loaded machine it waits for a CPU like any process)
 * the shim waits for the runner, and that time is the machine's, not the shim's (R19). Unknown where the CPU
 * wait is unknown: there the deadline's rule for an oversubscribed machine applies, as for every deadline.
 */
export function withRunnerStalls(
  cpuWait: CpuWaitClock | undefined,
  stalls: Pick<LoopStalls, 'stalledMsBetween'> = loopStalls,
): CpuWaitClock {
  const since = performance.now();
  return () => {
    const waited = cpuWait?.();
    return waited === undefined ? undefined : waited + stalls.stalledMsBetween(since, performance.now());
  };
}
