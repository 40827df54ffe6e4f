// When a shim's process exited, measured where the runner's own work cannot blur it (Linux). The runner sees
// an exit only when its event loop runs: if the loop is stalled (another run's checks, a loaded machine), an
// exit that happened at once is seen seconds later, and a deadline measured on the loop cannot tell the two
// apart. A worker thread with nothing else to do polls /proc/<pid>/stat of the processes whose exit is being
// timed, every POLL_MS: the process was alive at one poll and gone (or a zombie the stalled runner has not
// reaped yet) at the next, so its exit lies between the two. Deadlines judge on that interval (exit-clock.ts).
//
// Only processes inside an exit window are polled (after a result, an interrupt, stdin EOF), a few at a time and
// for a fraction of a second each. The worker starts with the first watch and stops when the last suite
// releases it; it never keeps the process alive. Elsewhere (no /proc) watch() returns undefined and the runner
// falls back to what its loop saw.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** How often the worker looks at each watched process. */
export const POLL_MS = 10;
/** Processes watched at once; a watch beyond that is not made (the runner falls back). */
const SLOTS = 256;
/** A slot's state. */
const Slot = { Free: 0, Watching: 1, Gone: 2 } as const;
/** Indexes of the control words: the stop flag, and a generation bumped to wake the worker. */
const Control = { Stop: 0, Generation: 1 } as const;

/** The interval, in performance.now() of the runner, in which a watched process exited. */
export interface ExitInterval {
  /** The last poll that found it running (undefined: it was never seen running after the watch began). */
  aliveAt: number | undefined;
  /** The first poll that found it gone or a zombie. */
  goneBy: number;
}

export interface ExitWatch {
  /** When it exited, once the worker has seen it gone. */
  interval(): ExitInterval | undefined;
  stop(): void;
}

// The worker, as CommonJS source: a loop that sleeps on the control word between polls, so a watch or a stop
// wakes it at once.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { control, states, pids, aliveAt, goneBy, origin, pollMs, procRoot } = workerData;
const now = () => performance.timeOrigin + performance.now() - origin;
const running = (pid) => {
  try {
    const stat = readFileSync(procRoot + '/' + pid + '/stat', 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
};
for (;;) {
  if (Atomics.load(control, ${Control.Stop}) === 1) break;
  const generation = Atomics.load(control, ${Control.Generation});
  let watching = false;
  for (let slot = 0; slot < states.length; slot += 1) {
    if (Atomics.load(states, slot) !== ${Slot.Watching}) continue;
    watching = true;
    const pid = Atomics.load(pids, slot);
    if (running(pid)) aliveAt[slot] = now();
    else {
      goneBy[slot] = now();
      Atomics.store(states, slot, ${Slot.Gone});
    }
  }
  Atomics.wait(control, ${Control.Generation}, generation, watching ? pollMs : undefined);
}
`;

/** The memory the runner and the worker share: control words and, per slot, a state, a pid and two times. */
function sharedSlots() {
  const int32 = (length: number) => new Int32Array(new SharedArrayBuffer(length * 4));
  const float64 = (length: number) => new Float64Array(new SharedArrayBuffer(length * 8));
  return {
    control: int32(2),
    states: int32(SLOTS),
    pids: int32(SLOTS),
    aliveAt: float64(SLOTS),
    goneBy: float64(SLOTS),
  };
}

export class ExitWatcher {
  private worker: { thread: Worker; shared: ReturnType<typeof sharedSlots> } | undefined;
  private holders = 0;

  constructor(private readonly procRoot = '/proc') {}

  /** Lets watch() work until every holder has released it (the worker itself starts with the first watch). */
  acquire(): void {
    this.holders += 1;
  }

  release(): void {
    this.holders = Math.max(0, this.holders - 1);
    if (this.holders > 0 || !this.worker) return;
    const { thread, shared } = this.worker;
    Atomics.store(shared.control, Control.Stop, 1);
    Atomics.notify(shared.control, Control.Generation);
    void thread.terminate();
    this.worker = undefined;
  }

  /** Starts timing the exit of `pid`, or undefined where it cannot be timed (no /proc, not held, all slots busy). */
  watch(pid: number): ExitWatch | undefined {
    const shared = this.holders > 0 ? this.start() : undefined;
    if (!shared) return undefined;
    const { control, states, pids, aliveAt, goneBy } = shared;
    const slot = states.indexOf(Slot.Free);
    if (slot === -1) return undefined;
    Atomics.store(pids, slot, pid);
    aliveAt[slot] = Number.NaN;
    Atomics.store(states, slot, Slot.Watching);
    wake(control);
    let result: ExitInterval | undefined;
    let stopped = false;
    return {
      interval: () => {
        if (result || stopped || Atomics.load(states, slot) !== Slot.Gone) return result;
        const lastAlive = aliveAt[slot]!;
        result = { aliveAt: Number.isNaN(lastAlive) ? undefined : lastAlive, goneBy: goneBy[slot]! };
        return result;
      },
      stop: () => {
        if (stopped) return;
        stopped = true;
        Atomics.store(states, slot, Slot.Free);
        wake(control);
      },
    };
  }

  /** The running worker's shared memory, starting the worker if need be (undefined without /proc). */
  private start(): ReturnType<typeof sharedSlots> | undefined {
    if (this.worker) return this.worker.shared;
    if (!existsSync(`${this.procRoot}/self/stat`)) return undefined;
    const shared = sharedSlots();
    const thread = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { ...shared, origin: performance.timeOrigin, pollMs: POLL_MS, procRoot: this.procRoot },
    });
    thread.unref();
    const worker = { thread, shared };
    thread.on('error', () => {
      // A failed worker leaves its slots as they are: their intervals never come, and the runner falls back.
      if (this.worker === worker) this.worker = undefined;
    });
    this.worker = worker;
    return shared;
  }
}

function wake(control: Int32Array): void {
  Atomics.add(control, Control.Generation, 1);
  Atomics.notify(control, Control.Generation);
}

/** The runner's one exit watcher. */
export const exitWatcher = new ExitWatcher();
