// A scenario's fixture commit written straight into `.git`, as `git add --all --force . && git commit` would
// write it: a loose object per blob and tree and for the commit (zlib-deflated "<type> <size>\0<content>",
// named by its SHA-1), the index listing every file with its stat data, and the branch ref. A suite makes one
// per scenario: starting git three times for each cost more than the rest of preparing it. The result is the
// same repository, byte for byte in its objects: the same commit hash (a test checks it against git's).
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, mkdir, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

/** Who made the commit, when (seconds since the epoch, UTC) and why. */
export interface CommitIdentity {
  name: string;
  email: string;
  epochSeconds: number;
  message: string;
}

interface IndexEntry {
  /** Path with / separators, relative to the workspace. */
  path: string;
  stats: Stats;
  mode: number;
  sha: Buffer;
}

interface TreeEntry {
  name: string;
  mode: string;
  sha: Buffer;
  directory: boolean;
}

class ObjectWriter {
  readonly objects = new Map<string, Buffer>();

  put(type: 'blob' | 'tree' | 'commit', content: Buffer): Buffer {
    const stored = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
    const sha = createHash('sha1').update(stored).digest();
    const hex = sha.toString('hex');
    if (!this.objects.has(hex)) this.objects.set(hex, deflateSync(stored));
    return sha;
  }
}

/** git's file mode for what lstat saw: a symlink, an executable (owner may run it) or a plain file. */
function fileMode(stats: Stats, platform: NodeJS.Platform): number {
  if (stats.isSymbolicLink()) return 0o120000;
  // Where the filesystem has no executable bit (Windows), git records every file as plain.
  return platform !== 'win32' && (stats.mode & 0o100) !== 0 ? 0o100755 : 0o100644;
}

/** Tree entries in git's order: byte order of the names, a directory's name compared as if it ended in /. */
function treeOrder(a: TreeEntry, b: TreeEntry): number {
  return Buffer.compare(
    Buffer.from(a.directory ? `${a.name}/` : a.name),
    Buffer.from(b.directory ? `${b.name}/` : b.name),
  );
}

/** What a walk of the fixture folder fills (the objects and the index entries), and the platform it reads on. */
interface TreeWalk {
  writer: ObjectWriter;
  index: IndexEntry[];
  platform: NodeJS.Platform;
}

/** Writes the tree of `absolute` (and its blobs and subtrees); undefined for a folder with no file in it. */
async function writeTree(walk: TreeWalk, absolute: string, relative: string): Promise<Buffer | undefined> {
  const { writer, index, platform } = walk;
  const entries: TreeEntry[] = [];
  for (const name of await readdir(absolute)) {
    if (name === '.git') continue; // the repository itself, at the top; git never tracks one below either
    const childAbsolute = path.join(absolute, name);
    const childRelative = relative ? `${relative}/${name}` : name;
    const stats = await lstat(childAbsolute);
    if (stats.isDirectory()) {
      const sha = await writeTree(walk, childAbsolute, childRelative);
      if (sha) entries.push({ name, mode: '40000', sha, directory: true });
      continue;
    }
    const content = stats.isSymbolicLink()
      ? Buffer.from(await readlink(childAbsolute, { encoding: 'buffer' }))
      : await readFile(childAbsolute);
    const mode = fileMode(stats, platform);
    const sha = writer.put('blob', content);
    entries.push({ name, mode: mode.toString(8), sha, directory: false });
    index.push({ path: childRelative, stats, mode, sha });
  }
  if (entries.length === 0 && relative !== '') return undefined;
  entries.sort(treeOrder);
  const content = Buffer.concat(entries.flatMap((entry) => [Buffer.from(`${entry.mode} ${entry.name}\0`), entry.sha]));
  return writer.put('tree', content);
}

/** The index (version 2): every file with its stat data, so `git status` sees the checkout as clean. */
function indexFile(entries: IndexEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  const header = Buffer.alloc(12);
  header.write('DIRC', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(sorted.length, 8);
  const parts = [header];
  for (const entry of sorted) {
    const name = Buffer.from(entry.path);
    // 62 bytes of fixed fields, the name, then 1 to 8 NULs so the entry's length is a multiple of 8.
    const length = Math.ceil((62 + name.length + 1) / 8) * 8;
    const buffer = Buffer.alloc(length);
    const { stats } = entry;
    const seconds = (ms: number) => Math.floor(ms / 1000) >>> 0;
    const nanos = (ms: number) => Math.round((ms % 1000) * 1e6) >>> 0;
    const fields = [
      seconds(stats.ctimeMs),
      nanos(stats.ctimeMs),
      seconds(stats.mtimeMs),
      nanos(stats.mtimeMs),
      stats.dev,
      stats.ino,
      entry.mode,
      stats.uid,
      stats.gid,
      stats.size,
    ];
    fields.forEach((value, position) => {
      buffer.writeUInt32BE(Number(value) >>> 0, position * 4);
    });
    entry.sha.copy(buffer, 40);
    buffer.writeUInt16BE(Math.min(name.length, 0xfff), 60);
    name.copy(buffer, 62);
    parts.push(buffer);
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

/**
 * Commits everything in `dir` (but `.git`) onto branch `main` of the repository `dir/.git`, which holds HEAD
 * and config already (git init's, or a copy). Returns the commit hash.
 */
export async function writeFixtureCommit(
  dir: string,
  identity: CommitIdentity,
  platform: NodeJS.Platform = process.platform,
): Promise<string> {
  const writer = new ObjectWriter();
  const index: IndexEntry[] = [];
  const tree = (await writeTree({ writer, index, platform }, dir, ''))!;
  const who = `${identity.name} <${identity.email}> ${identity.epochSeconds} +0000`;
  const commit = writer.put(
    'commit',
    Buffer.from(`tree ${tree.toString('hex')}\nauthor ${who}\ncommitter ${who}\n\n${identity.message}\n`),
  );
  const gitDir = path.join(dir, '.git');
  const folders = new Set([...writer.objects.keys()].map((hex) => hex.slice(0, 2)));
  await Promise.all([...folders].map((folder) => mkdir(path.join(gitDir, 'objects', folder), { recursive: true })));
  await Promise.all(
    [...writer.objects].map(([hex, stored]) =>
      writeFile(path.join(gitDir, 'objects', hex.slice(0, 2), hex.slice(2)), stored, { mode: 0o444 }),
    ),
  );
  await writeFile(path.join(gitDir, 'index'), indexFile(index));
  await mkdir(path.join(gitDir, 'refs', 'heads'), { recursive: true });
  const hex = commit.toString('hex');
  await writeFile(path.join(gitDir, 'refs', 'heads', 'main'), `${hex}\n`);
  return hex;
}
