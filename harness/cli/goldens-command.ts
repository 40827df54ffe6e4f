import type { Command } from 'commander';

/** Registers `yume-conformance goldens`. Owned by the goldens feature; replaced by its real implementation. */
export function registerGoldensCommand(program: Command): void {
  void program;
}
