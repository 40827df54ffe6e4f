// What a shim declares it supports (--capabilities, schemas/capabilities.schema.json), and the defaults
// when it declares nothing: spawn-per-turn, openai-chat, flat dialect, no optional features.
import capabilitiesSchema from '../../../schemas/capabilities.schema.json' with { type: 'json' };
import { loadJsonConfig } from './config-file.js';
import { PROVIDER_IDS, type ProviderId } from './providers.js';

export type Dialect = 'flat' | 'claude';

export interface Limitation {
  scenario?: string;
  provider?: string;
  invocation?: string;
  os?: string[];
  reason: string;
}

export interface CapabilitiesFile {
  name?: string;
  providers?: (ProviderId | 'all')[];
  persistent?: boolean;
  dialect?: 'flat' | 'claude' | 'both';
  features?: string[];
  limitations?: Limitation[];
}

export interface Capabilities {
  name?: string;
  providers: ProviderId[];
  persistent: boolean;
  /** Dialects the shim prints; the first is its default. */
  dialects: Dialect[];
  features: Set<string>;
  limitations: Limitation[];
  /** Where they came from: a file, the defaults, or the bundled reference shim. */
  source: string;
}

/** Environment variable that selects the reference shim's dialect (R1); used for shims declaring `both`. */
export const DIALECT_VARIABLE = 'YUME_SHIM_DIALECT';

export function capabilitiesFrom(file: CapabilitiesFile, source: string): Capabilities {
  const providers = !file.providers || file.providers.length === 0 ? ['openai-chat' as const] : file.providers;
  return {
    ...(file.name === undefined ? {} : { name: file.name }),
    providers: providers.includes('all') ? [...PROVIDER_IDS] : (providers as ProviderId[]),
    persistent: file.persistent ?? false,
    dialects: file.dialect === 'both' ? ['flat', 'claude'] : [file.dialect ?? 'flat'],
    features: new Set(file.features ?? []),
    limitations: file.limitations ?? [],
    source,
  };
}

export const DEFAULT_CAPABILITIES: Capabilities = capabilitiesFrom({}, 'defaults (no --capabilities file)');

/** The bundled reference shim supports everything the suite checks. */
export const REFERENCE_SHIM_CAPABILITIES: Capabilities = capabilitiesFrom(
  {
    name: 'yume-shim (reference)',
    providers: ['all'],
    persistent: true,
    dialect: 'both',
    features: [
      'bash',
      'gcloud',
      'interactive',
      'permission-modes',
      'resume',
      'history-file',
      'cli',
      'signals',
      'persistent',
    ],
    // An official CLI runs its own tools: the reference shim cannot hold a CLI's tool call for tool_approval.
    limitations: (['gemini-cli', 'codex-cli', 'claude-cli', 'copilot-cli'] as const).map((provider) => ({
      scenario: 'persistent-interactive',
      provider,
      reason: 'the wrapped CLI runs its own tools, so interactive tool_approval cannot hold them',
    })),
  },
  'the bundled reference shim',
);

export function loadCapabilities(file: string): Capabilities {
  return capabilitiesFrom(
    loadJsonConfig<CapabilitiesFile>(file, capabilitiesSchema, '--capabilities', 'schemas/capabilities.schema.json'),
    file,
  );
}

/** The matching declared limitation for a run, if any. */
export function declaredLimitation(
  capabilities: Capabilities,
  run: { scenario: string; provider: string; invocation: string; os: string },
): Limitation | undefined {
  return capabilities.limitations.find(
    (limitation) =>
      (limitation.scenario === undefined || limitation.scenario === run.scenario) &&
      (limitation.provider === undefined || limitation.provider === run.provider) &&
      (limitation.invocation === undefined || limitation.invocation === run.invocation) &&
      (limitation.os === undefined || limitation.os.includes(run.os)),
  );
}
