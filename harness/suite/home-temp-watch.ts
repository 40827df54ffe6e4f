// workspace.outside-home-temp: a shim that finds the home through the password database (getent passwd,
// os.userInfo().homedir) or writes to a fixed /tmp ignores the HOME and TMPDIR a run gives it, and writes into
// the user's real home or the system temp folder. The top level of each is listed before the suite's first run
// and after its last; what is new is a note on the suite (INFO): runs go in parallel, so no run can be blamed,
// and other programs of the machine write there too. Only entries owned by the user the shims run as (the
// runner's own: it starts them) are listed, since no shim can make another user's; that user's other programs
// may still add some. The runner's own folders and the caches of programs the runner knows are never listed.
// Nothing found there is removed: it is not the runner's to delete.
import { lstatSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PlatformName } from '../process/platform.js';
import { runFinding } from '../rules/finding.js';
import type { Finding } from '../rules/types.js';

/** Point the watch at other folders (tests do, so that no test writes into a developer's real home). */
export const REAL_HOME_VARIABLE = 'YUME_CONFORMANCE_REAL_HOME';
export const SYSTEM_TEMP_VARIABLE = 'YUME_CONFORMANCE_SYSTEM_TEMP';

export interface WatchedRoot {
  /** What it is, for the message: "the real home", "the system temp folder". */
  label: string;
  folder: string;
  /** The variable a shim that writes here ignored. */
  variable: string;
}

/** Paths shown per root: a busy machine's temp folder can gain many entries in a long suite. */
const SHOWN_ENTRIES = 20;

/** Entries of the runner and of programs it knows: its scratch folders, Node's and the reference shim's caches. */
const KNOWN_ENTRIES: readonly RegExp[] = [
  /^yume-conformance-/, // the runner's run folders, git templates and shared cache (scratch-dir.ts)
  /^yume-tests-/, // the project's own tests' scratch folder (test/global-setup.ts)
  /^node-compile-cache$/, // Node's module compile cache of the runner itself (cli/main.ts)
  /^yume-shim-cache-/, // the reference shim's compile cache outside a suite (reference-shim/launcher)
  /^vitest-/,
];

function realHome(): string {
  try {
    return os.userInfo().homedir; // the password database's answer, whatever HOME says
  } catch {
    return os.homedir();
  }
}

/** The real home and the system temp folder (HOME and TMPDIR ignored), unless the variables above name others. */
export function defaultWatchedRoots(platform: PlatformName, env: NodeJS.ProcessEnv = process.env): WatchedRoot[] {
  const home = env[REAL_HOME_VARIABLE] || realHome();
  const windows = platform === 'win32';
  const temp = env[SYSTEM_TEMP_VARIABLE] || (windows ? path.join(realHome(), 'AppData', 'Local', 'Temp') : '/tmp');
  return [
    { label: 'the real home', folder: home, variable: windows ? 'USERPROFILE' : 'HOME' },
    { label: 'the system temp folder', folder: temp, variable: windows ? 'TEMP' : 'TMPDIR' },
  ];
}

function topLevel(folder: string): Set<string> | undefined {
  try {
    return new Set(readdirSync(folder));
  } catch {
    return undefined;
  }
}

/** The top-level entry of `root` that holds `folder`, when `folder` is inside `root`. */
function entryHolding(root: string, folder: string): string | undefined {
  const relative = path.relative(path.resolve(root), path.resolve(folder));
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep)[0];
}

/** The uid that owns a path (undefined where it cannot be read, or the platform has no owners: Windows). */
export type OwnerOf = (file: string) => number | undefined;

function ownerOf(file: string): number | undefined {
  try {
    return lstatSync(file).uid;
  } catch {
    return undefined;
  }
}

/** Whose entries are listed: the user the shims run as (the runner's), and how to read an entry's owner. */
export interface EntryOwner {
  uid: number | undefined;
  ownerOf: OwnerOf;
}

/** The runner's user, which every shim it starts runs as (undefined on Windows: every entry is listed). */
export function shimUser(): EntryOwner {
  return { uid: process.getuid?.(), ownerOf };
}

/** A listing of the watched roots, taken before the suite; finish() compares with a second one. */
export class HomeTempWatch {
  private constructor(
    private readonly roots: readonly WatchedRoot[],
    private readonly before: readonly (Set<string> | undefined)[],
    /** The runner's own folders (scratch, cache): the entry of a root that holds one is never listed. */
    private readonly own: readonly string[],
    private readonly owner: EntryOwner,
  ) {}

  static start(roots: readonly WatchedRoot[], own: readonly string[] = [], owner = shimUser()): HomeTempWatch {
    return new HomeTempWatch(
      roots,
      roots.map((root) => topLevel(root.folder)),
      own,
      owner,
    );
  }

  /** An entry another user owns was made by none of the shims (they run as the runner's user). */
  private shimsCouldMake(file: string): boolean {
    const { uid, ownerOf: owner } = this.owner;
    if (uid === undefined) return true;
    const found = owner(file);
    return found === undefined || found === uid;
  }

  /** New entries of each root since start(), as one note per root (none when nothing is new). */
  finish(): Finding[] {
    const findings: Finding[] = [];
    this.roots.forEach((root, index) => {
      const before = this.before[index];
      const after = topLevel(root.folder);
      if (!before || !after) return; // unreadable before or after: nothing to compare
      const runners = new Set(this.own.map((folder) => entryHolding(root.folder, folder)));
      const added = [...after]
        .filter((name) => !before.has(name) && !runners.has(name))
        .filter((name) => !KNOWN_ENTRIES.some((pattern) => pattern.test(name)))
        .filter((name) => this.shimsCouldMake(path.join(root.folder, name)))
        .sort();
      if (added.length === 0) return;
      const shown = added.slice(0, SHOWN_ENTRIES).map((name) => path.join(root.folder, name));
      const more = added.length > shown.length ? ` … and ${added.length - shown.length} more` : '';
      findings.push(
        runFinding(
          'workspace.outside-home-temp',
          `new in ${root.label} (${root.folder}) during the suite, where a shim that ignores ${root.variable} writes (${this.whose()}; runs go in parallel, so no run is blamed): ${shown.join(', ')}${more}`,
        ),
      );
    });
    return findings;
  }

  /** Which entries the note lists, and who else may have made them. */
  private whose(): string {
    const { uid } = this.owner;
    return uid === undefined
      ? 'other programs on this machine may have made them too'
      : `only entries of the user the shims run as (uid ${uid}) are listed; that user's other programs may have made them too`;
  }
}
