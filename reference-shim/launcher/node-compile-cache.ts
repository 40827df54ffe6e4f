// On Node >= 22.1 the launcher hands the bundle to Node's own module compile cache
// (`module.enableCompileCache(dir)`) in the same private directory the V8-cache path uses (compile-cache.ts),
// instead of compiling it through vm.Script itself: Node keys the cache by the module's content and its own
// version, stores and checks it, and loads the bundle through its ordinary CommonJS loader. Node 20 has no
// such API, so there the launcher keeps its own cache. YUME_SHIM_COMPILE_CACHE=v8 forces the launcher's own
// cache on any Node (its tests use it); YUME_SHIM_NO_COMPILE_CACHE turns either off.
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

/** Runs the bundle with Node's compile cache where there is one, else with the launcher's own V8 cache. */
export function runBundle(options: CompileCacheOptions): CompileCacheRun {
  const enable = enableCompileCacheApi();
  if (!enable || options.env.YUME_SHIM_COMPILE_CACHE === 'v8') return runBundleWithCompileCache(options);
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
