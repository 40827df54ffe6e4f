// What a run records of its shim once the shim and its tree are gone (ShimExit): the output, the exit, the
// timing and what the harness found and ended of the tree.
import type { ExitInterval } from '../exit-watcher.js';
import type { ProcessInfo } from '../process-table.js';
import type { ShimExit } from '../shim-process.js';
import { describeSpawnError, wrapperStartFailure } from '../start-failure.js';
import type { ProcessEnd, ShimRun } from './shim-run.js';

/** What the end of the run found (shim-ending.ts). */
export interface EndFacts {
  exit: ProcessEnd;
  /** ms since spawn at which the shim exited on its own (undefined: it was killed). */
  exitedAtMs: number | undefined;
  cpuWaitAtExitMs: number | undefined;
  /** The exit as the exit watcher saw it, if it watched. */
  watched: ExitInterval | undefined;
  stdioHeldOpen: boolean;
  /** The pipes stayed open past the grace, but the machine, not the shim, may have taken the time. */
  stdioUndecided: boolean;
  /** Descendants still running after the grace. */
  left: ProcessInfo[];
  untied: ProcessInfo[];
  /** CPU ms of the shim and what it started, from its cgroup leaf, where there is one. */
  cpuMs: number | undefined;
}

export function exitRecord(run: ShimRun, facts: EndFacts): ShimExit {
  const { exit, watched, cpuWaitAtExitMs, untied } = facts;
  const { output, tree } = run;
  const started = run.settings.started;
  const tableUnreadable = tree.tracker?.tableUnreadable();
  return {
    command: run.settings.command,
    pid: run.pid,
    stdout: output.stdout(),
    stdoutChunks: output.stdoutChunks,
    stdoutBytes: output.stdoutBytes,
    stderr: output.stderr(),
    stderrBytes: output.stderrBytes,
    exitCode: exit.code,
    signal: exit.signal,
    spawnError: startFailure(run, exit),
    timedOut: run.timedOut,
    ...(run.timeoutUndecided ? { timeoutUndecided: true } : {}),
    flooded: output.flooded,
    stdioHeldOpen: facts.stdioHeldOpen,
    ...(facts.stdioUndecided ? { stdioUndecided: true } : {}),
    exitedAtMs: facts.exitedAtMs,
    endedAtMs: run.elapsedMs(),
    startedAt: started,
    ...(cpuWaitAtExitMs === undefined ? {} : { cpuWaitAtExitMs }),
    ...(watched
      ? {
          exitInterval: {
            ...(watched.aliveAt === undefined ? {} : { aliveAtMs: watched.aliveAt - started }),
            goneByMs: watched.goneBy - started,
          },
        }
      : {}),
    spawnMs: run.settings.spawnMs,
    ...(facts.cpuMs === undefined ? {} : { cpuMs: facts.cpuMs }),
    descendantsSeen: tree.tracker?.seen() ?? [],
    descendantsLeft: facts.left,
    descendantsKilled: [...tree.killed.values()],
    killedByHarness: tree.killedByHarness,
    ...(tree.treeKillFailures.length > 0 ? { treeKillFailures: tree.treeKillFailures } : {}),
    ...(tree.survivors.length > 0 ? { survivors: tree.survivors } : {}),
    ...(tableUnreadable ? { processTableUnreadable: tableUnreadable } : {}),
    ...(untied.length > 0 ? { untied } : {}),
  };
}

/** Why the shim could not be started, where it could not: a spawn error, or the cgroup wrapper's exec failing. */
function startFailure(run: ShimRun, exit: ProcessEnd): string | undefined {
  const { shim, cgroup } = run.settings;
  if (exit.error) return describeSpawnError(exit.error, shim);
  if (!cgroup) return undefined;
  return wrapperStartFailure({
    code: exit.code,
    stdoutBytes: run.output.stdoutBytes,
    stderr: run.output.stderr(),
    shim,
    leaf: cgroup.path,
  });
}
