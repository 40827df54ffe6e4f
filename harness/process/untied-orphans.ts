// Without a cgroup, a process the shim started through a double fork into a new session with an empty environment
// is tied to the run by nothing but time: its pid is above the shim's, it started after the shim, and it was
// reparented to init. R16: such a process is reported (the run's process rules are then not verified), never
// killed by guess. Linux compares /proc start ticks; macOS compares `ps` start dates, to the second.
import { type DescendantTracker, trackedByARun } from './descendants.js';
import type { ProcessInfo, ProcessTable } from './process-table.js';

/** A `ps -o lstart=` date ("Sat Nov 28 02:13:04 2026", C locale) in whole seconds since the epoch. */
function lstartSeconds(start: string): number | undefined {
  if (!/^[A-Z][a-z]{2} [A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2} \d{4}$/.test(start)) return undefined;
  const ms = Date.parse(start);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/**
 * Whether start time `a` is not before `b`, in a table's own units: numeric ticks (Linux, Windows) or `ps` dates.
 * A `ps` date has whole seconds: a process started in the shim's own second counts as not before it.
 * Undefined when the two cannot be compared.
 */
export function startedNotBefore(a: string, b: string): boolean | undefined {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return BigInt(a) >= BigInt(b);
  const [first, second] = [lstartSeconds(a), lstartSeconds(b)];
  return first === undefined || second === undefined ? undefined : first >= second;
}

/**
 * Processes with a pid above the shim's, a start time not before its start, reparented to init (a daemonised
 * double fork ends there) and not known as this run's or any other run's: only their start time links them to
 * the run.
 */
export async function untiedOrphans(
  table: ProcessTable,
  rootPid: number,
  tracker: DescendantTracker | undefined,
): Promise<ProcessInfo[]> {
  const rootStart = tracker?.rootStartTime();
  if (rootStart === undefined || startedNotBefore(rootStart, rootStart) === undefined) return [];
  const known = new Set((tracker?.seen() ?? []).map((info) => info.pid));
  try {
    return (await table.snapshot(rootPid)).filter(
      (info) =>
        info.pid > rootPid &&
        info.ppid === 1 &&
        info.state !== 'Z' &&
        !known.has(info.pid) &&
        !trackedByARun(info) &&
        startedNotBefore(info.start, rootStart) === true,
    );
  } catch {
    return [];
  }
}
