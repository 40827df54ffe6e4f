// The `yume-conformance` command line. Each command lives in its own module and registers itself here.
import { Command, CommanderError } from 'commander';
import { registerRunCommand } from './run-command.js';
import { registerValidateCommand } from './validate-command.js';
import { registerRulesCommand } from './rules-command.js';
import { registerServeCommand } from './serve-command.js';
import { registerGoldensCommand } from './goldens-command.js';
import { EXIT_USAGE } from './exit-codes.js';

const program = new Command('yume-conformance')
  .description('Conformance suite for Yume stream-json shims')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

registerRunCommand(program);
registerValidateCommand(program);
registerRulesCommand(program);
registerServeCommand(program);
registerGoldensCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end here with exit code 0; usage errors with 2 (commander printed the reason).
    process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
  } else {
    process.stderr.write(`yume-conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT_USAGE;
  }
}
