// What a run records when its shim could not be started at all: a missing file, one that is not executable or
// not a program, or arguments Node refuses. Each reason is a sentence a shim author can act on.
import type { SpawnCommand } from './shim-command.js';
import type { ShimExit, ShimProcess } from './shim-process.js';

/** A shim that could not be started: its process handle, already done. */
export function notStarted(command: SpawnCommand, reason: string, elapsedMs: () => number): ShimProcess {
  return {
    pid: undefined,
    command,
    elapsedMs,
    write: () => false,
    closeStdin: () => undefined,
    signalGroup: () => false,
    kill: () => undefined,
    descendants: () => [],
    done: Promise.resolve(emptyExit(command, reason)),
  };
}

function emptyExit(command: SpawnCommand, spawnError: string): ShimExit {
  return {
    command,
    pid: undefined,
    stdout: Buffer.alloc(0),
    stdoutChunks: [],
    stdoutBytes: 0,
    stderr: Buffer.alloc(0),
    stderrBytes: 0,
    exitCode: null,
    signal: null,
    spawnError,
    timedOut: false,
    flooded: false,
    stdioHeldOpen: false,
    exitedAtMs: undefined,
    endedAtMs: 0,
    descendantsSeen: [],
    descendantsLeft: [],
    descendantsKilled: [],
    killedByHarness: false,
  };
}

/**
 * Started through the cgroup wrapper, a shim that cannot be executed makes /bin/sh's exec fail (126, 127)
 * instead of raising a spawn error: the same sentence as describeSpawnError gives.
 */
export function wrapperStartFailure(started: {
  /** The wrapper's exit code. */
  code: number | null;
  stdoutBytes: number;
  stderr: Buffer;
  /** The shim as the user named it. */
  shim: string;
  /** The cgroup leaf's path: dash names the join script by it. */
  leaf: string;
}): string | undefined {
  const { code, stdoutBytes, stderr, shim, leaf } = started;
  if ((code !== 126 && code !== 127) || stdoutBytes > 0) return undefined;
  // The join script's complaints start with its name: /bin/sh, or (dash) its $0, which is the cgroup leaf.
  const said = stderr.toString('utf8').split('\n');
  if (!said.some((line) => line.startsWith('/bin/sh: ') || line.startsWith(`${leaf}: `))) return undefined;
  if (code === 127) return `${shim}: no such file or command (check the path, or that it is on PATH)`;
  return `${shim}: permission denied (make it executable: chmod +x, or give a .js file)`;
}

/** A spawn error as a sentence a shim author can act on. */
export function describeSpawnError(error: Error, shim: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `${shim}: no such file or command (check the path, or that it is on PATH)`;
  if (code === 'EACCES') return `${shim}: permission denied (make it executable: chmod +x, or give a .js file)`;
  if (code === 'ENOEXEC') return `${shim}: not an executable format (add a shebang line or give a .js file)`;
  return `${shim}: ${error.message}`;
}
