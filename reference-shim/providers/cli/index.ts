// The official-CLI providers (Type B): --provider gemini-cli | codex-cli | claude-cli | copilot-cli.
// providers/registry.ts creates them with createCliProvider().
import { CLAUDE_CLI } from './claude-cli.js';
import { type CliDefinition, type CliProviderId, type CliProviderSettings, CliTurnProvider } from './cli-provider.js';
import { CODEX_CLI } from './codex-cli.js';
import { COPILOT_CLI } from './copilot-cli.js';
import { GEMINI_CLI } from './gemini-cli.js';

export type { CliProviderId, CliProviderSettings } from './cli-provider.js';
export { CliTurnProvider } from './cli-provider.js';

export const CLI_DEFINITIONS: Readonly<Record<CliProviderId, CliDefinition>> = {
  'gemini-cli': GEMINI_CLI,
  'codex-cli': CODEX_CLI,
  'claude-cli': CLAUDE_CLI,
  'copilot-cli': COPILOT_CLI,
};

/** The TurnProvider that runs the official CLI behind `id`. */
export function createCliProvider(id: CliProviderId, settings: CliProviderSettings): CliTurnProvider {
  return new CliTurnProvider(CLI_DEFINITIONS[id], settings);
}
