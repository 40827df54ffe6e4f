// Tools end with the shim however the shim ends (R6, R14). The app stops a shim with SIGKILL, which leaves the
// shim no chance to clean up, and Node offers no PR_SET_PDEATHSIG. So on POSIX each tool process (a Bash
// command, an official CLI) is started through `/bin/sh`, which first forks a watcher and then execs the
// tool in its own place: same pid, same process group (the shim made it the group's leader), same exit
// status. The watcher holds the read end of a pipe whose other end only the shim holds (fd 3). A read on it
// returns when the shim closes its end, and the kernel closes it when the shim dies, however it dies. Then
// the watcher kills every process carrying the tool's run marker (Linux: children that left the group) and
// the whole process group, itself included. Windows keeps the plain spawn (no process groups there).
import type { ChildProcess } from 'node:child_process';
import { RUN_MARKER_VARIABLE } from './process-tree.js';

/**
 * The watcher: waits for EOF on fd 3, then ends the tool's process group at once with SIGTERM (which the
 * watcher itself ignores, so it lives on to finish), kills the tool's marked processes, then the whole group.
 * The group goes first: until it is gone its processes are orphans of init, which a run isolated by process
 * group alone cannot tell from anyone else's.
 */
const WATCHER_SCRIPT = [
  'read _ <&3',
  "trap '' TERM",
  'kill -s TERM 0',
  // Linux: every process with the run marker, even one that left the group (`setsid cmd &`). The watcher's
  // own environment has no marker: the wrapper exports it after forking the watcher.
  `if [ -r /proc/self/environ ]; then for f in $(grep -lsxzF "${RUN_MARKER_VARIABLE}=$1" /proc/[0-9]*/environ); do p=\${f#/proc/}; kill -s KILL "\${p%/environ}"; done; fi 2>/dev/null`,
  'kill -s KILL 0',
].join('\n');

/**
 * The wrapper: the watcher in the background (its own command line, without the tool's, so that nothing
 * looking for the tool by its command line mistakes it), then the tool, exec'd without fd 3.
 */
const WRAPPER_SCRIPT = `(exec sh -c "$1" yume-tool-watchdog "$2") </dev/null >/dev/null 2>&1 &
export ${RUN_MARKER_VARIABLE}="$2"
shift 2
exec "$@" 3<&-`;

/** The descriptor of the pipe the watcher holds (the first after stdin, stdout and stderr). */
export const GUARD_FD = 3;

export interface WatchedSpawn {
  file: string;
  args: string[];
  /** Environment of the started process: the run marker is set by the wrapper (POSIX) or here (Windows). */
  env: NodeJS.ProcessEnv;
  /** Whether stdio needs the guard pipe as descriptor GUARD_FD. */
  guarded: boolean;
}

/**
 * How to start `file args` so that it dies with the shim. The caller spawns it detached (its own process
 * group) with `'pipe'` as stdio[GUARD_FD] when `guarded`, and calls releaseGuard() once the tool is done.
 */
export function watchedSpawn(
  file: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; marker: string; platform: NodeJS.Platform },
): WatchedSpawn {
  if (options.platform === 'win32')
    return { file, args: [...args], env: { ...options.env, [RUN_MARKER_VARIABLE]: options.marker }, guarded: false };
  const env = { ...options.env };
  delete env[RUN_MARKER_VARIABLE];
  return {
    file: '/bin/sh',
    args: ['-c', WRAPPER_SCRIPT, 'yume-tool', WATCHER_SCRIPT, options.marker, file, ...args],
    env,
    guarded: true,
  };
}

/**
 * Closes the shim's end of the guard pipe: the watcher then ends what is left of the tool's group. Also lets
 * the child's 'close' event fire (Node waits for every stdio pipe the child was given).
 */
export function releaseGuard(child: ChildProcess | undefined): void {
  const guard = child?.stdio[GUARD_FD] as { destroy?: () => void } | null | undefined;
  guard?.destroy?.();
}
