// Delivering an interrupt (R6). Spawn-per-turn shims get SIGINT on their whole process group (POSIX);
// persistent-mode shims get an `{"type":"interrupt"}` stdin frame on every OS. Windows cannot deliver a
// signal a process can catch, so there the interrupt scenarios run through persistent mode or are not
// verified.
import type { PlatformName } from './platform.js';
import type { ShimProcess } from './shim-process.js';

export type InterruptMethod = 'sigint-group' | 'interrupt-frame';

export const INTERRUPT_FRAME = '{"type":"interrupt"}\n';

/** How to interrupt a shim in `mode` on `platform`; undefined when it cannot be done. */
export function interruptMethodFor(
  platform: PlatformName,
  mode: 'spawn-per-turn' | 'persistent',
): InterruptMethod | undefined {
  if (mode === 'persistent') return 'interrupt-frame';
  return platform === 'win32' ? undefined : 'sigint-group';
}

/** Sends the interrupt; false when it could not be delivered (process gone, stdin closed). */
export function deliverInterrupt(shim: ShimProcess, method: InterruptMethod): boolean {
  return method === 'sigint-group' ? shim.signalGroup('SIGINT') : shim.write(INTERRUPT_FRAME);
}
