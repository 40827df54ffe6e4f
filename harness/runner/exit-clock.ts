// The exit clock of a run: a process must exit within EXIT_GRACE_MS of its last result (spawn-per-turn), of
// stdin EOF (persistent mode) or of the interrupt signal. When the clock runs out the harness ends the process
// tree at once, so a shim that lingers costs about two seconds rather than the whole run timeout, and the
// checks report it once, under the rule of the moment that started the clock.
import type { ShimProcess } from '../process/shim-process.js';
import type { TimerScope } from '../process/timer-scope.js';

/** How long a process may run on after the moment that requires its exit. */
export const EXIT_GRACE_MS = 2000;
/** Scheduling slack on top of the grace before the harness acts (the checks still judge against the grace). */
const KILL_SLACK_MS = 500;

export type ExitMoment = 'result' | 'stdin-eof' | 'interrupt';

export interface ExitClockExpiry {
  /** What started the clock that ran out. */
  after: ExitMoment;
  /** ms since the process started: when the clock started, and when the harness ended the process. */
  startedAtMs: number;
  killedAtMs: number;
}

export class ExitClock {
  private generation = 0;
  private moment: ExitMoment | undefined;
  private finished = false;
  /** Set when the clock ran out and the harness ended the process. */
  expired: ExitClockExpiry | undefined;

  constructor(
    private readonly shim: ShimProcess,
    private readonly timers: TimerScope,
  ) {}

  /**
   * (Re)starts the clock from now. An interrupt's clock is not restarted by a later result: the interrupt is
   * what the process must answer by exiting.
   */
  start(moment: ExitMoment): void {
    if (this.finished || this.moment === 'interrupt') return;
    this.moment = moment;
    this.generation += 1;
    const generation = this.generation;
    const startedAtMs = this.shim.elapsedMs();
    void this.timers.delay(EXIT_GRACE_MS + KILL_SLACK_MS).then(() => {
      if (this.finished || generation !== this.generation) return;
      this.expired = { after: moment, startedAtMs, killedAtMs: this.shim.elapsedMs() };
      this.shim.kill();
    });
  }

  /** The process is gone: the clock stops. */
  stop(): void {
    this.finished = true;
  }
}
