import type { Command } from 'commander';

/** Registers `yume-conformance run`. Owned by the run feature; replaced by its real implementation. */
export function registerRunCommand(program: Command): void {
  void program;
}
