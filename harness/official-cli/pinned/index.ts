// The pinned official CLIs, as recorded by `npm run cli-drift -- --update` (harness/official-cli/real/record-pinned.ts).

import type { OfficialCliName } from '../script-types.js';
import claude from './claude.json' with { type: 'json' };
import codex from './codex.json' with { type: 'json' };
import copilot from './copilot.json' with { type: 'json' };
import gemini from './gemini.json' with { type: 'json' };
import type { HelpOption } from './help-options.js';
import type { PinnedCli } from './pinned-types.js';

export const PINNED: Readonly<Record<OfficialCliName, PinnedCli>> = {
  gemini: gemini as PinnedCli,
  codex: codex as PinnedCli,
  claude: claude as PinnedCli,
  copilot: copilot as PinnedCli,
};

/** The options the pinned help lists for `command` ('' for the CLI itself). */
export function pinnedOptions(cli: OfficialCliName, command = ''): readonly HelpOption[] {
  const recorded = PINNED[cli].commands[command];
  if (!recorded) throw new Error(`no pinned help for ${cli} ${command}`);
  return recorded.options;
}

export function pinnedHelp(cli: OfficialCliName, command = ''): string {
  return PINNED[cli].commands[command]?.help ?? '';
}

export type { HelpOption, PinnedCli };
