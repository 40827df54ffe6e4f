// Paths to the pinned real CLIs for tests, for root and for the unprivileged user. The install cache lives
// under root's HOME, which that user cannot enter, so its folders are mirrored with hard links (instant,
// no copy; a copy across file systems) into a folder under the system temp directory that everybody can read.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OfficialCliName } from '../../harness/official-cli/script-types.js';
// @ts-expect-error: a plain .mjs script without types
import { ensureRealProgram, realProgramsDir } from '../../scripts/real-programs.mjs';

export const UNPRIVILEGED_USER = 'yume-real';

export function realCliPath(cli: OfficialCliName): string {
  return ensureRealProgram(cli) as string;
}

/** The executable as a path the unprivileged user can run. */
export function realCliPathForAnyone(cli: OfficialCliName): string {
  const executable = realCliPath(cli);
  const cache = realProgramsDir() as string;
  const relative = path.relative(cache, executable);
  const install = relative.split(path.sep)[0]!;
  const shared = path.join(os.tmpdir(), 'yume-conformance-shared-programs');
  const target = path.join(shared, install);
  if (!existsSync(target)) {
    mkdirSync(shared, { recursive: true, mode: 0o755 });
    const partial = `${target}.partial-${process.pid}`;
    try {
      execFileSync('cp', ['-al', path.join(cache, install), partial], { stdio: 'ignore' });
    } catch {
      // Another file system: hard links cannot cross it, so copy.
      execFileSync('rm', ['-rf', partial]);
      execFileSync('cp', ['-a', path.join(cache, install), partial]);
    }
    execFileSync('mv', [partial, target]);
  }
  return path.join(shared, relative);
}

/** uid and gid of the unprivileged user (test-real-setup creates it). */
export function unprivilegedUser(): { uid: number; gid: number; name: string } {
  const uid = Number(execFileSync('id', ['-u', UNPRIVILEGED_USER], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', UNPRIVILEGED_USER], { encoding: 'utf8' }).trim());
  return { uid, gid, name: UNPRIVILEGED_USER };
}
