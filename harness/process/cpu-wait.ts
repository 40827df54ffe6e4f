// How long a run's processes were ready to run but waited for a CPU (Linux). On a loaded machine a shim that
// would exit in 50 ms can wait seconds for a core; a deadline counts that time as the machine's, not the
// shim's. Two sources, best first:
//   - the run's cgroup v2 leaf: `cpu.pressure`, "some" total = time in which at least one of the run's
//     processes waited for a CPU, whichever process of the tree it was, and still readable after they exited;
//   - the shim's own main thread: field 2 of /proc/<pid>/schedstat (ns on a run queue), while it runs.
// Elsewhere, or when neither can be read, nothing is known and nothing is discounted. There (macOS) a deadline
// that runs out while the machine is oversubscribed (1-minute load average above the cores) is undecided rather
// than failed (machineOversubscribed); where the load cannot be read either (Windows), nothing is known.
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { hasProcFiles, type PlatformName } from './platform.js';

/** Cumulative ms waited for a CPU so far, or undefined when it cannot be read (now). */
export type CpuWaitClock = () => number | undefined;

/** The "some" total of a pressure file's text, in ms. */
export function pressureSomeTotalMs(text: string): number | undefined {
  const total = /^some .*\btotal=(\d+)/m.exec(text)?.[1];
  return total === undefined ? undefined : Number(total) / 1000;
}

/** The run-queue time of a /proc/<pid>/schedstat line, in ms. */
export function schedstatWaitMs(text: string): number | undefined {
  const wait = text.trim().split(/\s+/)[1];
  return wait === undefined || !/^\d+$/.test(wait) ? undefined : Number(wait) / 1e6;
}

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A clock that reads `file` and parses it at each call. */
const fileClock =
  (file: string, parse: (text: string) => number | undefined): CpuWaitClock =>
  () => {
    const text = readOrUndefined(file);
    return text === undefined ? undefined : parse(text);
  };

/** The CPU wait of a run: its cgroup leaf's pressure where there is one, else the shim's main thread. */
export function cpuWaitClock(options: {
  platform: PlatformName;
  pid: number | undefined;
  cgroupPath?: string;
}): CpuWaitClock {
  if (!hasProcFiles(options.platform)) return () => undefined;
  const { cgroupPath, pid } = options;
  if (cgroupPath !== undefined) {
    const pressure = fileClock(path.join(cgroupPath, 'cpu.pressure'), pressureSomeTotalMs);
    if (pressure() !== undefined) return pressure;
  }
  if (pid === undefined) return () => undefined;
  return fileClock(`/proc/${pid}/schedstat`, schedstatWaitMs);
}

/**
 * Whether the machine is oversubscribed right now: more runnable work than cores (the 1-minute load average above
 * the cores). False where the load cannot be read (Windows reports 0).
 */
export function machineOversubscribed(load: () => number[] = loadavg, cores: number = availableParallelism()): boolean {
  const [oneMinute = 0] = load();
  return oneMinute > cores;
}
