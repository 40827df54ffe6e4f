// Presets (`--preset NAME`, schemas/preset.schema.json): a program the package knows how to test as a shim —
// its invocation template, capabilities, run list and known deviations — shipped as data in harness/presets/.
// `claude-code` runs real Claude Code against the Anthropic mock (docs/protocol.md#r13-real-programs-decide-what-conforms).

import { YumeError, type YumeErrorOptions } from '../../common/errors.js';
import capabilitiesSchema from '../../schemas/capabilities.schema.json' with { type: 'json' };
import expectedFailuresSchema from '../../schemas/expected-failures.schema.json' with { type: 'json' };
import invocationSchema from '../../schemas/invocation.schema.json' with { type: 'json' };
import presetSchema from '../../schemas/preset.schema.json' with { type: 'json' };
import type { LoadedScenario } from '../mock/scenario/scenario-types.js';
import claudeCode from '../presets/claude-code.json' with { type: 'json' };
import type { Profile } from '../rules/types.js';
import { type Capabilities, type CapabilitiesFile, capabilitiesFrom } from '../runner/config/capabilities.js';
import { checkConfigValue } from '../runner/config/config-file.js';
import type { ExpectedFailure } from '../runner/config/expected-failures.js';
import type { Invocation, InvocationTemplate } from '../runner/config/invocation.js';
import type { RunSpec } from '../runner/results/run-types.js';

export interface Preset {
  name: string;
  description: string;
  program: string;
  package?: { name: string; version: string };
  timeoutMs: number;
  timeoutReason: string;
  /** The most runs at once per core without --jobs (schedule.ts). */
  maxJobsPerCore?: number;
  maxJobsReason?: string;
  invocation: InvocationTemplate;
  envWhenRoot?: Record<string, string>;
  envWhenRootReason?: string;
  capabilities: CapabilitiesFile;
  runs: { profile: Profile; scenarios: string[]; missing?: { scenario: string; reason: string }[] }[];
  outside: { what: string; scenarios?: string[]; reason: string }[];
  expectedFailures: ExpectedFailure[];
}

const BUNDLED: Record<string, unknown> = { 'claude-code': claudeCode };

/** Names of the presets the package ships. */
export const PRESET_NAMES = Object.keys(BUNDLED);

/** An unknown or invalid preset (code PRESET). */
export class PresetError extends YumeError {
  override name = 'PresetError';
  constructor(message: string, options?: YumeErrorOptions) {
    super('PRESET', message, options);
  }
}

/** A bundled preset, validated against schemas/preset.schema.json. */
export function loadPreset(name: string): Preset {
  const value = BUNDLED[name];
  if (value === undefined)
    throw new PresetError(`unknown preset "${name}" — fix: use one of ${PRESET_NAMES.join(', ')}`);
  return checkConfigValue<Preset>(value, {
    file: `harness/presets/${name}.json`,
    schema: presetSchema,
    what: '--preset',
    schemaName: 'schemas/preset.schema.json',
    refs: [invocationSchema, capabilitiesSchema, expectedFailuresSchema],
  });
}

/** Whether this process runs as root (POSIX uid 0); never on Windows. */
export function runningAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The preset's invocation: its template, plus the root-only environment when running as root. */
export function presetInvocation(preset: Preset, asRoot = runningAsRoot()): Invocation {
  const env = { ...(preset.invocation.env ?? {}), ...(asRoot ? (preset.envWhenRoot ?? {}) : {}) };
  return { kind: 'template', file: preset.name, template: { ...preset.invocation, env } };
}

export function presetCapabilities(preset: Preset): Capabilities {
  return capabilitiesFrom(preset.capabilities, `preset ${preset.name}`);
}

/**
 * The preset's runs: each listed scenario once per listed profile, with its first provider and dialect, no
 * re-chunking. `only` narrows them (--scenario, --profile); a listed scenario the package does not hold is an
 * error in the preset.
 */
export function presetSpecs(
  preset: Preset,
  scenarios: readonly LoadedScenario[],
  only: { scenarios?: readonly string[]; profile?: Profile } = {},
  asRoot = runningAsRoot(),
): RunSpec[] {
  const byId = new Map(scenarios.map((scenario) => [scenario.id, scenario]));
  const capabilities = presetCapabilities(preset);
  const invocation = presetInvocation(preset, asRoot);
  const specs: RunSpec[] = [];
  for (const run of preset.runs) {
    if (only.profile && run.profile !== only.profile) continue;
    for (const id of run.scenarios) {
      if (only.scenarios && only.scenarios.length > 0 && !only.scenarios.includes(id)) continue;
      const scenario = byId.get(id);
      if (!scenario)
        throw new PresetError(
          `preset ${preset.name} lists scenario "${id}", which is not in the transcripts — fix: move it to "missing"`,
        );
      specs.push({
        scenario,
        provider: capabilities.providers[0]!,
        invocation,
        profile: run.profile,
        dialect: capabilities.dialects[0] ?? 'flat',
      });
    }
  }
  return specs;
}
