// With YUME_SHIM_COMPILE_CACHE=node, on Node >= 22.1, the launcher hands the bundle to Node's own module compile
// cache (`module.enableCompileCache(dir)`) in the same private directory the launcher's V8 cache uses
// (compile-cache.ts): Node keys the cache by the module's content and its own version, stores and checks it,
// and loads the bundle through its ordinary CommonJS loader.
// It is not the default: Node serializes a module's cache right after compiling it, so the cache holds only
// what V8 compiled eagerly (the bundle's top level, 72 KB), and every function a turn runs is compiled again in
// every process. The launcher's own cache is taken when the process exits (160 KB, every function the run
// compiled): a single-tool turn is about 5 ms shorter on Node 22 and 24 with it (`npm run bench`).
// YUME_SHIM_NO_COMPILE_CACHE turns either off.
// Named imports only: a default import of a Node module makes the bundle copy every export (esbuild's __toESM).
import { createRequire, Module as nodeModule } from 'node:module';
import {
  type CompileCacheOptions,
  type CompileCacheRun,
  defaultCacheDir,
  privateDirectoryProblem,
  runBundleWithCompileCache,
} from './compile-cache.js';

interface EnableResult {
  status: number;
  message?: string;
  directory?: string;
}

type EnableCompileCache = (directory: string) => EnableResult;

/** Node's module.enableCompileCache when this Node has it (22.1 and later). */
function enableCompileCacheApi(): EnableCompileCache | undefined {
  const api = (nodeModule as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  return typeof api === 'function' ? api : undefined;
}

/** What Node said: its compileCacheStatus names, lower-cased (enabled, already_enabled, failed, disabled). */
function statusName(status: number): string {
  const names = (nodeModule as unknown as { constants?: { compileCacheStatus?: Record<string, number> } }).constants
    ?.compileCacheStatus;
  const name = Object.entries(names ?? {}).find(([, value]) => value === status)?.[0];
  return (name ?? String(status)).toLowerCase();
}

/** Runs the bundle with the launcher's own V8 cache, or with Node's compile cache when asked and available. */
export function runBundle(options: CompileCacheOptions): CompileCacheRun {
  const enable = options.env.YUME_SHIM_COMPILE_CACHE === 'node' ? enableCompileCacheApi() : undefined;
  if (!enable) return runBundleWithCompileCache(options);
  const disabledBy = options.env.YUME_SHIM_NO_COMPILE_CACHE ? 'YUME_SHIM_NO_COMPILE_CACHE is set' : undefined;
  const directory = options.cacheDir ?? options.env.YUME_SHIM_COMPILE_CACHE_DIR ?? defaultCacheDir();
  const problem = disabledBy ?? privateDirectoryProblem(directory);
  let reason = problem;
  if (!problem) {
    const result = enable(directory);
    reason = `node ${statusName(result.status)}${result.message ? `: ${result.message}` : ''}`;
  }
  createRequire(options.bundle)(options.bundle);
  return {
    outcome: problem ? 'disabled' : 'node',
    ...(reason ? { reason } : {}),
    file: directory,
    // Node writes its cache itself when the process exits.
    save: () => 'skipped',
  };
}
