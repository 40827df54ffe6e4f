// Where a run's wall time goes (its phases) and what happened when (its timeline), both reported with the run.
import { performance } from 'node:perf_hooks';
import type { RunPhases, TimelineEntry } from './results/run-types.js';

export class RunClock {
  readonly timeline: TimelineEntry[] = [];
  readonly phases: RunPhases = { setupMs: 0, mockMs: 0, executeMs: 0, spawnMs: 0, checksMs: 0, cleanupMs: 0 };
  private readonly started = performance.now();
  private phaseStart = this.started;

  /** Adds a line to the timeline, dated from the run's start (a callback: the mock and the execution call it). */
  readonly note = (source: TimelineEntry['source'], text: string): void => {
    this.timeline.push({ atMs: this.elapsedMs(), source, text });
  };

  /** Ends the current phase: the time since the last one ended counts in `name`. */
  phaseEnd(name: keyof RunPhases): void {
    const now = performance.now();
    this.phases[name] += now - this.phaseStart;
    this.phaseStart = now;
  }

  /** Starts the next phase now: the time since the last phase ended counts in none. */
  restart(): void {
    this.phaseStart = performance.now();
  }

  elapsedMs(): number {
    return Math.round(performance.now() - this.started);
  }
}
