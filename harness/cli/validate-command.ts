import type { Command } from 'commander';

/** Registers `yume-conformance validate`. Owned by the validate feature; replaced by its real implementation. */
export function registerValidateCommand(program: Command): void {
  void program;
}
