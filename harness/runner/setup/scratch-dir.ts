// Where a suite puts its scratch folders (each run's workspace, HOME, bin and TMPDIR, the git templates, the
// shared cache). Every run creates about twenty folders and files there and removes them again; on a disk
// filesystem such as ext4 that churn (inode allocation after many deletes, the journal) cost the runner about
// 4 ms of CPU per run, a sixth of its own work, measured with the default suite on Linux. A RAM filesystem
// makes it cheap, so on Linux the default is /dev/shm when it is a usable tmpfs.
//
// The choice, first that applies:
//   1. YUME_CONFORMANCE_SCRATCH_DIR (an absolute folder, created if missing);
//   2. a TMPDIR set by the user (os.tmpdir() then honours it): an explicit choice is kept;
//   3. Linux: /dev/shm, when it is a tmpfs mount that allows running programs (the run's bin folder holds
//      scripts), is writable, and has at least MIN_FREE_BYTES free (Docker gives it 64 MB by default);
//   4. os.tmpdir().
import { accessSync, constants, mkdirSync, readFileSync, statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runnerPlatform } from '../../process/platform.js';

export const SCRATCH_DIR_VARIABLE = 'YUME_CONFORMANCE_SCRATCH_DIR';
const SHARED_MEMORY = '/dev/shm';
/** A large-output run writes megabytes; a flooding shim up to the stdout cap. Below this, the disk is safer. */
export const MIN_FREE_BYTES = 2 * 1024 * 1024 * 1024;

export interface ScratchChoice {
  directory: string;
  /** Why this folder, in a few words. */
  reason: string;
}

export interface ScratchProbe {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The mount options of the mount at `dir` when it is a tmpfs, undefined when it is not (or unknown). */
  tmpfsOptions(dir: string): string[] | undefined;
  freeBytes(dir: string): number | undefined;
  writable(dir: string): boolean;
  tmpdir(): string;
}

/** Picks the scratch folder (see the file comment). */
export function chooseScratchDirectory(probe: ScratchProbe = systemProbe()): ScratchChoice {
  const configured = probe.env[SCRATCH_DIR_VARIABLE];
  if (configured) {
    if (!path.isAbsolute(configured))
      throw new Error(`${SCRATCH_DIR_VARIABLE}=${configured}: give an absolute folder (for example /var/tmp/yume)`);
    mkdirSync(configured, { recursive: true });
    return { directory: configured, reason: `${SCRATCH_DIR_VARIABLE}` };
  }
  const userTemp = probe.platform === 'win32' ? probe.env.TEMP || probe.env.TMP : probe.env.TMPDIR;
  if (userTemp) return { directory: probe.tmpdir(), reason: 'the temporary folder TMPDIR names' };
  if (probe.platform === 'linux') {
    const options = probe.tmpfsOptions(SHARED_MEMORY);
    const free = options ? probe.freeBytes(SHARED_MEMORY) : undefined;
    if (options && !options.includes('noexec') && free !== undefined && free >= MIN_FREE_BYTES) {
      if (probe.writable(SHARED_MEMORY)) return { directory: SHARED_MEMORY, reason: 'tmpfs, in memory' };
    }
  }
  return { directory: probe.tmpdir(), reason: 'the system temporary folder' };
}

let chosen: ScratchChoice | undefined;
/** The choice for this process, made once. */
export function scratchDirectory(): ScratchChoice {
  chosen ??= chooseScratchDirectory();
  return chosen;
}

/**
 * The choice for a suite. With the real official CLIs (`--cli real`) the runs stay in the system temporary
 * folder unless YUME_CONFORMANCE_SCRATCH_DIR says otherwise: that is where their sandboxes were tried.
 */
export function suiteScratchDirectory(cliMode: 'fake' | 'real' | undefined, env = process.env): ScratchChoice {
  if (cliMode === 'real' && !env[SCRATCH_DIR_VARIABLE])
    return { directory: os.tmpdir(), reason: 'the system temporary folder (real official CLIs)' };
  return scratchDirectory();
}

/** Mount options of the mount point `dir` when it is a tmpfs (from /proc/self/mountinfo). */
export function tmpfsMountOptions(mountinfo: string, dir: string): string[] | undefined {
  let found: string[] | undefined;
  for (const line of mountinfo.split('\n')) {
    // id parent major:minor root mount-point options [optional fields] - fstype source super-options
    const [before, after] = line.split(' - ');
    if (!before || !after) continue;
    const fields = before.split(' ');
    if (fields[4] !== dir) continue;
    // The last mount on a point is the one in effect.
    found = after.split(' ')[0] === 'tmpfs' ? (fields[5] ?? '').split(',') : undefined;
  }
  return found;
}

function systemProbe(): ScratchProbe {
  return {
    platform: runnerPlatform(),
    env: process.env,
    tmpfsOptions: (dir) => {
      try {
        return tmpfsMountOptions(readFileSync('/proc/self/mountinfo', 'utf8'), dir);
      } catch {
        return undefined;
      }
    },
    freeBytes: (dir) => {
      try {
        const stats = statfsSync(dir);
        return Number(stats.bavail) * Number(stats.bsize);
      } catch {
        return undefined;
      }
    },
    writable: (dir) => {
      try {
        accessSync(dir, constants.W_OK | constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
    tmpdir: () => os.tmpdir(),
  };
}
