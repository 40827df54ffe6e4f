// The end of a started shim, in order: its exit (or the kill asked for while it ran), the stdout a descendant
// may hold open, the descendants it left, and the tree killed where needed. Every path through here ends with
// no process left behind.
import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { loopStalls } from '../loop-stalls.js';
import { isWindows } from '../platform.js';
import type { ProcessInfo } from '../process-table.js';
import type { ShimExit } from '../shim-process.js';
import { waitForStdioClose } from '../stdio-close-wait.js';
import { withTimeout } from '../timer-scope.js';
import { untiedOrphans } from '../untied-orphans.js';
import { exitRecord } from './exit-record.js';
import type { ProcessEnd, ShimRun } from './shim-run.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for the shim and its tree to be gone and collects what happened. Never rejects. */
export async function endShim(run: ShimRun): Promise<ShimExit> {
  const { exit, exitedAtMs } = await exitOrKill(run);
  const cpuWaitAtExitMs = run.cpuWait();
  run.exitSeen = true;
  const watched = exitedAtMs === undefined ? undefined : run.exitWatch?.interval();
  run.exitWatch?.stop();
  run.timeout.clear();

  // Stdout still open after the exit means a descendant holds it: wait a little (of the shim's own time), then end
  // them. Where the machine took the time instead, the wait is undecided (stdio-close-wait.ts).
  const stdio = await waitForStdioClose({
    closed: run.stdioClosed,
    graceMs: run.settings.stdioGraceMs,
    cpuWait: run.cpuWait,
    stalledMsBetween: (from, to) => loopStalls.stalledMsBetween(from, to),
  });
  const closedInTime = stdio.closed;
  const stdioHeldOpen = !closedInTime;
  const left = await descendantsAfterGrace(run, stdioHeldOpen);
  // Closed on its own after the grace, before anything was ended: no one held it, it was only late. Still open here,
  // something holds it, whether or not the table could tie that process to the run.
  const closedUnaided =
    stdioHeldOpen &&
    (await withTimeout(
      run.stdioClosed.then(() => true),
      0,
      false,
    ));
  const { table, cgroup, platform } = run.settings;
  if (left.length > 0 || stdioHeldOpen || run.killRequested)
    await run.tree.killEverything(table.info ? undefined : left);
  run.tree.tracker?.stop();
  if (!closedInTime) await releaseStdio(run.subprocess, run.stdioClosed);
  run.untrack();
  const cpuMs = await cgroup?.remove();
  // Windows never reparents to init (its children keep naming the dead parent): nothing to look for there.
  const untied =
    !cgroup && !isWindows(platform) && run.pid !== undefined
      ? await untiedOrphans(table, run.pid, run.tree.tracker)
      : [];
  return exitRecord(run, {
    exit,
    exitedAtMs,
    cpuWaitAtExitMs,
    watched,
    stdioHeldOpen,
    stdioUndecided: stdioHeldOpen && stdio.undecided && closedUnaided,
    left,
    untied,
    cpuMs,
  });
}

/** The shim's exit; or, when a kill was asked for first (timeout, flood, the runner), the tree ended and then its exit. */
async function exitOrKill(run: ShimRun): Promise<{ exit: ProcessEnd; exitedAtMs: number | undefined }> {
  const exit = await Promise.race([run.exited, run.killAsked.then(() => undefined)]);
  if (exit !== undefined) return { exit, exitedAtMs: run.elapsedMs() };
  // Timeout, flood or an explicit kill while the shim still ran.
  await run.tree.killEverything();
  return { exit: await withTimeout(run.exited, 5000, { code: null, signal: 'SIGKILL' }), exitedAtMs: undefined };
}

/**
 * Descendants still running after the shim is gone: give them a moment to finish on their own. While
 * waiting, only the ones known are looked at again (a full sweep of the process table each 100 ms cost
 * more than anything else the harness does while a run ends); one more full sweep before deciding.
 */
async function descendantsAfterGrace(run: ShimRun, stdioHeldOpen: boolean): Promise<ProcessInfo[]> {
  let left = await run.tree.alive();
  // The grace is the descendants' time, not the runner's: stretches in which its loop stalled are added.
  const graceStart = performance.now();
  const graceEnd = graceStart + (stdioHeldOpen ? 0 : run.settings.descendantGraceMs);
  const graceLeft = () => performance.now() < graceEnd + loopStalls.stalledMsBetween(graceStart, performance.now());
  let waited = false;
  while (left.length > 0 && graceLeft()) {
    await sleep(100);
    waited = true;
    left = await run.tree.alive(false);
  }
  // Where the table cannot look up one process (Windows, `ps`), every look in the loop was a full sweep already.
  if (waited && left.length === 0 && run.settings.table.info) left = await run.tree.alive();
  return left;
}

/** Stdio a descendant held open: the kill closes it, or it is torn down after 2 s. */
async function releaseStdio(subprocess: ChildProcess, stdioClosed: Promise<unknown>): Promise<void> {
  const closedAfterKill = await withTimeout(
    stdioClosed.then(() => true),
    2000,
    false,
  );
  if (!closedAfterKill) {
    subprocess.stdout?.destroy();
    subprocess.stderr?.destroy();
  }
}
