// The runner's own stop: on SIGINT, SIGTERM or SIGHUP (Windows: Ctrl-C arrives as SIGINT, Ctrl-Break as
// SIGBREAK; SIGTERM and SIGHUP do not exist there) the suite starts no further run, ends every shim it
// started (their whole trees), lets the running runs be judged on what they did so far, closes their mocks
// and writes the report of the runs so far, marked interrupted. A second signal changes nothing: the shutdown
// is already under way, and ending the runner before it finishes would leave processes behind.

import { killActiveShims } from '../process/active-shims.js';
import type { PlatformName } from '../process/platform.js';

/** The signals that stop the runner on a platform. */
export function stopSignalsFor(platform: PlatformName): NodeJS.Signals[] {
  return platform === 'win32' ? ['SIGINT', 'SIGBREAK'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];
}

/** What the handlers are installed on (the process; a fake in tests). */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
}

export class SuiteStop {
  /** The signal that stopped the suite, once one arrived. */
  signal: NodeJS.Signals | undefined;
  private readonly listener = (signal: NodeJS.Signals) => this.stop(signal);
  private readonly signals: NodeJS.Signals[];

  constructor(
    private readonly source: SignalSource,
    platform: PlatformName,
    private readonly onStop: (signal: NodeJS.Signals) => void = () => undefined,
  ) {
    this.signals = stopSignalsFor(platform);
    for (const signal of this.signals) source.on(signal, this.listener);
  }

  get stopped(): boolean {
    return this.signal !== undefined;
  }

  stop(signal: NodeJS.Signals): void {
    if (this.signal) return;
    this.signal = signal;
    this.onStop(signal);
    killActiveShims();
  }

  /** Removes the handlers (the suite is over). */
  close(): void {
    for (const signal of this.signals) this.source.off(signal, this.listener);
  }
}
