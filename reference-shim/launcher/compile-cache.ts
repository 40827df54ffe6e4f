// Runs the bundled shim (a CommonJS file) through V8's code cache, so that a process started for every turn
// does not parse and compile ~135 KB of minified JavaScript each time (10–20 ms of a 70 ms turn on Node 20).
//
// Why by hand: Node 20 has no module compile cache, and Node's (`module.enableCompileCache`, 22.1 and later)
// like the v8-compile-cache package stores a module's cache right after compiling it: only what V8 compiled
// eagerly, which for a bundle is little more than its top level. Here the cache is taken when the process
// exits (`script.createCachedData()`), so it holds every function the run compiled.
//
// Safety: V8 checks the cache against its own version and flags, but only against the *length* of the source;
// the file name therefore carries the bundle's identity — the hash the build computed (hashing 135 KB here would
// mean loading node:crypto, ~5 ms), its size and modification time — Node's version and the architecture. The cache
// directory is private to the user (0700, owned by them, no symlink) because a planted cache file is code.
// A cache that cannot be read, is rejected or cannot be written is never an error: the bundle then runs as
// plain JavaScript and the run is otherwise identical.
import { isAscii } from 'node:buffer';
import { lstatSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { Script } from 'node:vm';
import { fileNameSafe } from '../text/plain-match.js';

/** How much of the shim a run exercises: a full run's cache covers a lite run, not the other way round. */
export type RunKind = 'full' | 'lite';

/** 'node': Node's own module compile cache ran the bundle (YUME_SHIM_COMPILE_CACHE=node, Node >= 22.1). */
export type CacheOutcome = 'hit' | 'miss' | 'rejected' | 'disabled' | 'node';

export interface CompileCacheOptions {
  /** The CommonJS bundle to run. */
  bundle: string;
  /** The command line (without node and the script): decides the run kind. */
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  /**
   * What the build knows the bundle by (a hash of its content, scripts/build.mjs). Without one (tests) the
   * content is hashed here.
   */
  bundleId?: string;
  /** Defaults to defaultCacheDir(env). */
  cacheDir?: string;
  /**
   * The `require` the bundle gets (it only loads Node's own modules). The bin passes its own: a require made
   * with node:module's createRequire would load that module's public side, about 0.5 ms of every start.
   */
  require: NodeJS.Require;
}

export interface CompileCacheRun {
  outcome: CacheOutcome;
  /** Why the cache is disabled (outcome 'disabled'). */
  reason?: string;
  /** The cache file this run read or would write. */
  file?: string;
  /**
   * Writes the cache if this run should (no usable cache of its kind or better existed). Call it once, when
   * the process exits: by then V8 has compiled every function the run used. Returns what it did.
   */
  save(): 'written' | 'kept' | 'skipped';
}

const LITE_FLAGS = new Set(['--version', '-v', '--help', '-h']);

export function runKind(argv: readonly string[]): RunKind {
  return argv.some((argument) => LITE_FLAGS.has(argument)) ? 'lite' : 'full';
}

/**
 * The default cache directory: `yume-shim` under XDG_CACHE_HOME when that is set (the conformance suite sets
 * one per suite invocation, shared by its runs, while each run has its own TMPDIR), else one per user under
 * the system's temporary directory. Either must pass privateDirectoryProblem() to be used.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdgCache = env.XDG_CACHE_HOME;
  if (xdgCache && isAbsolute(xdgCache)) return join(xdgCache, 'yume-shim');
  return join(temporaryDirectory(), `yume-shim-cache-${currentUser()}`);
}

/**
 * os.tmpdir() without loading node:os on POSIX (its binding and module cost every start about 0.2 ms): the same
 * TMPDIR, TMP, TEMP, /tmp lookup, trailing slash dropped. Windows asks node:os (its rules involve SystemRoot).
 */
function temporaryDirectory(): string {
  if (process.platform === 'win32') return process.getBuiltinModule('node:os').tmpdir();
  const { TMPDIR, TMP, TEMP } = process.env;
  const directory = TMPDIR || TMP || TEMP || '/tmp';
  return directory.length > 1 && directory.endsWith('/') ? directory.slice(0, -1) : directory;
}

function currentUser(): string {
  if (typeof process.getuid === 'function') return String(process.getuid());
  try {
    return fileNameSafe(process.getBuiltinModule('node:os').userInfo().username) || 'user';
  } catch {
    return 'user'; // no user name to be had (some service accounts); the directory check still applies
  }
}

/** Creates the directory if needed and says why it cannot be trusted, if it cannot. */
export function privateDirectoryProblem(directory: string): string | undefined {
  try {
    // Looked at first: it exists on every run but the first, and mkdir -p of an existing directory costs more.
    let stats = lstatSync(directory, { throwIfNoEntry: false });
    if (!stats) {
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      stats = lstatSync(directory);
    }
    if (stats.isSymbolicLink() || !stats.isDirectory()) return `${directory} is not a plain directory`;
    if (process.platform !== 'win32') {
      if (typeof process.getuid === 'function' && stats.uid !== process.getuid())
        return `${directory} belongs to another user`;
      if ((stats.mode & 0o022) !== 0) return `${directory} is writable by other users`;
    }
    return undefined;
  } catch (error) {
    return `${directory}: ${(error as Error).message}`;
  }
}

/**
 * `require` that asks Node once per module. The bundle calls require('node:fs') once for each of its modules that
 * imports it (15 times), and each call of Node's own walks the module's exports again for its ES module facade:
 * 0.1 ms of every start on Node 20, 0.2 ms on Node 22 and 24. Node returns the same exports object every time.
 */
export function requireOnce(nodeRequire: NodeJS.Require): NodeJS.Require {
  const loaded = new Map<string, unknown>();
  const once = (id: string): unknown => {
    let exports = loaded.get(id);
    if (exports === undefined) {
      exports = nodeRequire(id);
      loaded.set(id, exports);
    }
    return exports;
  };
  return Object.assign(once, nodeRequire) as NodeJS.Require;
}

/** A file name for the cache of this bundle under this Node; anything that changes the bundle changes it. */
function cacheKey(bundle: string, source: string, bundleId: string | undefined): string {
  const { size, mtimeMs } = statSync(bundle);
  const identity = bundleId ?? contentHash(source);
  return fileNameSafe(`${identity}-${size}-${Math.round(mtimeMs)}-${process.version}-${process.arch}`);
}

/** FNV-1a over the text, both halves of each UTF-16 unit (only for runs without a build id). */
export function contentHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    hash = Math.imul(hash ^ (unit & 0xff), 0x01000193);
    hash = Math.imul(hash ^ (unit >>> 8), 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * The bundle's text. esbuild writes it in ASCII (other characters escaped), and ASCII read as Latin-1 is the
 * same text, decoded at half the cost of UTF-8 (~0.1 ms of every start); anything else is read as UTF-8.
 */
function readSource(file: string): string {
  const bytes = readFileSync(file);
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Compiles and runs `options.bundle` as a CommonJS module, with V8's code cache when one can be used.
 * The bundle sees the usual `require`, `module`, `exports`, `__filename` and `__dirname`.
 */
export function runBundleWithCompileCache(options: CompileCacheOptions): CompileCacheRun {
  const source = readSource(options.bundle);
  const kind = runKind(options.argv);
  const disabledBy = options.env.YUME_SHIM_NO_COMPILE_CACHE ? 'YUME_SHIM_NO_COMPILE_CACHE is set' : undefined;
  const directory = options.cacheDir ?? options.env.YUME_SHIM_COMPILE_CACHE_DIR ?? defaultCacheDir(options.env);
  const problem = disabledBy ?? privateDirectoryProblem(directory);

  let cachedData: Buffer | undefined;
  let fullFile: string | undefined;
  let liteFile: string | undefined;
  if (!problem) {
    const key = cacheKey(options.bundle, source, options.bundleId);
    fullFile = join(directory, `${key}.full.bin`);
    liteFile = join(directory, `${key}.lite.bin`);
    // A full run's cache covers a lite run; a lite run's cache is too thin for a full one.
    cachedData = readIfPresent(fullFile) ?? (kind === 'lite' ? readIfPresent(liteFile) : undefined);
  }

  const script = new Script(wrap(source), { filename: options.bundle, cachedData });
  const rejected = cachedData !== undefined && script.cachedDataRejected === true;
  const outcome: CacheOutcome = problem ? 'disabled' : !cachedData ? 'miss' : rejected ? 'rejected' : 'hit';
  const target = kind === 'full' ? fullFile : liteFile;

  let saved = false;
  const save = (): 'written' | 'kept' | 'skipped' => {
    if (saved || !target) return 'skipped';
    saved = true;
    // A cache V8 accepted is good enough for this kind of run (see above): keep it as it is.
    if (outcome === 'hit') return 'kept';
    const temporary = `${target}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
      renameSync(temporary, target); // atomic: a concurrent run reads the old file or the new one
      return 'written';
    } catch {
      try {
        unlinkSync(temporary);
      } catch {
        // nothing was written
      }
      return 'skipped';
    }
  };

  const compiled = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown; filename: string; id: string },
    filename: string,
    dirname: string,
  ) => void;
  const module = { exports: {}, filename: options.bundle, id: options.bundle };
  compiled.call(module.exports, module.exports, options.require, module, options.bundle, dirname(options.bundle));
  return { outcome, reason: problem, file: target, save };
}

/** Node's CommonJS wrapper (kept on one line so line numbers in stack traces stay those of the bundle). */
function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
}
