// Everything platform dependent in the process layer takes a `platform` argument instead of reading
// process.platform, so the win32 branches run (and are tested) on Linux too. runnerPlatform() is the one place
// that decides which platform's paths a suite takes: the machine's own, or macOS's on Linux when
// YUME_CONFORMANCE_PLATFORM_PATHS=darwin says so (R20: the macOS paths run a whole suite on a Linux machine).
import path from 'node:path';
import { UsageError } from '../errors.js';

export type PlatformName = NodeJS.Platform;

/** Forces the runner onto another platform's code paths; only `darwin` on a POSIX machine is supported. */
export const PLATFORM_PATHS_VARIABLE = 'YUME_CONFORMANCE_PLATFORM_PATHS';

/**
 * The platform whose code paths the runner takes. With PLATFORM_PATHS_VARIABLE=darwin on Linux it is `darwin`:
 * the process table comes from `ps` (no /proc, so no run marker in environments and no cheap child lists),
 * isolation is the process group (no cgroup), no exit watcher, no CPU-wait clock and no /dev/shm scratch folder.
 */
export function runnerPlatform(
  env: NodeJS.ProcessEnv = process.env,
  actual: PlatformName = process.platform,
): PlatformName {
  const wanted = env[PLATFORM_PATHS_VARIABLE];
  if (wanted === undefined || wanted === '' || wanted === actual) return actual;
  if (wanted === 'darwin' && actual !== 'win32') return 'darwin';
  throw new UsageError(
    `${PLATFORM_PATHS_VARIABLE}=${wanted}: only "darwin" is supported, on a Linux or macOS machine (unset it to use this machine's own paths)`,
  );
}

/** Whether the platform has Linux's /proc: per-process stat, children, environ, cmdline and schedstat files. */
export function hasProcFiles(platform: PlatformName): boolean {
  return platform === 'linux' || platform === 'android';
}

/** The `path` flavour of a platform: path.win32 for Windows, path.posix everywhere else. */
export function pathFor(platform: PlatformName): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

export function isWindows(platform: PlatformName): boolean {
  return platform === 'win32';
}

/** POSIX platforms give each shim its own process group (execa `detached: true`); Windows opens a console instead. */
export function usesProcessGroups(platform: PlatformName): boolean {
  return platform !== 'win32';
}
