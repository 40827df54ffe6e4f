// The process layer: starting shims, watching their descendants, ending whole trees.
export { spawnShim, DEFAULT_MAX_STDOUT_BYTES, DEFAULT_MAX_STDERR_BYTES } from './spawn-shim.js';
export type { SpawnShimOptions, ShimProcess, ShimExit, StdoutChunkTime } from './spawn-shim.js';
export { shimSpawnCommand } from './shim-command.js';
export type { SpawnCommand } from './shim-command.js';
export { interruptMethodFor, deliverInterrupt, INTERRUPT_FRAME } from './interrupt.js';
export type { InterruptMethod } from './interrupt.js';
export { killTree, taskkillCommand, signalProcessGroup } from './kill-tree.js';
export { DescendantTracker } from './descendants.js';
export { processTableFor, pollIntervalFor } from './process-table.js';
export type { ProcessInfo, ProcessTable } from './process-table.js';
export { pathFor, isWindows, usesProcessGroups } from './platform.js';
export type { PlatformName } from './platform.js';
