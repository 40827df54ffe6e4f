// One run of the matrix, start to end: decide whether it can be verified at all, prepare its directories,
// mock and fake CLIs, drive the shim (execute-run.ts), judge what happened (check-run.ts), and clean up.

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeAuthHelpers } from '../mock/auth-helpers.js';
import { defaultAcceptedCredentials, runCredentials } from '../mock/credentials.js';
import { type MockServer, startMockServer } from '../mock/mock-server.js';
import { requiredUnder } from '../mock/scenario/scenario-types.js';
import { type InstalledOfficialCli, installOfficialCli, mockOptionsFor } from '../official-cli/backend.js';
import { findPackageRoot } from '../package-root.js';
import { runFinding } from '../rules/finding.js';
import { notVerifiedLine, notVerifiedText, runNotVerified } from '../rules/not-verified.js';
import type { Finding } from '../rules/types.js';
import { checkRun } from './checks/check-run.js';
import { DIALECT_VARIABLE } from './config/capabilities.js';
import { invocationName } from './config/invocation.js';
import { cliFor, type ProviderEntry, providerEntry, providerFlags } from './config/providers.js';
import { type ExecutedProcess, executeRun } from './execution/execute-run.js';
import { capPerRule, causesFirst } from './finding-order.js';
import { type Preflight, preflight } from './preflight.js';
import { secretValues } from './redact.js';
import { machineUndecided } from './results/machine-undecided.js';
import type {
  ProcessRecord,
  RequestRecord,
  RunPhases,
  RunResult,
  RunSpec,
  SuiteSettings,
  TimelineEntry,
} from './results/run-types.js';
import { removeRunFolders, withCleanupFinding } from './run-cleanup.js';
import { buildEnvironment } from './setup/environment.js';
import { WorkspaceTemplates } from './setup/git-workspace.js';
import { hideProgramsFromPath, keepNodeReachable, programsOnPath } from './setup/missing-cli.js';
import { createRunDirectories, runnerEntries } from './setup/workspace.js';

export { type Preflight, preflight };

/** dist/fake-cli.js of this package (found from the package root, wherever the runner's code was bundled). */
function bundledFakeCli(): string {
  return path.join(findPackageRoot(), 'dist', 'fake-cli.js');
}

function apiBaseFor(entry: ProviderEntry, mock: MockServer): string {
  return mock.baseUrls[entry.baseUrl];
}

function toRequestRecords(mock: MockServer): RequestRecord[] {
  return mock.requests().map((request) => ({
    index: request.index,
    turn: request.turn,
    method: request.method,
    path: request.path,
    status: request.status,
    outcome: request.outcome,
    elapsedMs: request.elapsedMs,
    closedByClient: request.closedByClient,
    // Whole: --artifacts writes it as sent; the JSON report and the HTML page cut it (report/run-output.ts).
    body: request.rawBody,
  }));
}

function toProcessRecord(process: ExecutedProcess, golden?: string): ProcessRecord {
  return {
    label: process.label,
    turns: process.turns,
    argv: process.argv,
    stdout: process.exit.stdout,
    stderr: process.exit.stderr.toString('utf8'),
    exitCode: process.exit.exitCode,
    signal: process.exit.signal,
    ...(golden === undefined ? {} : { goldenText: golden }),
  };
}

function baseResult(
  spec: RunSpec,
): Omit<RunResult, 'status' | 'findings' | 'durationMs' | 'processes' | 'requests' | 'timeline'> {
  return {
    scenario: spec.scenario.id,
    provider: spec.provider,
    invocation: invocationName(spec.invocation),
    profile: spec.profile,
    ...(spec.dialect === undefined ? {} : { dialect: spec.dialect }),
    ...(spec.seed === undefined ? {} : { seed: spec.seed }),
    required: requiredUnder(spec.scenario, spec.profile),
  };
}

/** A run that was not attempted. */
export function notVerifiedResult(spec: RunSpec, check: Preflight): RunResult {
  const findings: Finding[] = [];
  const required = requiredUnder(spec.scenario, spec.profile);
  const limitation = check.limitation;
  if (required && !limitation) {
    findings.push(
      runFinding(
        'scenario.required-verified',
        `required scenario ${spec.scenario.id} is not verified for ${spec.provider}: ${check.notVerified ? notVerifiedText(check.notVerified) : ''}`,
      ),
    );
  }
  return {
    ...baseResult(spec),
    status: required && limitation ? 'partial' : 'not-verified',
    findings,
    ...(check.notVerified ? { notVerified: [check.notVerified] } : {}),
    ...(limitation ? { limitation } : {}),
    durationMs: 0,
    processes: [],
    requests: [],
    timeline: [],
  };
}

/**
 * Executes one run of the matrix. Never throws: whatever a shim does becomes a finding, and a fault inside the
 * harness while running or judging the run gives that run the status `error` (the suite goes on to the next).
 */
export async function runScenario(spec: RunSpec, settings: SuiteSettings): Promise<RunResult> {
  const started = performance.now();
  try {
    return await attemptRun(spec, settings);
  } catch (error) {
    return harnessErrorResult(spec, error, performance.now() - started);
  }
}

/** The result of a run the harness could not carry through: status error, with what failed and where. */
export function harnessErrorResult(spec: RunSpec, error: unknown, durationMs: number): RunResult {
  const where = error instanceof Error ? error.stack?.split('\n')[1]?.trim() : undefined;
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    ...baseResult(spec),
    status: 'error',
    findings: [],
    error: `internal error in the harness (not a verdict on the shim): ${what}${where ? ` (${where})` : ''}`,
    durationMs: Math.round(durationMs),
    processes: [],
    requests: [],
    timeline: [],
  };
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
  const started = performance.now();
  const timeline: TimelineEntry[] = [];
  const note = (source: TimelineEntry['source'], text: string) =>
    timeline.push({ atMs: Math.round(performance.now() - started), source, text });

  const phases: RunPhases = { setupMs: 0, mockMs: 0, executeMs: 0, spawnMs: 0, checksMs: 0, cleanupMs: 0 };
  let phaseStart = performance.now();
  const phaseEnd = (name: keyof RunPhases) => {
    const now = performance.now();
    phases[name] += now - phaseStart;
    phaseStart = now;
  };
  const dirs = await createRunDirectories(`${spec.scenario.id}-${spec.provider}`, workspace.source, {
    ...(workspace.gitObjects ? { gitObjects: workspace.gitObjects } : {}),
    ...(settings.scratchDir ? { base: settings.scratchDir } : {}),
  });
  phaseEnd('setupMs');
  // This run's own dummy keys: its mock accepts only these, so no other run's shim can use it.
  const credentials = runCredentials();
  // R5 "binary or CLI missing": no fake CLI, and no real one either (missing-cli.ts).
  const cliMissing = spec.scenario.cli === 'missing';
  const cli = cliMissing
    ? undefined
    : cliFor(entry, spec.invocation.kind === 'template' ? 'template' : spec.invocation.kind);
  const officialCli = settings.officialCli ?? { mode: 'fake' };
  const mockForCli = mockOptionsFor(cli ? officialCli.mode : 'fake');
  const mock = await startMockServer({
    acceptedCredentials: defaultAcceptedCredentials(credentials),
    scenario: spec.scenario,
    provider: entry.mock,
    ...(spec.seed === undefined ? {} : { seed: spec.seed }),
    gate: mockForCli.gate,
    ...(mockForCli.mapTools ? { mapTools: mockForCli.mapTools } : {}),
    ...(settings.maxRequestBodyBytes ? { maxBodyBytes: settings.maxRequestBodyBytes } : {}),
  });
  phaseEnd('mockMs');
  mock.events.on('request', (request: { index: number; method: string; path: string; turn: number }) =>
    note('mock', `request #${request.index + 1} ${request.method} ${request.path} (turn ${request.turn + 1})`),
  );
  mock.events.on('first-text-sent', () =>
    note('mock', 'first text chunk streamed (rest withheld until the shim prints text)'),
  );
  mock.events.on('client-closed', (request: { index: number }) =>
    note('mock', `request #${request.index + 1}: connection closed by the shim`),
  );
  // What the shim ran, for the cleanup: its tracked processes are ended if the folders cannot be removed.
  let executed: ExecutedProcess[] = [];
  const judge = async (): Promise<RunResult> => {
    await writeAuthHelpers(dirs.bin, credentials);
    let harnessEnv: Record<string, string> = {};
    let installed: InstalledOfficialCli | undefined;
    if (cli) {
      const outcome = await installOfficialCli(officialCli, {
        cli,
        binDir: dirs.bin,
        stateDir: dirs.state,
        scenario: spec.scenario,
        endpoints: mock.baseUrls,
        credentials,
        ...(existsSync(bundledFakeCli()) ? { fakeScript: bundledFakeCli() } : {}),
        ...(settings.execPath ? { node: settings.execPath } : {}),
        stallTimeoutMs: settings.timeoutMs,
        platform: settings.platform,
      });
      if ('notVerified' in outcome)
        return notVerifiedResult(spec, { persistent: check.persistent, notVerified: outcome.notVerified });
      installed = outcome;
      harnessEnv = { ...outcome.env };
      if (outcome.mode === 'real') note('runner', `the real ${cli} runs behind a PATH wrapper that logs its starts`);
    }
    // Under the yume-app invocation no dialect is asked (R1a): the shim prints what the app's command line gets.
    if (spec.dialect !== undefined && spec.dialect !== settings.capabilities.dialects[0])
      harnessEnv[DIALECT_VARIABLE] = spec.dialect;
    let parent = process.env;
    if (cliMissing) {
      const hidden = hideProgramsFromPath(process.env, settings.platform, dirs.workspace);
      parent = hidden.parent;
      if (hidden.dropped.length > 0)
        note(
          'runner',
          `PATH folders holding an official CLI left out of the shim's PATH: ${hidden.dropped.join(', ')}`,
        );
      if (
        keepNodeReachable(hidden.dropped, {
          nodePath: settings.execPath ?? process.execPath,
          binDir: dirs.bin,
          platform: settings.platform,
          cwd: dirs.workspace,
        })
      )
        note('runner', "node linked into the run's bin folder (its own folder was left out)");
    }
    const env = buildEnvironment({
      platform: settings.platform,
      parent,
      home: dirs.home,
      temp: dirs.temp,
      ...(settings.cacheDir ? { cache: settings.cacheDir } : {}),
      credentials,
      baseUrls: mock.baseUrls,
      pathFirst: [dirs.bin],
      scenario: spec.scenario.env,
      harness: harnessEnv,
      user: settings.userEnv,
    });
    const stillFound = cliMissing ? programsOnPath(env, settings.platform, dirs.workspace) : [];
    if (stillFound.length > 0) {
      return notVerifiedResult(spec, {
        persistent: check.persistent,
        notVerified: runNotVerified(
          'platform',
          `the scenario needs no official CLI on the shim's PATH, but ${stillFound.join(', ')} can be found there (a PATH from --env or the scenario's env)`,
        ),
      });
    }
    const sessionId = `yc-${spec.scenario.id}-${randomBytes(4).toString('hex')}`;
    const flags =
      spec.invocation.kind === 'template'
        ? spec.invocation.template.providers[entry.id]
        : providerFlags(entry, spec.invocation.kind);
    phaseEnd('setupMs'); // auth helpers, the official CLI's install, environment
    const execution = await executeRun({
      spec,
      settings,
      persistent: check.persistent,
      baseValues: {
        providerId: spec.provider,
        cwd: dirs.workspace,
        sessionId,
        apiBase: apiBaseFor(entry, mock),
        ...(spec.scenario.permissionMode === undefined ? {} : { permissionMode: spec.scenario.permissionMode }),
        protocolVersion: settings.protocolVersion,
      },
      env,
      cwd: dirs.workspace,
      hooks: {
        mock,
        note,
        ...(installed ? { setCliTurn: installed.setTurn } : {}),
        ...(installed?.waitFor ? { cliEvent: installed.waitFor } : {}),
        ...(installed?.mode === 'real' ? { interruptFallbackMs: settings.timeoutMs / 2 } : {}),
      },
    });
    if ('notVerified' in execution)
      return notVerifiedResult(spec, { persistent: check.persistent, notVerified: execution.notVerified });
    executed = execution.processes;
    const requests = mock.requests();
    phaseEnd('executeMs');
    for (const process of execution.processes) phases.spawnMs += process.exit.spawnMs ?? 0;
    const checked = await checkRun({
      scenario: spec.scenario,
      provider: entry,
      profile: spec.profile,
      dialect: spec.dialect ?? (settings.capabilities.dialects.includes('claude') ? 'claude' : 'flat'),
      persistent: check.persistent,
      processes: execution.processes,
      workspace: dirs.workspace,
      home: dirs.home,
      runFolder: { root: dirs.root, made: runnerEntries(dirs) },
      ...(flags ? { providerFlag: flags.provider } : {}),
      requests,
      // R7: under yume-app the gemini/openai ids offer both backends; the checks follow the one the shim used.
      ...(cli && installed
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
    });
    const startFailure = execution.processes.find((executed) => executed.exit.spawnError)?.exit.spawnError;
    const limited = checked.limitations.length > 0;
    const incomplete = checked.notVerified.length > 0;
    // What the machine left undecided is played again (harness/suite/replay.ts), not failed here.
    // A check the machine left undecided is played again (suite/replay.ts), not turned into a failure here.
    const unexplained = checked.notVerified.filter((record) => record.cause !== 'machine');
    if (unexplained.length > 0 && requiredUnder(spec.scenario, spec.profile)) {
      checked.findings.push(
        runFinding(
          'scenario.required-verified',
          `required scenario ${spec.scenario.id} is not fully verified for ${spec.provider}: ${notVerifiedLine(unexplained)}`,
        ),
      );
    }
    const failed = checked.findings.some((finding) => finding.severity === 'MUST');
    // Checks a run of this kind cannot make (a real CLI's inner workings) leave a required run partial.
    const status = failed ? 'failed' : incomplete ? 'not-verified' : limited ? 'partial' : 'passed';
    const unverified = [...checked.notVerified, ...checked.limitations];
    phaseEnd('checksMs');
    return {
      ...baseResult(spec),
      ...(checked.dialectSeen ? { dialectSeen: checked.dialectSeen } : {}),
      status,
      findings: causesFirst(capPerRule(checked.findings)),
      ...(unverified.length > 0 ? { notVerified: unverified } : {}),
      ...(limited ? { limitation: notVerifiedLine(checked.limitations) } : {}),
      ...(machineUndecided(checked.notVerified).length > 0
        ? { machineUndecided: machineUndecided(checked.notVerified) }
        : {}),
      durationMs: Math.round(performance.now() - started),
      processes: execution.processes.map((executed, index) => toProcessRecord(executed, checked.goldens[index])),
      requests: toRequestRecords(mock),
      timeline,
      ...(startFailure ? { startFailure } : {}),
      secrets: [...secretValues(env), ...Object.values(credentials)],
      directories: { workspace: dirs.workspace, home: dirs.home },
      phases,
    };
  };
  let result: RunResult | undefined;
  try {
    result = await judge();
  } finally {
    phaseStart = performance.now();
    await mock.close();
    phaseEnd('mockMs');
    if (!settings.keepDirectories) {
      // Judging is over: a folder that cannot be removed is one more finding before the verdict is final (R20).
      const failure = await removeRunFolders(dirs, {
        platform: settings.platform,
        processes: executed,
        ...(settings.removeDirectories ? { remove: settings.removeDirectories } : {}),
      });
      if (failure && result) {
        result = withCleanupFinding(result, failure, dirs.root);
        note('runner', `the run's folder could not be removed: ${failure.error.split('\n')[0]}`);
      }
    }
    phaseEnd('cleanupMs');
  }
  return result;
}
