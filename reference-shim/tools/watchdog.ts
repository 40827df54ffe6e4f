// Tools end with the shim however the shim ends (R6, R14). The app stops a shim with SIGKILL, which leaves the
// shim no chance to clean up, and Node offers no PR_SET_PDEATHSIG. So on POSIX each tool process (a Bash
// command, an official CLI) runs beside a watcher: a small `sh` that the shim starts as its own child, in a
// process group of its own, before the tool. The watcher holds one end of a pipe whose other end only the shim
// holds (fd 3). The shim writes the tool's pid (the leader of the tool's own group) to it once the tool is
// started; a read on it returns end-of-file when the shim closes its end, and the kernel closes it when the
// shim dies, however it dies. Then the watcher ends the tool's group and every process carrying the tool's
// run marker (Linux: children that left the group), and exits.
//
// On a normal end the shim itself ends what is left of the tool's group, then kills the watcher and waits for
// its exit before the tool counts as finished: a watcher never outlives its tool while the shim lives. (It is
// the shim's child, never an orphan of init: a run isolated by process group alone could not tell such an
// orphan from anyone else's. The watcher used to be forked by a wrapper that then became the tool, and was
// such an orphan from the tool's exit until the shim released it.)
//
// Windows keeps the plain spawn (no process groups there, no watcher).
import type { ChildProcess, spawn as spawnFunction } from 'node:child_process';
import { RUN_MARKER_VARIABLE } from './process-tree.js';

/** The watcher's argv[0] (and `$0`): what `ps` shows of it, without the tool's command line. */
export const WATCHER_NAME = 'yume-tool-watchdog';

/** The descriptor of the pipe the watcher holds (the first after stdin, stdout and stderr). */
export const GUARD_FD = 3;

/** How long the shim waits for a killed watcher to exit (it dies at once; this only bounds a stuck reap). */
const WATCHER_EXIT_WAIT_MS = 2000;

/**
 * The watcher's script ($1: the run marker). It reads the tool's group from fd 3, then waits for EOF there.
 * It ends the group at once with SIGTERM, kills the tool's marked processes, then the whole group. The group
 * goes first: until it is gone its processes are orphans of init, which a run isolated by process group alone
 * cannot tell from anyone else's. Without a group (the shim died before it could name one) it still kills
 * the marked processes.
 */
const WATCHER_SCRIPT = [
  'read group <&3',
  'read _ <&3',
  "case $group in ''|*[!0-9]*) group= ;; esac",
  'if [ -n "$group" ]; then kill -s TERM -- "-$group"; fi',
  // Linux: every process with the run marker, even one that left the group (`setsid cmd &`). The watcher's
  // own environment has no marker (watcherCommand removes it), so it does not kill itself here.
  `if [ -r /proc/self/environ ]; then for f in $(grep -lsxzF "${RUN_MARKER_VARIABLE}=$1" /proc/[0-9]*/environ); do p=\${f#/proc/}; kill -s KILL "\${p%/environ}"; done; fi`,
  'if [ -n "$group" ]; then kill -s KILL -- "-$group"; fi',
].join('\n');

export interface WatcherCommand {
  file: string;
  args: string[];
  argv0: string;
  env: NodeJS.ProcessEnv;
}

/** The tool's environment: the caller's, with the run marker that ties every descendant to this run. */
export function markedEnv(env: NodeJS.ProcessEnv, marker: string): NodeJS.ProcessEnv {
  return { ...env, [RUN_MARKER_VARIABLE]: marker };
}

/**
 * How to start the watcher of the tool marked `marker`: spawned detached (its own process group, so a signal
 * to the shim's group or the tool's does not reach it) with `'pipe'` as stdio[GUARD_FD] and nothing else.
 */
export function watcherCommand(options: { env: NodeJS.ProcessEnv; marker: string }): WatcherCommand {
  const env = { ...options.env };
  delete env[RUN_MARKER_VARIABLE];
  return { file: '/bin/sh', args: ['-c', WATCHER_SCRIPT, WATCHER_NAME, options.marker], argv0: WATCHER_NAME, env };
}

/** The line that names the tool's process group to the watcher. */
export function groupLine(pid: number): string {
  return `${pid}\n`;
}

type Spawn = typeof spawnFunction;

/**
 * One tool's watcher, seen from the shim: start() before the tool, watch(pid) once it runs, stop() once the
 * tool's group is ended (before the tool counts as finished), killNow() when the shim exits. A no-op on Windows.
 */
export class ToolWatchdog {
  private constructor(private watcher: ChildProcess | undefined) {}

  static start(spawn: Spawn, options: { env: NodeJS.ProcessEnv; marker: string; platform: NodeJS.Platform }) {
    if (options.platform === 'win32') return new ToolWatchdog(undefined);
    const command = watcherCommand(options);
    let watcher: ChildProcess;
    try {
      watcher = spawn(command.file, command.args, {
        argv0: command.argv0,
        env: command.env,
        detached: true,
        stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
      });
    } catch {
      return new ToolWatchdog(undefined); // the tool then runs unguarded; the shim still ends it itself
    }
    watcher.on('error', () => undefined); // could not start (EAGAIN...): as above
    guardOf(watcher)?.on('error', () => undefined); // the watcher is gone: nothing to tell it
    // Neither keeps the shim alive: should the shim exit with a watcher left, its guard closes and it cleans up.
    watcher.unref();
    guardOf(watcher)?.unref?.();
    return new ToolWatchdog(watcher);
  }

  /** Names the tool's process group (the tool's pid: it leads its own group) to the watcher. */
  watch(pid: number | undefined): void {
    if (pid !== undefined) guardOf(this.watcher)?.write(groupLine(pid));
  }

  /** Kills the watcher (SIGKILL: it must not end anything now) and waits, bounded, until it has exited. */
  async stop(): Promise<void> {
    const watcher = this.watcher;
    this.watcher = undefined;
    if (!watcher) return;
    if (watcher.pid !== undefined && watcher.exitCode === null && watcher.signalCode === null) {
      let timer: NodeJS.Timeout | undefined;
      const exited = new Promise<void>((resolve) => {
        watcher.once('exit', () => resolve());
        timer = setTimeout(resolve, WATCHER_EXIT_WAIT_MS);
      });
      killQuietly(watcher.pid);
      await exited;
      clearTimeout(timer);
    }
    guardOf(watcher)?.destroy();
  }

  /** The shim is exiting: kill the watcher now, without waiting (nothing can wait in an 'exit' handler). */
  killNow(): void {
    const watcher = this.watcher;
    this.watcher = undefined;
    if (watcher?.pid !== undefined) killQuietly(watcher.pid);
    guardOf(watcher)?.destroy();
  }
}

function guardOf(watcher: ChildProcess | undefined) {
  return watcher?.stdio[GUARD_FD] as (NodeJS.WritableStream & { destroy(): void; unref?(): void }) | null | undefined;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
