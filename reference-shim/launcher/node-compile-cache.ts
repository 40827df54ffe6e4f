// With YUME_SHIM_COMPILE_CACHE=node, on Node >= 22.1, the launcher hands the bundle to Node's own module compile
// cache (`module.enableCompileCache(dir)`) in the same private directory the launcher's V8 cache uses
// (compile-cache.ts): Node keys the cache by the module's content and its own version, stores and checks it,
// and loads the bundle through its ordinary CommonJS loader.
// It is not the default: Node serializes a module's cache right after compiling it, so the cache holds only
// what V8 compiled eagerly (the bundle's top level, 72 KB), and every function a turn runs is compiled again in
// every process. The launcher's own cache is taken when the process exits (160 KB, every function the run
// compiled): a single-tool turn is about 5 ms shorter on Node 22 and 24 with it (`npm run bench`).
// YUME_SHIM_NO_COMPILE_CACHE turns either off.
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

interface NodeModuleApi {
  enableCompileCache?: EnableCompileCache;
  constants?: { compileCacheStatus?: Record<string, number> };
}

/** node:module, loaded only when asked for (YUME_SHIM_COMPILE_CACHE=node): its public side costs a start ~0.3 ms. */
function nodeModuleApi(options: CompileCacheOptions): NodeModuleApi {
  return options.require('node:module') as NodeModuleApi;
}

/** What Node said: its compileCacheStatus names, lower-cased (enabled, already_enabled, failed, disabled). */
function statusName(nodeModule: NodeModuleApi, status: number): string {
  const names = nodeModule.constants?.compileCacheStatus;
  const name = Object.entries(names ?? {}).find(([, value]) => value === status)?.[0];
  return (name ?? String(status)).toLowerCase();
}

/** Runs the bundle with the launcher's own V8 cache, or with Node's compile cache when asked and available. */
export function runBundle(options: CompileCacheOptions): CompileCacheRun {
  const nodeModule = options.env.YUME_SHIM_COMPILE_CACHE === 'node' ? nodeModuleApi(options) : undefined;
  // Node's module.enableCompileCache exists on Node 22.1 and later.
  const enable = typeof nodeModule?.enableCompileCache === 'function' ? nodeModule.enableCompileCache : undefined;
  if (!nodeModule || !enable) return runBundleWithCompileCache(options);
  const disabledBy = options.env.YUME_SHIM_NO_COMPILE_CACHE ? 'YUME_SHIM_NO_COMPILE_CACHE is set' : undefined;
  const directory = options.cacheDir ?? options.env.YUME_SHIM_COMPILE_CACHE_DIR ?? defaultCacheDir();
  const problem = disabledBy ?? privateDirectoryProblem(directory);
  let reason = problem;
  if (!problem) {
    const result = enable(directory);
    reason = `node ${statusName(nodeModule, result.status)}${result.message ? `: ${result.message}` : ''}`;
  }
  options.require(options.bundle);
  return {
    outcome: problem ? 'disabled' : 'node',
    ...(reason ? { reason } : {}),
    file: directory,
    // Node writes its cache itself when the process exits.
    save: () => 'skipped',
  };
}
