// One run of the matrix, start to end: decide whether it can be verified at all, prepare its directories,
// mock and fake CLIs, drive the shim (execute-run.ts), judge what happened (check-run.ts), and clean up.

import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { writeAuthHelpers } from '../mock/auth-helpers.js';
import { type DummyCredentials, defaultAcceptedCredentials, runCredentials } from '../mock/credentials.js';
import { type MockServer, startMockServer } from '../mock/mock-server.js';
import type { FirstTextSent } from '../mock/mock-types.js';
import { type InstalledOfficialCli, mockOptionsFor } from '../official-cli/backend.js';
import type { OfficialCliName } from '../official-cli/script-types.js';
import { type CheckInput, checkRun } from './checks/check-run.js';
import { scenarioUnderProfile } from './config/profile-stops.js';
import { cliFor, type ProviderEntry, providerEntry, providerFlags } from './config/providers.js';
import { type ExecutedProcess, executeRun } from './execution/execute-run.js';
import { type Preflight, preflight } from './preflight.js';
import { secretValues } from './redact.js';
import type { RunResult, RunSpec, SuiteSettings } from './results/run-types.js';
import { removeRunFolders, withCleanupFinding } from './run-cleanup.js';
import { RunClock } from './run-clock.js';
import { harnessErrorResult, judgedResult, notVerifiedResult } from './run-result.js';
import { WorkspaceTemplates } from './setup/git-workspace.js';
import { createRunDirectories, type RunDirectories, runnerEntries } from './setup/workspace.js';
import { shimEnvironment } from './shim-environment.js';

export { harnessErrorResult, notVerifiedResult, preflight };

/** What a run has once its folders and mock are up: everything judging it reads. */
interface PreparedRun {
  spec: RunSpec;
  settings: SuiteSettings;
  check: Preflight;
  entry: ProviderEntry;
  dirs: RunDirectories;
  credentials: DummyCredentials;
  /** The official CLI installed for the shim; undefined when the provider drives none or the scenario has it missing. */
  cli: OfficialCliName | undefined;
  mock: MockServer;
  clock: RunClock;
}

/**
 * Executes one run of the matrix. Never throws: whatever a shim does becomes a finding, and a fault inside the
 * harness while running or judging the run gives that run the status `error` (the suite goes on to the next).
 */
export async function runScenario(scripted: RunSpec, settings: SuiteSettings): Promise<RunResult> {
  const started = performance.now();
  const spec = { ...scripted, scenario: scenarioUnderProfile(scripted.scenario, scripted.profile) };
  try {
    return await attemptRun(spec, settings);
  } catch (error) {
    return harnessErrorResult(spec, error, performance.now() - started);
  }
}

async function attemptRun(spec: RunSpec, settings: SuiteSettings): Promise<RunResult> {
  const check = preflight(spec, settings);
  if (check.notVerified) return notVerifiedResult(spec, check);
  const templates =
    settings.workspaces ??
    new WorkspaceTemplates({
      keep: settings.keepDirectories === true,
      ...(settings.scratchDir ? { base: settings.scratchDir } : {}),
    });
  try {
    const prepared = await templates.prepare(spec.scenario);
    if ('notVerified' in prepared)
      return notVerifiedResult(spec, { persistent: check.persistent, notVerified: prepared.notVerified });
    return await runPrepared(spec, settings, check, prepared);
  } finally {
    if (!settings.workspaces) await templates.close();
  }
}

async function runPrepared(
  spec: RunSpec,
  settings: SuiteSettings,
  check: Preflight,
  workspace: { source: string | undefined; gitObjects?: string },
): Promise<RunResult> {
  const entry = providerEntry(spec.provider)!;
  const clock = new RunClock();
  const dirs = await createRunDirectories(`${spec.scenario.id}-${spec.provider}`, workspace.source, {
    ...(workspace.gitObjects ? { gitObjects: workspace.gitObjects } : {}),
    ...(settings.scratchDir ? { base: settings.scratchDir } : {}),
  });
  clock.phaseEnd('setupMs');
  // This run's own dummy keys: its mock accepts only these, so no other run's shim can use it.
  const credentials = runCredentials();
  // R5 "binary or CLI missing": no fake CLI, and no real one either (missing-cli.ts).
  const cli =
    spec.scenario.cli === 'missing'
      ? undefined
      : cliFor(entry, spec.invocation.kind === 'template' ? 'template' : spec.invocation.kind);
  const mock = await startRunMock({ spec, settings, entry, credentials, cli, dirs });
  clock.phaseEnd('mockMs');
  noteMockEvents(mock, clock);
  const run: PreparedRun = { spec, settings, check, entry, dirs, credentials, cli, mock, clock };
  // What the shim ran, for the cleanup: its tracked processes are ended if the folders cannot be removed.
  const executed: ExecutedProcess[] = [];
  let result: RunResult | undefined;
  try {
    result = await judgeRun(run, executed);
  } finally {
    clock.restart();
    await mock.close();
    clock.phaseEnd('mockMs');
    if (!settings.keepDirectories) {
      // Judging is over: a folder that cannot be removed is one more finding before the verdict is final (R20).
      const failure = await removeRunFolders(dirs, {
        platform: settings.platform,
        processes: executed,
        ...(settings.removeDirectories ? { remove: settings.removeDirectories } : {}),
      });
      if (failure && result) {
        result = withCleanupFinding(result, failure, dirs.root);
        clock.note('runner', `the run's folder could not be removed: ${failure.error.split('\n')[0]}`);
      }
    }
    clock.phaseEnd('cleanupMs');
  }
  return result;
}

/** The run's own mock: its scenario, its dummy keys, and what the official CLI in between (if any) needs of it. */
function startRunMock(
  options: Pick<PreparedRun, 'spec' | 'settings' | 'entry' | 'credentials' | 'cli' | 'dirs'>,
): Promise<MockServer> {
  const { spec, settings } = options;
  const mockForCli = mockOptionsFor(options.cli ? (settings.officialCli ?? { mode: 'fake' }).mode : 'fake', {
    workspace: options.dirs.workspace,
  });
  return startMockServer({
    acceptedCredentials: defaultAcceptedCredentials(options.credentials),
    scenario: spec.scenario,
    provider: options.entry.mock,
    ...(spec.seed === undefined ? {} : { seed: spec.seed }),
    gate: mockForCli.gate,
    ...(mockForCli.mapTools ? { mapTools: mockForCli.mapTools } : {}),
    ...(settings.maxRequestBodyBytes ? { maxBodyBytes: settings.maxRequestBodyBytes } : {}),
  });
}

function noteMockEvents(mock: MockServer, clock: RunClock): void {
  mock.events.on('request', (request: { index: number; method: string; path: string; turn: number }) =>
    clock.note('mock', `request #${request.index + 1} ${request.method} ${request.path} (turn ${request.turn + 1})`),
  );
  mock.events.on('first-text-sent', (sent: FirstTextSent) =>
    clock.note(
      'mock',
      sent.summary
        ? "the compaction summary's first chunk streamed (a summary is never withheld)"
        : 'first text chunk streamed (rest withheld until the shim prints text)',
    ),
  );
  mock.events.on('client-closed', (request: { index: number }) =>
    clock.note('mock', `request #${request.index + 1}: connection closed by the shim`),
  );
}

/** Sets up the shim's environment, drives the shim and judges the run; `executed` receives what the shim ran. */
async function judgeRun(run: PreparedRun, executed: ExecutedProcess[]): Promise<RunResult> {
  const { spec, settings, check, entry, dirs, mock, clock } = run;
  const notVerified = (record: { notVerified: Preflight['notVerified'] }) =>
    notVerifiedResult(spec, { persistent: check.persistent, notVerified: record.notVerified });
  await writeAuthHelpers(dirs.bin, run.credentials);
  const prepared = await shimEnvironment({
    spec,
    settings,
    dirs,
    credentials: run.credentials,
    baseUrls: mock.baseUrls,
    cli: run.cli,
    note: clock.note,
  });
  if ('notVerified' in prepared) return notVerified(prepared);
  const { env, installed } = prepared;
  clock.phaseEnd('setupMs'); // auth helpers, the official CLI's install, environment
  const execution = await executeRun({
    spec,
    settings,
    persistent: check.persistent,
    baseValues: {
      providerId: spec.provider,
      cwd: dirs.workspace,
      sessionId: `yc-${spec.scenario.id}-${randomBytes(4).toString('hex')}`,
      apiBase: mock.baseUrls[entry.baseUrl],
      ...(spec.scenario.permissionMode === undefined ? {} : { permissionMode: spec.scenario.permissionMode }),
      protocolVersion: settings.protocolVersion,
    },
    env,
    cwd: dirs.workspace,
    hooks: {
      mock,
      note: clock.note,
      ...(installed ? { setCliTurn: installed.setTurn } : {}),
      ...(installed?.waitFor ? { cliEvent: installed.waitFor } : {}),
      ...(installed?.mode === 'real' ? { interruptFallbackMs: settings.timeoutMs / 2 } : {}),
    },
  });
  if ('notVerified' in execution) return notVerified(execution);
  executed.push(...execution.processes);
  const requests = mock.requests();
  clock.phaseEnd('executeMs');
  for (const process of execution.processes) clock.phases.spawnMs += process.exit.spawnMs ?? 0;
  const checked = await checkRun(checkInputOf(run, { processes: execution.processes, requests, installed }));
  clock.phaseEnd('checksMs');
  return judgedResult({
    spec,
    checked,
    processes: execution.processes,
    mock,
    clock,
    secrets: [...secretValues(env), ...Object.values(run.credentials)],
    directories: { workspace: dirs.workspace, home: dirs.home },
  });
}

/** What the checks read of the run: the spec, what the shim did, the mock's requests, the official CLI's log. */
function checkInputOf(
  run: PreparedRun,
  observed: {
    processes: ExecutedProcess[];
    requests: CheckInput['requests'];
    installed: InstalledOfficialCli | undefined;
  },
): CheckInput {
  const { processes, requests, installed } = observed;
  const { spec, settings, check, entry, dirs } = run;
  const flags =
    spec.invocation.kind === 'template'
      ? spec.invocation.template.providers[entry.id]
      : providerFlags(entry, spec.invocation.kind);
  return {
    scenario: spec.scenario,
    provider: entry,
    profile: spec.profile,
    dialect: spec.dialect ?? (settings.capabilities.dialects.includes('claude') ? 'claude' : 'flat'),
    persistent: check.persistent,
    invocation: spec.invocation.kind,
    processes,
    workspace: dirs.workspace,
    home: dirs.home,
    runFolder: { root: dirs.root, made: runnerEntries(dirs) },
    ...(flags ? { providerFlag: flags.provider } : {}),
    requests,
    // R7: under yume-app the gemini/openai ids offer both backends; the checks follow the one the shim used.
    ...(run.cli && installed
      ? {
          cli: {
            behaviour: installed.behaviour,
            log: installed.readLog(),
            leftoverDirs: installed.leftoverDirs,
            required: entry.kind === 'cli' && spec.invocation.kind !== 'yume-app',
          },
        }
      : {}),
    recordOnly: settings.recordOnly === true,
  };
}
