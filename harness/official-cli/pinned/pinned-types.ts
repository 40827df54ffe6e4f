// The recorded facts about one pinned official CLI: its version, its help for the modes a shim uses
// (`gemini -p`, `codex exec`, `claude -p`, `copilot -p`), and the options read from that help. The fakes accept exactly
// these options; `npm run cli-drift` compares a newer release with them and `--update` rewrites them.

import type { OfficialCliName } from '../script-types.js';
import { clapOptions, commanderOptions, type HelpOption, yargsOptions } from './help-options.js';

export interface PinnedCommand {
  /** argv that prints this command's help. */
  helpArgv: string[];
  /** The help text as the CLI printed it (stdout, piped). */
  help: string;
  /** The options read from `help`. */
  options: HelpOption[];
}

export interface PinnedCli {
  cli: OfficialCliName;
  package: string;
  version: string;
  /** What `--version` printed. */
  versionText: string;
  /** By command path: '' for the CLI itself, 'exec' and 'exec resume' for codex. */
  commands: Record<string, PinnedCommand>;
  /** The tools it declares to the model in its first request (seen by the mock). */
  declaredTools?: string[];
  /** The event types of its stdout in a plain answer (codex items as `item.completed:agent_message`). */
  eventTypes?: string[];
}

/**
 * Whether a new version number alone is drift. Not for copilot, which publishes almost daily (R22,
 * docs/protocol.md#r22-github-copilot-cli-is-a-type-b-official-cli): it drifts when its flags, tools or events do.
 */
export const VERSION_IS_DRIFT: Readonly<Record<OfficialCliName, boolean>> = {
  gemini: true,
  codex: true,
  claude: true,
  copilot: false,
};

/** The commands whose help is recorded, and the argv that prints it. */
export const HELP_COMMANDS: Record<OfficialCliName, Record<string, string[]>> = {
  gemini: { '': ['--help'] },
  codex: { exec: ['exec', '--help'], 'exec resume': ['exec', 'resume', '--help'] },
  claude: { '': ['--help'] },
  copilot: { '': ['--help'] },
};

/** Each CLI's argument library, which decides how its help reads. */
export function readHelpOptions(cli: OfficialCliName, help: string): HelpOption[] {
  if (cli === 'codex' || cli === 'copilot') return clapOptions(help);
  if (cli === 'gemini') return yargsOptions(help);
  return commanderOptions(help);
}

/** The version number in what `--version` prints (`codex-cli 0.169.0`, `2.1.332 (Claude Code)`). */
export function versionIn(text: string): string {
  return /\d+\.\d+\.\d+(?:-[\w.]+)?/.exec(text)?.[0] ?? text.trim();
}
