import type { Command } from 'commander';

/** Registers `yume-conformance serve`. Owned by the serve feature; replaced by its real implementation. */
export function registerServeCommand(program: Command): void {
  void program;
}
