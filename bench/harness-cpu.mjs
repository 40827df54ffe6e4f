// The harness's CPU for the bench's goal, measured directly in the same suite run as the shims' CPU it is set
// against: the runner's own process (process.cpuUsage(): its loop, the in-process mock servers, the checks)
// plus the helper processes it starts itself (git for the workspaces, ps where it needs one). The helpers are
// the runner's children's CPU (/proc/self/stat: cutime + cstime, every child it waited for) minus the shims'
// own: each shim process starts in a cgroup leaf of its own, whose cpu.stat counts it and everything it starts
// (its tools, the fake official CLIs it calls, orphans too), read by the runner as the leaf empties
// (RunResult.shimCpuMs). Both sides are the kernel's counts of the same processes over the same minutes, so
// they move together when the machine speeds up or slows down. The earlier measure, the suite's CPU minus
// the CPU of bare passes taken before and after it, set two large sums taken at different times against
// each other and read 0.18x and then 0.35x for the same code; it is kept beside this one as a cross-check.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The suite's CPU split into harness and shims, from the runner's own CPU, its children's, and the results'
 * per-run shim CPU (every attempt of a run played again counted). `measured` false: some run that spawned a
 * shim had no leaf CPU (no cgroup v2 here), and only the cross-check can be given.
 * @param {{ ownCpuMs: number, childrenCpuMs: number, results: readonly { shimCpuMs?: number, processes?: readonly unknown[] }[] }} input
 */
export function harnessCpu({ ownCpuMs, childrenCpuMs, results }) {
  let shimCpuMs = 0;
  let spawned = 0;
  let unmeasured = 0;
  for (const result of results) {
    if (!result.processes || result.processes.length === 0) continue;
    spawned += 1;
    if (result.shimCpuMs === undefined) unmeasured += 1;
    else shimCpuMs += result.shimCpuMs;
  }
  // Orphans a shim left count in its leaf but never in the runner's children (init reaps them): never below 0.
  const helpersCpuMs = Math.max(0, childrenCpuMs - shimCpuMs);
  return {
    measured: spawned > 0 && unmeasured === 0,
    spawned,
    unmeasured,
    shimCpuMs,
    ownCpuMs,
    helpersCpuMs,
    harnessCpuMs: ownCpuMs + helpersCpuMs,
  };
}

/** The median of a list (the upper middle one of an even count), as the bench judges its samples. */
export function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** Clock ticks per second of /proc's CPU times (getconf CLK_TCK; 100 where it cannot be asked). */
export function clockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/**
 * CPU ms of this process and of the children it has waited for (children: Linux only, undefined elsewhere).
 * @param {number} ticks clockTicks()
 */
export function cpuNow(ticks) {
  const own = process.cpuUsage();
  let children;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    children = ((Number(fields[13]) + Number(fields[14])) * 1000) / ticks; // cutime + cstime
  } catch {
    children = undefined;
  }
  return { own: (own.user + own.system) / 1000, children };
}
