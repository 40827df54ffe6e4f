// The `yume-conformance` command line. Each command lives in its own module and registers itself here.
// Modules are loaded on demand: `validate` and `rules` should not pay for loading msw and the runner.
import module from 'node:module';
import { Command, CommanderError } from 'commander';
import { EXIT_USAGE, failureOf } from './exit-codes.js';
import { openHandles, watchOpenHandles } from './open-handles.js';

// First of all: a handle made before the watch began can only be counted, never named.
watchOpenHandles();

// Node >= 22.1 keeps compiled code of the modules loaded from here on (the runner, msw, ajv's validators) in its
// own cache folder: a one-run suite took about 0.1 s less CPU on Node 22 (0.52 → 0.43 s). Node 20 has no
// such cache; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

type Register = (program: Command) => void;
const COMMANDS: Record<string, () => Promise<Register>> = {
  run: async () => (await import('./run-command.js')).registerRunCommand,
  validate: async () => (await import('./validate-command.js')).registerValidateCommand,
  rules: async () => (await import('./rules-command.js')).registerRulesCommand,
  serve: async () => (await import('./serve-command.js')).registerServeCommand,
  goldens: async () => (await import('./goldens-command.js')).registerGoldensCommand,
  'merge-reports': async () => (await import('./merge-command.js')).registerMergeCommand,
};

/** The commands whose modules this argv needs: the named one, or all of them (run is the default command). */
export function commandsToLoad(argv: readonly string[]): string[] {
  const first = argv.find((arg) => !arg.startsWith('-'));
  if (first !== undefined && first !== 'run' && first in COMMANDS) return [first];
  // `run`, a shim path, no argument, or --help: every command must be known (help lists them; run is the default).
  return Object.keys(COMMANDS);
}

/** A reader that goes away (`yume-conformance validate big.jsonl | head`) ends the command quietly. */
function endQuietlyOnClosedStdout(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    process.stderr.write(`yume-conformance: cannot write to stdout (${error.code ?? error.message})\n`);
    process.exit(EXIT_USAGE);
  });
}

async function main(): Promise<void> {
  endQuietlyOnClosedStdout();
  const program = new Command('yume-conformance')
    .description('Conformance suite for Yume stream-json shims')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  for (const name of commandsToLoad(process.argv.slice(2))) (await COMMANDS[name]!())(program);

  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with exit code 0; usage errors with 2 (commander printed the reason).
      process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
    } else {
      const failure = failureOf('yume-conformance', error);
      process.stderr.write(failure.line);
      process.exitCode = failure.exitCode;
    }
  }
}

/**
 * Once the command is done, nothing should keep the process alive; if something does (a timer or socket the
 * code forgot), the verdict and reports are already out, so say so and exit rather than look hung.
 */
export const LINGER_LIMIT_MS = 5000;
function exitIfLingering(): void {
  setTimeout(() => {
    const handles = openHandles().map((handle) => `\n  - ${handle.owner}`);
    process.stderr.write(
      `yume-conformance: internal error: still running ${LINGER_LIMIT_MS / 1000} s after the command finished; exiting. Please report this. Open:${handles.join('') || ' nothing the watch can name'}\n`,
    );
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  }, LINGER_LIMIT_MS).unref();
}

await main();
exitIfLingering();
