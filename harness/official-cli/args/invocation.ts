// What a fake CLI understood from its argv. Each parser follows the argument library of the real CLI
// (gemini: yargs, codex: clap, claude: commander), because the differences are exactly what bites a shim:
// which flags exist, whether a value may start with '-', and what `--` does.

export interface Invocation {
  /** The prompt from argv; undefined when it is to be read from stdin. */
  prompt?: string;
  model?: string;
  /** CLI session / thread id to continue. */
  resume?: string;
  /** Directory the CLI works in (codex -C); defaults to the process cwd. */
  workdir?: string;
  /** The stream format was asked for (gemini/claude `--output-format stream-json`, codex `--json`). */
  streamJson: boolean;
  /** Tools may change files and run commands without asking. */
  autoApprove: boolean;
  /** Tools allowed by name although not auto-approved (claude --allowedTools, gemini --allowed-tools). */
  allowedTools: string[];
  /** Read-only mode (codex default sandbox, claude plan): writes are refused. */
  readOnly: boolean;
  /** Every flag as given, for CLI-specific checks. */
  flags: Record<string, string | boolean | string[]>;
}

export type ParseOutcome =
  | { kind: 'run'; invocation: Invocation }
  /** --help / --version: print and exit 0. */
  | { kind: 'info'; text: string }
  /** Refused arguments: stderr text and exit code, as the real CLI prints them. */
  | { kind: 'error'; message: string; exitCode: number };

export function emptyInvocation(): Invocation {
  return { streamJson: false, autoApprove: false, allowedTools: [], readOnly: false, flags: {} };
}

/** Splits `--name=value` into its parts (both yargs and clap and commander accept the form). */
export function splitEquals(argument: string): { name: string; value?: string } {
  const equals = argument.indexOf('=');
  if (equals < 0) return { name: argument };
  return { name: argument.slice(0, equals), value: argument.slice(equals + 1) };
}

/** Comma or space separated tool lists (`--allowedTools "Read,Bash"` or `--allowedTools Read Bash`). */
export function toolList(values: string[]): string[] {
  return values.flatMap((value) => value.split(/[,\s]+/)).filter((name) => name.length > 0);
}
