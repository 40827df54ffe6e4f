// Everything platform dependent in the process layer takes a `platform` argument instead of reading
// process.platform, so the win32 branches run (and are tested) on Linux too.
import path from 'node:path';

export type PlatformName = NodeJS.Platform;

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
