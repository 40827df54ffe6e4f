// The suite's width (runs at once) as the machine shows it: every SAMPLE_MS it reads how busy the cores were,
// every program on the machine counted (os.cpus(): /proc/stat on Linux, every platform has it), the memory
// available (os.freemem()) and the resident size of the running shims (Linux: /proc/<pid>/status), and applies
// width-rule.ts. Only the default width moves: a --jobs the user gave is kept as it is.
import { readFileSync } from 'node:fs';
import { cpus, freemem } from 'node:os';
import { activeShimPids } from '../process/active-shims.js';
import { nextWidth, type WidthLimits, type WidthSample, type WidthState } from './width-rule.js';

const SAMPLE_MS = 250;

/** How busy the cores were since the previous call (0–1), or undefined when nothing can be told yet. */
export type CoreUse = () => number | undefined;

/** CPU ms all the machine's cores spent busy and idle so far. */
export function machineCoreTimes(): { busy: number; idle: number } {
  let busy = 0;
  let idle = 0;
  for (const { times } of cpus()) {
    busy += times.user + times.nice + times.sys + times.irq;
    idle += times.idle;
  }
  return { busy, idle };
}

/** How busy the machine's cores were between calls, from their cumulative times. */
export function machineCoreUse(): CoreUse {
  let last = machineCoreTimes();
  return () => {
    const now = machineCoreTimes();
    const busy = now.busy - last.busy;
    const all = busy + now.idle - last.idle;
    last = now;
    return all > 0 ? busy / all : undefined;
  };
}

/** Resident bytes of a process from its /proc status (VmRSS), or undefined (gone, or no /proc). */
export function residentBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The largest resident size among the running shims, or undefined when none could be read. */
export function largestShimResident(pids: readonly number[] = activeShimPids()): number | undefined {
  let largest: number | undefined;
  for (const pid of pids) {
    const bytes = residentBytes(pid);
    if (bytes !== undefined && (largest === undefined || bytes > largest)) largest = bytes;
  }
  return largest;
}

/** What the pool reads and drives: the width now, and sampling while runs are queued. */
export interface Width {
  readonly current: number;
  /**
   * Starts sampling; `onGrow` is called when the width grew, so the pool can start queued runs; `queued` says
   * whether runs wait for a slot.
   */
  start(onGrow: () => void, queued?: () => boolean): void;
  stop(): void;
}

export interface SuiteWidthOptions {
  limits: WidthLimits;
  coreUse?: CoreUse;
  /** Bytes of memory available now (default os.freemem()). */
  freeMemory?: () => number;
  /** The largest resident size of a running run's shim (default: read from /proc). */
  runBytes?: () => number | undefined;
  /** Told each change, with why (the progress output says the width when it changes). */
  onChange?: (width: number, why: string) => void;
  sampleMs?: number;
}

/** The default width, moving with the machine (see the top of this file). */
export class SuiteWidth implements Width {
  private state: WidthState;
  private timer: NodeJS.Timeout | undefined;
  private onGrow: () => void = () => undefined;
  private queued: () => boolean = () => true;
  private readonly coreUse: CoreUse;
  /** Widest it got (the bench prints it). */
  peak: number;

  constructor(private readonly options: SuiteWidthOptions) {
    this.state = { width: options.limits.start, saturated: 0 };
    this.peak = options.limits.start;
    this.coreUse = options.coreUse ?? machineCoreUse();
  }

  get current(): number {
    return this.state.width;
  }

  start(onGrow: () => void, queued: () => boolean = () => true): void {
    this.onGrow = onGrow;
    this.queued = queued;
    const { limits } = this.options;
    if (this.timer || limits.floor === limits.max) return;
    this.timer = setInterval(() => this.sample(), this.options.sampleMs ?? SAMPLE_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One sample of the machine, and the rule applied to it. */
  sample(): void {
    const runBytes = (this.options.runBytes ?? largestShimResident)();
    const reading: WidthSample = {
      busy: this.coreUse(),
      freeBytes: (this.options.freeMemory ?? freemem)(),
      queued: this.queued(),
      ...(runBytes === undefined ? {} : { runBytes }),
    };
    const step = nextWidth(this.state, reading, this.options.limits);
    this.state = step.state;
    if (step.change === 'held') return;
    this.peak = Math.max(this.peak, step.state.width);
    this.options.onChange?.(step.state.width, step.why);
    if (step.change === 'grew') this.onGrow();
  }
}
