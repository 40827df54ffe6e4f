// What a suite run is made of: its options, the shim and its capabilities, the providers, scenarios and matrix
// they select (or a preset's list), and the shard of it this machine runs. The suite itself runs in
// harness/suite/run-conformance.ts.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { defaultTranscriptsDir } from '../mock/package-paths.js';
import { loadAllScenarios } from '../mock/scenario/scenario-loader.js';
import type { LoadedScenario } from '../mock/scenario/scenario-types.js';
import type { OfficialCliSettings } from '../official-cli/backend.js';
import { findPackageRoot } from '../package-root.js';
import { type PlatformName, runnerPlatform } from '../process/platform.js';
import type { Profile } from '../rules/types.js';
import {
  type Capabilities,
  type CapabilitiesFile,
  capabilitiesFrom,
  DEFAULT_CAPABILITIES,
  loadCapabilities,
  REFERENCE_SHIM_CAPABILITIES,
} from '../runner/config/capabilities.js';
import { type ExpectedFailure, loadExpectedFailures } from '../runner/config/expected-failures.js';
import { type Invocation, resolveInvocation } from '../runner/config/invocation.js';
import { PROVIDER_IDS, type ProviderId } from '../runner/config/providers.js';
import { runKey, specIdentity } from '../runner/results/run-identity.js';
import type { RunResult, RunSpec } from '../runner/results/run-types.js';
import type { WatchedRoot } from './home-temp-watch.js';
import { buildMatrix } from './matrix.js';
import { loadPreset, type Preset, PresetError, presetCapabilities, presetInvocation, presetSpecs } from './preset.js';
import { assignShards, type Shard, selectionFingerprint } from './shard.js';
import { commandStartProblem, shimStartProblem } from './shim-check.js';
import type { SignalSource } from './stop-signals.js';

export interface RunOptions {
  /** The shim (path or command). Default: the bundled reference shim (dist/yume-shim.cjs). */
  shim?: string;
  shimArgs?: string[];
  /** Extra environment for the shim (--env K=V). */
  env?: Record<string, string>;
  /** Provider ids, or ['all']. Default: the declared providers. */
  providers?: string[];
  /** Scenario ids. Default: all. */
  scenarios?: string[];
  profile?: Profile;
  /** 'spec' | 'yume-app' | a template file. */
  invocation?: string;
  /** Capabilities file, or the declarations themselves (schemas/capabilities.schema.json). */
  capabilities?: string | CapabilitiesFile;
  /** Expected-failures file. */
  expectedFailures?: string;
  /**
   * A preset the package ships (`claude-code`): the program to run when no shim is given, its invocation,
   * capabilities, run list, timeout and expected failures. Explicit options still win.
   */
  preset?: string;
  /** Runs at a time, fixed. Default: the cores, growing while the machine has room (schedule.ts). */
  jobs?: number;
  /** Told each change of the default width (runs at once), with why (the CLI's progress says it). */
  onWidth?: (width: number, why: string) => void;
  /** Run only this part of the selection (--shard i/n). */
  shard?: Shard;
  /** Per process. Default 30 s. */
  timeoutMs?: number;
  /** Base seed of the re-chunked variants. Default 1. */
  seed?: number;
  /** The full matrix (R12). */
  full?: boolean;
  /** Where the scenarios live. Default: the package's transcripts/. */
  transcriptsDir?: string;
  platform?: PlatformName;
  /** Called as each run finishes (the CLI prints a progress line). */
  onProgress?: (result: RunResult, done: number, total: number) => void;
  /** Goldens mode: no golden comparison. */
  recordOnly?: boolean;
  keepDirectories?: boolean;
  /** Write each run's full stdout, stderr, requests and golden diff under this folder (--artifacts). */
  artifactsDir?: string;
  /** Fake official CLIs (default) or the real ones. */
  officialCli?: OfficialCliSettings;
  /** The git command that makes the scenario workspaces (default `git` on PATH). */
  git?: string;
  /** Stdout capture limit per process (default 64 MB). */
  maxStdoutBytes?: number;
  /** Request body limit of the mocks (default 64 MB). */
  maxRequestBodyBytes?: number;
  /** Where stop signals come from (default: the process; tests pass an emitter). */
  signals?: SignalSource;
  /**
   * The real home and the system temp folder the suite watches for shims that ignore HOME and TMPDIR
   * (default: defaultWatchedRoots(), home-temp-watch.ts); tests point them at folders of their own.
   */
  watchedRoots?: readonly WatchedRoot[];
  /** Play each run this many times; a run whose outcome class differs is `flaky` (--repeat). Default 1. */
  repeat?: number;
  /** A flaky run warns instead of failing the suite (--flaky-ok). */
  flakyOk?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_SEED = 1;

/** dist/yume-shim.cjs of this package. */
export function bundledReferenceShim(): string {
  return path.join(findPackageRoot(), 'dist', 'yume-shim.cjs');
}

function resolveCapabilities(options: RunOptions, usingReference: boolean): Capabilities {
  if (typeof options.capabilities === 'string') return loadCapabilities(options.capabilities);
  if (options.capabilities) return capabilitiesFrom(options.capabilities, 'capabilities given to runConformance()');
  return usingReference ? REFERENCE_SHIM_CAPABILITIES : DEFAULT_CAPABILITIES;
}

function resolveProviders(requested: string[] | undefined, capabilities: Capabilities): ProviderId[] {
  if (!requested || requested.length === 0) return capabilities.providers;
  if (requested.includes('all')) return [...PROVIDER_IDS];
  for (const id of requested) {
    if (!(PROVIDER_IDS as readonly string[]).includes(id)) {
      throw new UsageError(`unknown provider "${id}" (choose from ${PROVIDER_IDS.join(', ')}, or all)`);
    }
  }
  return [...new Set(requested)] as ProviderId[];
}

function resolveScenarios(all: LoadedScenario[], requested: string[] | undefined): LoadedScenario[] {
  if (!requested || requested.length === 0) return all;
  const byId = new Map(all.map((scenario) => [scenario.id, scenario]));
  return requested.map((id) => {
    const scenario = byId.get(id);
    if (!scenario) throw new UsageError(`unknown scenario "${id}" (see \`yume-conformance run --list\`)`);
    return scenario;
  });
}

/** The version of this package (reports of different versions are not merged). */
export function suiteVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(findPackageRoot(), 'package.json'), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? '0.0.0';
}

export interface ResolvedSuite {
  shim: string;
  usingReference: boolean;
  capabilities: Capabilities;
  invocation?: Invocation;
  scenarios: LoadedScenario[];
  providers: ProviderId[];
  /** The runs this process makes (the shard's, with --shard). */
  specs: RunSpec[];
  /** Position of each spec in the whole selection. */
  positions: number[];
  /** Fingerprint and size of the whole selection (before --shard). */
  selection: { fingerprint: string; runs: number };
  expected: ExpectedFailure[];
  seed: number;
  /** Per-process timeout: --timeout, else the preset's, else the default. */
  timeoutMs: number;
  /** The preset's cap on runs at once per core (without --jobs). */
  presetPerCore?: number;
  /** Why the shim cannot be started at all (a missing file or command, ...): then no run takes place. */
  startProblem?: string;
}

/** The runs of this process (the shard's, with --shard), their positions and the whole selection's fingerprint. */
function sharded(
  selected: RunSpec[],
  shard: Shard | undefined,
): Pick<ResolvedSuite, 'specs' | 'positions' | 'selection'> {
  const selection = {
    fingerprint: selectionFingerprint(selected.map((spec) => runKey(specIdentity(spec)))),
    runs: selected.length,
  };
  const shards = shard ? assignShards(selected, shard.count) : undefined;
  const positions = selected.flatMap((_, index) => (!shards || shards[index] === shard!.index ? [index] : []));
  return { specs: positions.map((index) => selected[index]!), positions, selection };
}

/** Everything but running: the CLI's --list uses it too. Throws UsageError / ConfigFileError. */
export function resolveSuite(options: RunOptions): ResolvedSuite {
  if (options.preset !== undefined) return resolvePresetSuite(options, options.preset);
  const usingReference = options.shim === undefined;
  const shim = usingReference ? bundledReferenceShim() : path.resolve(options.shim!);
  if (usingReference && !existsSync(shim))
    throw new UsageError(`the bundled reference shim ${shim} is missing: run \`npm run build\``);
  const platform = options.platform ?? runnerPlatform();
  // A path must exist and be startable; a bare command name must be on the shim's PATH.
  const startProblem = usingReference
    ? undefined
    : /[\\/]/.test(options.shim!)
      ? shimStartProblem(shim, options.shim!, platform)
      : commandStartProblem(options.shim!, platform, { ...process.env, ...options.env });
  const capabilities = resolveCapabilities(options, usingReference);
  const invocation = options.invocation === undefined ? undefined : resolveInvocation(options.invocation);
  const scenarios = resolveScenarios(
    loadAllScenarios(options.transcriptsDir ?? defaultTranscriptsDir()),
    options.scenarios,
  );
  const providers = resolveProviders(options.providers, capabilities);
  const seed = options.seed ?? DEFAULT_SEED;
  const selected = buildMatrix({
    scenarios,
    providers,
    ...(invocation ? { invocation } : {}),
    ...(options.profile ? { profile: options.profile } : {}),
    capabilities,
    full: options.full === true,
    seed,
  });
  const expected = options.expectedFailures ? loadExpectedFailures(options.expectedFailures) : [];
  const { specs, positions, selection } = sharded(selected, options.shard);
  return {
    shim: usingReference ? shim : /[\\/]/.test(options.shim!) ? shim : options.shim!,
    usingReference,
    capabilities,
    ...(invocation ? { invocation } : {}),
    scenarios,
    providers,
    specs,
    positions,
    selection,
    expected,
    seed,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(startProblem ? { startProblem } : {}),
  };
}

/** `--preset NAME`: the preset's program, invocation, capabilities and run list (explicit options win). */
function resolvePresetSuite(options: RunOptions, name: string): ResolvedSuite {
  let preset: Preset;
  try {
    preset = loadPreset(name);
  } catch (error) {
    if (error instanceof PresetError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
  const given = options.shim ?? preset.program;
  const shim = /[\\/]/.test(given) ? path.resolve(given) : given;
  const startProblem = /[\\/]/.test(given)
    ? existsSync(shim)
      ? undefined
      : `shim ${given} does not exist`
    : commandStartProblem(given, options.platform ?? process.platform, { ...process.env, ...options.env });
  const capabilities = options.capabilities ? resolveCapabilities(options, false) : presetCapabilities(preset);
  const invocation =
    options.invocation === undefined ? presetInvocation(preset) : resolveInvocation(options.invocation);
  const scenarios = loadAllScenarios(options.transcriptsDir ?? defaultTranscriptsDir());
  let selected: RunSpec[];
  try {
    selected = presetSpecs(preset, scenarios, {
      ...(options.scenarios ? { scenarios: options.scenarios } : {}),
      ...(options.profile ? { profile: options.profile } : {}),
    }).map((spec) => ({ ...spec, invocation }));
  } catch (error) {
    if (error instanceof PresetError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
  const expected = [
    ...preset.expectedFailures,
    ...(options.expectedFailures ? loadExpectedFailures(options.expectedFailures) : []),
  ];
  return {
    shim,
    usingReference: false,
    capabilities,
    invocation,
    scenarios: selected.map((spec) => spec.scenario),
    providers: capabilities.providers,
    ...sharded(selected, options.shard),
    expected,
    seed: options.seed ?? DEFAULT_SEED,
    timeoutMs: options.timeoutMs ?? preset.timeoutMs,
    ...(preset.maxJobsPerCore === undefined ? {} : { presetPerCore: preset.maxJobsPerCore }),
    ...(startProblem ? { startProblem } : {}),
  };
}
