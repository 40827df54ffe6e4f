// The run's temporary directories (workspace seeded from the scenario's fixtures, an isolated HOME, a bin
// folder for auth helpers and fake CLIs) and the side-effect check: the workspace after the run against
// transcripts/<id>/workspace-after/ (or against the fixtures, when the run must change nothing).

import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import {
  constants,
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { runFinding } from '../../rules/finding.js';
import type { Finding } from '../../rules/types.js';
import { scratchDirectory } from './scratch-dir.js';

export interface RunDirectories {
  root: string;
  workspace: string;
  home: string;
  /** Put first on PATH: auth helpers (gcloud, gh) and fake CLIs. */
  bin: string;
  /** Harness state files (fake CLI state and log, history files). */
  state: string;
  /** The shim's TMPDIR (TEMP, TMP): its temporary files stay inside the run's folder and go with it. */
  temp: string;
}

/**
 * Creates fresh directories for one run; the workspace holds a copy of `fixtures` (if any). With
 * `gitObjects` (the fixtures' own `.git/objects`, which outlives the run), the copy's repository borrows
 * its objects from there (git's alternates) instead of copying every object file: most of a small
 * repository's files and folders are objects, and a run that commits writes its new objects to its own copy.
 *
 * The file operations of a run's folder are synchronous on purpose (here, in removeRunDirectories and
 * snapshotTree): they are a few dozen small files, and each asynchronous one is a round trip through libuv's
 * thread pool (a wake-up, a hand-back and a callback). Measured on a tmpfs scratch folder: creating and removing a
 * run's folders took 4.5 ms of CPU asynchronously and 1.5 ms synchronously.
 */
export async function createRunDirectories(
  label: string,
  fixtures: string | undefined,
  /** `base`: where the run folder is made (default: scratchDirectory(), scratch-dir.ts). */
  options: { gitObjects?: string; base?: string } = {},
): Promise<RunDirectories> {
  const base = options.base ?? scratchDirectory().directory;
  // realpath: on macOS the temp dir is a symlink (/var → /private/var); shims may print either spelling.
  const root = realpathSync(mkdtempSync(path.join(base, `yume-conformance-${label.replace(/[^a-z0-9-]/gi, '_')}-`)));
  const directories: RunDirectories = {
    root,
    workspace: path.join(root, 'workspace'),
    home: path.join(root, 'home'),
    bin: path.join(root, 'bin'),
    state: path.join(root, 'state'),
    temp: path.join(root, 'tmp'),
  };
  for (const dir of [directories.home, directories.bin, directories.state, directories.temp]) mkdirSync(dir);
  if (fixtures && options.gitObjects) {
    const objects = path.join(fixtures, '.git', 'objects');
    copyTree(fixtures, directories.workspace, (source) => source === objects);
    mkdirSync(path.join(directories.workspace, '.git', 'objects', 'info'), { recursive: true });
    // Forward slashes: git reads this file the same way on every platform.
    writeFileSync(
      path.join(directories.workspace, '.git', 'objects', 'info', 'alternates'),
      `${options.gitObjects.split(path.sep).join('/')}\n`,
    );
  } else if (fixtures) copyTree(fixtures, directories.workspace);
  else mkdirSync(directories.workspace);
  return directories;
}

/** The names the runner makes in a run's folder (the workspace's parent); anything else there is the run's doing. */
export function runnerEntries(directories: RunDirectories): string[] {
  const { workspace, home, bin, state, temp } = directories;
  return [workspace, home, bin, state, temp].map((dir) => path.basename(dir));
}

/**
 * Copies a tree as it is: directories, files (copy-on-write where the filesystem can; libuv keeps the mode),
 * symlinks verbatim. Every run copies its workspace (a git repository), and fs.cp stats each entry on both
 * sides and sets modes one call at a time: this is a third of the system calls.
 */
export function copyTree(from: string, to: string, skip?: (source: string) => boolean): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (skip?.(source)) continue;
    if (entry.isDirectory()) copyTree(source, target, skip);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else copyFileSync(source, target, constants.COPYFILE_FICLONE);
  }
}

/** Removes a run's folders (rejects when it cannot): removeRunDirectories, or a test's stand-in. */
export type DirectoryRemover = (directories: RunDirectories) => Promise<void>;

export async function removeRunDirectories(directories: RunDirectories): Promise<void> {
  try {
    rmSync(directories.root, { recursive: true, force: true });
  } catch {
    // Something still holds a file (Windows: a process the run left is still ending): retry without blocking
    // the other runs while waiting.
    await rm(directories.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

export type TreeEntry =
  | { kind: 'file'; hash: string; text?: string; size: number }
  | { kind: 'dir' }
  | { kind: 'symlink'; target: string };

/** Text files compare with line endings normalised: git may check fixtures out with CRLF on Windows. */
function fileEntry(content: Buffer): TreeEntry {
  if (isUtf8(content)) {
    const text = content.toString('utf8').replace(/\r\n/g, '\n');
    return { kind: 'file', hash: createHash('sha256').update(text).digest('hex'), text, size: content.length };
  }
  return { kind: 'file', hash: createHash('sha256').update(content).digest('hex'), size: content.length };
}

/**
 * Every entry under `dir`, keyed by its relative path with / separators. A missing dir is an empty tree. The
 * workspace's own `.git` is left out: it is the harness's fixture commit (git-workspace.ts), and git rewrites
 * its index whenever a tool runs `git status`.
 */
export async function snapshotTree(dir: string | undefined): Promise<Map<string, TreeEntry>> {
  const tree = new Map<string, TreeEntry>();
  if (!dir) return tree;
  const walk = (absolute: string, relative: string): void => {
    let names: string[];
    try {
      names = readdirSync(absolute).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (relative === '' && name === '.git') continue;
      const childAbsolute = path.join(absolute, name);
      const childRelative = relative ? `${relative}/${name}` : name;
      const stats = lstatSync(childAbsolute);
      if (stats.isSymbolicLink()) tree.set(childRelative, { kind: 'symlink', target: readlinkSync(childAbsolute) });
      else if (stats.isDirectory()) {
        tree.set(childRelative, { kind: 'dir' });
        walk(childAbsolute, childRelative);
      } else tree.set(childRelative, fileEntry(readFileSync(childAbsolute)));
    }
  };
  walk(dir, '');
  return tree;
}

/** First differing line of two texts, for a readable message. */
function firstLineDifference(expected: string, observed: string): string {
  const want = expected.split('\n');
  const got = observed.split('\n');
  for (let index = 0; index < Math.max(want.length, got.length); index += 1) {
    if (want[index] !== got[index]) {
      const show = (line: string | undefined) =>
        line === undefined ? '(end of file)' : JSON.stringify(line.length > 80 ? `${line.slice(0, 79)}…` : line);
      return `line ${index + 1}: expected ${show(want[index])}, found ${show(got[index])}`;
    }
  }
  return 'content differs';
}

/** Differences between the expected tree and the workspace, one sentence each. */
export function treeDifferences(expected: Map<string, TreeEntry>, actual: Map<string, TreeEntry>): string[] {
  const differences: string[] = [];
  for (const [name, want] of expected) {
    const got = actual.get(name);
    if (!got) differences.push(`${name}: missing (expected a ${want.kind})`);
    else if (got.kind !== want.kind) differences.push(`${name}: expected a ${want.kind}, found a ${got.kind}`);
    else if (want.kind === 'file' && got.kind === 'file' && want.hash !== got.hash) {
      differences.push(
        `${name}: ${want.text !== undefined && got.text !== undefined ? firstLineDifference(want.text, got.text) : `binary content differs (${want.size} bytes expected, ${got.size} found)`}`,
      );
    } else if (want.kind === 'symlink' && got.kind === 'symlink' && want.target !== got.target) {
      differences.push(`${name}: symlink to ${got.target}, expected ${want.target}`);
    }
  }
  for (const [name, got] of actual) {
    if (!expected.has(name)) differences.push(`${name}: unexpected ${got.kind} (not in the expected tree)`);
  }
  return differences;
}

/**
 * The workspace.matches check. `expectedDir` is workspace-after/ when the scenario changes files, otherwise
 * the fixtures (the run must leave them untouched).
 */
export async function checkWorkspace(
  expectedDir: string | undefined,
  workspace: string,
  expectedLabel: string,
  /** Empty top-level folders a program the shim must use leaves behind (a real CLI's), not the shim's doing. */
  toleratedEmptyDirs: readonly string[] = [],
): Promise<Finding[]> {
  const expected = await snapshotTree(expectedDir);
  const actual = await snapshotTree(workspace);
  for (const name of toleratedEmptyDirs) {
    const isEmpty = ![...actual.keys()].some((key) => key.startsWith(`${name}/`));
    if (!expected.has(name) && actual.get(name)?.kind === 'dir' && isEmpty) actual.delete(name);
  }
  const differences = treeDifferences(expected, actual);
  if (differences.length === 0) return [];
  const shown = differences.slice(0, 10);
  const more = differences.length > shown.length ? `\n  … and ${differences.length - shown.length} more` : '';
  return [
    runFinding('workspace.matches', `the workspace differs from ${expectedLabel}:\n  ${shown.join('\n  ')}${more}`),
  ];
}
