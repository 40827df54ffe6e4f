// The environment a run's shim starts with: the official CLI its provider drives installed on its PATH (fake or
// real), or for a "cli": "missing" scenario (R5) every official CLI kept off its PATH (missing-cli.ts); the
// dialect asked; the run's own folders, dummy keys and mock URLs (environment.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DummyCredentials } from '../mock/credentials.js';
import type { MockServer } from '../mock/mock-server.js';
import { type InstalledOfficialCli, installOfficialCli } from '../official-cli/backend.js';
import type { OfficialCliName } from '../official-cli/script-types.js';
import { findPackageRoot } from '../package-root.js';
import { type NotVerified, runNotVerified } from '../rules/not-verified.js';
import { DIALECT_VARIABLE } from './config/capabilities.js';
import type { RunSpec, SuiteSettings, TimelineEntry } from './results/run-types.js';
import { buildEnvironment } from './setup/environment.js';
import { hideProgramsFromPath, keepNodeReachable, programsOnPath } from './setup/missing-cli.js';
import type { RunDirectories } from './setup/workspace.js';

export interface ShimEnvironmentOptions {
  spec: RunSpec;
  settings: SuiteSettings;
  dirs: RunDirectories;
  credentials: DummyCredentials;
  baseUrls: MockServer['baseUrls'];
  /** The official CLI to install; undefined when the provider drives none, or the scenario has it missing. */
  cli: OfficialCliName | undefined;
  /** Adds a line to the run's timeline. */
  note: (source: TimelineEntry['source'], text: string) => void;
}

export interface ShimEnvironment {
  env: Record<string, string>;
  installed?: InstalledOfficialCli;
}

/** dist/fake-cli.js of this package (found from the package root, wherever the runner's code was bundled). */
function bundledFakeCli(): string {
  return path.join(findPackageRoot(), 'dist', 'fake-cli.js');
}

/** The shim's environment, or why the run cannot be verified (the CLI could not be installed, or hidden). */
export async function shimEnvironment(
  options: ShimEnvironmentOptions,
): Promise<ShimEnvironment | { notVerified: NotVerified }> {
  const { spec, settings, dirs, credentials, baseUrls } = options;
  const cli = await installedCli(options);
  if ('notVerified' in cli) return cli;
  const harnessEnv = { ...(cli.installed?.env ?? {}) };
  // Under the yume-app invocation no dialect is asked (R1a): the shim prints what the app's command line gets.
  if (spec.dialect !== undefined && spec.dialect !== settings.capabilities.dialects[0])
    harnessEnv[DIALECT_VARIABLE] = spec.dialect;
  const cliMissing = spec.scenario.cli === 'missing';
  const env = buildEnvironment({
    platform: settings.platform,
    parent: cliMissing ? parentWithoutClis(options) : process.env,
    home: dirs.home,
    temp: dirs.temp,
    ...(settings.cacheDir ? { cache: settings.cacheDir } : {}),
    credentials,
    baseUrls,
    pathFirst: [dirs.bin],
    scenario: spec.scenario.env,
    harness: harnessEnv,
    user: settings.userEnv,
  });
  const stillFound = cliMissing ? programsOnPath(env, settings.platform, dirs.workspace) : [];
  if (stillFound.length > 0) {
    return {
      notVerified: runNotVerified(
        'platform',
        `the scenario needs no official CLI on the shim's PATH, but ${stillFound.join(', ')} can be found there (a PATH from --env or the scenario's env)`,
      ),
    };
  }
  return { env, ...(cli.installed ? { installed: cli.installed } : {}) };
}

/** Installs the official CLI the run needs (none when `cli` is undefined). */
async function installedCli(
  options: ShimEnvironmentOptions,
): Promise<{ installed?: InstalledOfficialCli } | { notVerified: NotVerified }> {
  const { spec, settings, dirs, cli } = options;
  if (!cli) return {};
  const outcome = await installOfficialCli(settings.officialCli ?? { mode: 'fake' }, {
    cli,
    binDir: dirs.bin,
    stateDir: dirs.state,
    scenario: spec.scenario,
    endpoints: options.baseUrls,
    credentials: options.credentials,
    ...(existsSync(bundledFakeCli()) ? { fakeScript: bundledFakeCli() } : {}),
    ...(settings.execPath ? { node: settings.execPath } : {}),
    stallTimeoutMs: settings.timeoutMs,
    platform: settings.platform,
    ...(settings.cacheDir ? { cacheDir: settings.cacheDir } : {}),
  });
  if ('notVerified' in outcome) return outcome;
  if (outcome.mode === 'real')
    options.note('runner', `the real ${cli} runs behind a PATH wrapper that logs its starts`);
  return { installed: outcome };
}

/** R5 "binary or CLI missing": the runner's environment without the PATH folders that hold an official CLI. */
function parentWithoutClis(options: ShimEnvironmentOptions): NodeJS.ProcessEnv {
  const { settings, dirs, note } = options;
  const hidden = hideProgramsFromPath(process.env, settings.platform, dirs.workspace);
  if (hidden.dropped.length > 0)
    note('runner', `PATH folders holding an official CLI left out of the shim's PATH: ${hidden.dropped.join(', ')}`);
  const linked = keepNodeReachable(hidden.dropped, {
    nodePath: settings.execPath ?? process.execPath,
    binDir: dirs.bin,
    platform: settings.platform,
    cwd: dirs.workspace,
  });
  if (linked) note('runner', "node linked into the run's bin folder (its own folder was left out)");
  return hidden.parent;
}
