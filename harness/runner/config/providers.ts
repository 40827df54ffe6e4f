// The harness provider ids and the flags each invocation passes for them (R7's table).
import type { MockProviderId, ScenarioProviderId } from '../../mock/scenario/scenario-types.js';
import type { OfficialCliName } from '../../official-cli/script-types.js';

export type ProviderId = ScenarioProviderId;
/** Which SDK-style base URL `--api-base` carries for a provider (R7). */
export type BaseUrlKind = 'openai' | 'anthropic' | 'gemini';

export interface ProviderFlags {
  provider: string;
  model: string;
}

export interface ProviderEntry {
  id: ProviderId;
  /** 'rest': the shim calls an HTTP mock (Type A); 'cli': it drives a fake official CLI on PATH (Type B). */
  kind: 'rest' | 'cli';
  /**
   * The HTTP mock started for every run: the backend of a REST provider; for a CLI provider the API that CLI
   * talks to, so `--api-base` and the base URL variables point somewhere real (its requests are checked
   * only if the shim used it).
   */
  mock: MockProviderId;
  /** The fake official CLI put first on PATH (Type B providers). */
  cli?: OfficialCliName;
  baseUrl: BaseUrlKind;
  spec: ProviderFlags;
  /** Undefined: not verified under the yume-app invocation (— in R7). */
  yumeApp?: ProviderFlags;
  /**
   * Under yume-app, R7's `gemini` and `openai` ids offer both backends at once (the REST mock and the fake CLI),
   * as on a user's machine; the checks follow whichever the shim used. This is the CLI a REST id adds.
   */
  yumeAppAlsoOffersCli?: OfficialCliName;
}

export const PROVIDERS: readonly ProviderEntry[] = [
  {
    id: 'openai-chat',
    kind: 'rest',
    mock: 'openai-chat',
    baseUrl: 'openai',
    spec: { provider: 'openai', model: 'gpt-4.1-mini' },
  },
  {
    id: 'openai-responses',
    kind: 'rest',
    mock: 'openai-responses',
    baseUrl: 'openai',
    spec: { provider: 'codex', model: 'gpt-5.2-codex' },
    yumeApp: { provider: 'openai', model: 'gpt-5.2-codex' },
    yumeAppAlsoOffersCli: 'codex',
  },
  {
    id: 'gemini',
    kind: 'rest',
    mock: 'gemini',
    baseUrl: 'gemini',
    spec: { provider: 'gemini', model: 'gemini-2.5-flash' },
    yumeApp: { provider: 'gemini', model: 'gemini-2.5-flash' },
    yumeAppAlsoOffersCli: 'gemini',
  },
  {
    id: 'anthropic',
    kind: 'rest',
    mock: 'anthropic',
    baseUrl: 'anthropic',
    spec: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
  },
  {
    id: 'gemini-cli',
    kind: 'cli',
    mock: 'gemini',
    cli: 'gemini',
    baseUrl: 'gemini',
    spec: { provider: 'gemini-cli', model: 'gemini-2.5-flash' },
    yumeApp: { provider: 'gemini', model: 'gemini-2.5-flash' },
  },
  {
    id: 'codex-cli',
    kind: 'cli',
    mock: 'openai-responses',
    cli: 'codex',
    baseUrl: 'openai',
    spec: { provider: 'codex-cli', model: 'gpt-5.2-codex' },
    yumeApp: { provider: 'openai', model: 'gpt-5.2-codex' },
  },
  {
    id: 'claude-cli',
    kind: 'cli',
    mock: 'anthropic',
    cli: 'claude',
    baseUrl: 'anthropic',
    spec: { provider: 'claude-cli', model: 'claude-sonnet-4-5' },
  },
  {
    // R22: copilot against the anthropic mock, through its bring-your-own-key settings; the app has no copilot route.
    id: 'copilot-cli',
    kind: 'cli',
    mock: 'anthropic',
    cli: 'copilot',
    baseUrl: 'anthropic',
    spec: { provider: 'copilot-cli', model: 'claude-sonnet-4-5' },
  },
];

export const PROVIDER_IDS: readonly ProviderId[] = PROVIDERS.map((entry) => entry.id);

export function providerEntry(id: string): ProviderEntry | undefined {
  return PROVIDERS.find((entry) => entry.id === id);
}

/** The flags an invocation passes for a provider; undefined when that invocation does not verify it. */
export function providerFlags(entry: ProviderEntry, invocation: 'spec' | 'yume-app'): ProviderFlags | undefined {
  return invocation === 'spec' ? entry.spec : entry.yumeApp;
}

/** The fake CLI a run of `entry` puts on PATH (REST providers under yume-app also get the CLI, R7). */
export function cliFor(
  entry: ProviderEntry,
  invocation: 'spec' | 'yume-app' | 'template',
): OfficialCliName | undefined {
  if (entry.cli) return entry.cli;
  return invocation === 'yume-app' ? entry.yumeAppAlsoOffersCli : undefined;
}
