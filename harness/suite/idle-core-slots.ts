// Extra runs while the cores idle. The default --jobs (six per core) keeps the cores busy when the running runs
// have the usual mix of work and waiting. A stretch of runs that mostly wait leaves them idle with runs still
// queued: an official CLI that prints whole messages makes a stalled stream's 3 s gate run out, a kill waits up
// to 1 s for text, a retry-after waits a second. Measured on 2 cores, the first 20 s of a full-matrix shard
// (its longest runs start first, and those are the waiting ones) had the cores 13–65 % busy for seconds at a
// time. So the pool samples how busy the machine's cores are and, while runs are queued, grants extra slots when
// they idle and takes them back when they are busy. Only the default --jobs grows: a --jobs the user chose is kept.
// The machine's own load counts too: cores another program keeps busy grant nothing, and neither does a machine
// short of memory.
import { cpus, freemem } from 'node:os';

/** Below this share of busy core time in a sample, more runs are started. */
export const GROW_BELOW = 0.85;
/** Above it, an extra slot is taken back at each sample (running runs are never stopped). */
export const SHRINK_ABOVE = 0.97;
/** No slot is granted with less memory free than this: a run holds a shim or two (about 50 MB each) and its tools. */
export const MIN_FREE_BYTES = 1024 ** 3;
const SAMPLE_MS = 250;

/** How busy the cores were since the previous call (0–1), or undefined when nothing can be told yet. */
export type CoreUse = () => number | undefined;

/** CPU ms all the machine's cores spent busy and idle so far (os.cpus(): /proc/stat on Linux, every platform has it). */
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

export interface IdleCoreSlotsOptions {
  /** At most this many extra slots. */
  max: number;
  /** Cores this process may use: an idle share of them is how many runs' worth of work is missing. */
  cores: number;
  coreUse?: CoreUse;
  /** Bytes of memory free now (default os.freemem()). */
  freeMemory?: () => number;
  sampleMs?: number;
}

/** Extra slots for the pool, granted while the cores idle (see the top of this file). */
export class IdleCoreSlots {
  private granted = 0;
  private timer: NodeJS.Timeout | undefined;
  private onGrant: () => void = () => undefined;
  private readonly coreUse: CoreUse;

  constructor(private readonly options: IdleCoreSlotsOptions) {
    this.coreUse = options.coreUse ?? machineCoreUse();
  }

  /** Extra slots granted now. */
  get extra(): number {
    return this.granted;
  }

  /** Starts sampling; `onGrant` is called when slots were added, so the pool can start queued runs. */
  start(onGrant: () => void): void {
    this.onGrant = onGrant;
    if (this.timer || this.options.max <= 0) return;
    this.timer = setInterval(() => this.sample(), this.options.sampleMs ?? SAMPLE_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * One sample: an idle share of the cores grants two runs per idle core (a run keeps a core about half busy),
   * at least one, while MIN_FREE_BYTES of memory are free; a busy machine takes one slot back.
   */
  sample(): void {
    const busy = this.coreUse();
    if (busy === undefined) return;
    const memoryFree = (this.options.freeMemory ?? freemem)() >= MIN_FREE_BYTES;
    if (busy < GROW_BELOW && this.granted < this.options.max && memoryFree) {
      const wanted = Math.max(1, Math.round((1 - busy) * this.options.cores * 2));
      this.granted = Math.min(this.options.max, this.granted + wanted);
      this.onGrant();
    } else if (busy > SHRINK_ABOVE && this.granted > 0) {
      this.granted -= 1;
    }
  }
}
