import type { Command } from 'commander';

/** Registers `yume-conformance rules`. Owned by the rules feature; replaced by its real implementation. */
export function registerRulesCommand(program: Command): void {
  void program;
}
