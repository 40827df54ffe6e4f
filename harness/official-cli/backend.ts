// One interface for the official CLIs a Type-B run puts on the shim's PATH, whether fake (the default:
// plays the scenario itself, logs everything) or real (`--cli real`: the pinned or given program, pointed
// at the REST mock offline, behind a wrapper that logs its starts). The runner asks this module how to set
// up the mock, what to install and what the CLI's log can show, and stays the same for both.

import { accessSync, constants, existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DUMMY_CREDENTIALS, type DummyCredentials } from '../mock/credentials.js';
import type { ToolMapper } from '../mock/mock-types.js';
import { runnerPlatform } from '../process/platform.js';
import { type NotVerified, runNotVerified } from '../rules/not-verified.js';
import { type OfficialCliBehaviour, officialCliBehaviour } from './behaviour.js';
import { installFakeClis, readFakeCliLog, setFakeCliTurn, waitForFakeCliEvent } from './install.js';
import { declaredToolMapper } from './map-tools.js';
import { copilotRuntimeCache } from './real/copilot-runtime.js';
import { copilotVariables, type MockEndpoints, prepareOfflineEnvironment } from './real/offline-environment.js';
import { writeRealCliWrapper } from './real/wrapper.js';
import type { OfficialCliName, ScriptScenario } from './script-types.js';
import { type CliLogEntry, writeState } from './state.js';

/**
 * Resolves true when the CLI logs that the turn's stream stalls or a tool started, false after `timeoutMs` or
 * once `signal` aborts (the run is over: its poll must not hold a finished runner open).
 */
export type CliEventWait = (
  turn: number,
  event: 'stall' | 'tool-start',
  wait: { timeoutMs: number; signal: AbortSignal },
) => Promise<boolean>;

export type OfficialCliMode = 'fake' | 'real';

export interface OfficialCliSettings {
  mode: OfficialCliMode;
  /** `--cli-path gemini=PATH`: the real CLI to run; otherwise the first one on PATH. */
  paths?: Partial<Record<OfficialCliName, string>>;
}

export interface InstallOfficialCliOptions {
  cli: OfficialCliName;
  binDir: string;
  /** Holds the state and log files, and a real CLI's own HOME. */
  stateDir: string;
  scenario: ScriptScenario;
  endpoints: MockEndpoints;
  /** The run's dummy keys, which its mock accepts (default D2's). */
  credentials?: DummyCredentials;
  /** dist/fake-cli.js (the fake, and the real CLI wrapper's logger). */
  fakeScript?: string;
  node?: string;
  stallTimeoutMs?: number;
  /** PATH of the parent, where a real CLI is looked up when no path is given. */
  searchPath?: string;
  /** The suite's shared cache folder, where a real copilot's runtime is unpacked once when its install has none. */
  cacheDir?: string;
  platform?: NodeJS.Platform;
}

export interface InstalledOfficialCli {
  mode: OfficialCliMode;
  /** Variables for the shim's environment. */
  env: Record<string, string>;
  /** Points the CLI at the scenario's next turn (spawn-per-turn runs call it before each turn). */
  setTurn(turn: number): void;
  /**
   * Resolves when the CLI logs that the turn's stream stalls or a tool started. Absent when the CLI cannot
   * tell (a real one): the runner then watches the mock, as for a REST shim.
   */
  waitFor?: CliEventWait;
  readLog(): CliLogEntry[];
  /**
   * What the checks must know of this CLI (behaviour.ts): its quirks (what it leaves out of its stdout, the
   * same for the fake and the real one: the fake copies it) and its use checks — the fake's log shows what
   * happens inside the CLI; a real CLI's wrapper sees only its starts, so the rules judged from the rest are
   * not verified.
   */
  behaviour: OfficialCliBehaviour;
  /**
   * Empty folders the CLI itself leaves in the workspace (real codex: its sandbox's mount points for protected
   * folders, left behind when a command is interrupted or killed); the workspace checks do not count them.
   */
  leftoverDirs: readonly string[];
}

/** codex's workspace-write sandbox mounts these read-only in every writable root, creating them when missing. */
const CODEX_SANDBOX_MOUNT_POINTS = ['.agents', '.aws', '.codex'] as const;

/** How the mock must serve a run whose CLI is in this mode; `workspace` is where the CLI works (--cwd). */
export function mockOptionsFor(
  mode: OfficialCliMode,
  run: { workspace: string },
): { mapTools?: ToolMapper; gate: boolean } {
  // A real CLI declares its own tools (copilot's take absolute paths, resolved against the workspace); and it,
  // not the shim, reads the stream, so waiting for the shim's text before streaming on (the gate that tests
  // incremental printing) would only stall it.
  return mode === 'real' ? { mapTools: declaredToolMapper({ cwd: run.workspace }), gate: false } : { gate: true };
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The real CLI to run: the given path, else the first `cli` on the search path. */
export function locateRealCli(
  cli: OfficialCliName,
  settings: OfficialCliSettings,
  searchPath: string,
): string | undefined {
  const given = settings.paths?.[cli];
  if (given) return isExecutable(given) ? path.resolve(given) : undefined;
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, cli);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Retries fitted to the scripted faults: one when the scenario scripts a fault worth retrying (429, 5xx,
 * a broken stream), so a recovery can be seen and an exhausted script stays short; none otherwise, since a
 * retry after 401/403/400/404 would only meet an unscripted request (codex and claude retry those too).
 */
export function retriesFor(scenario: ScriptScenario): number {
  const retryable = scenario.turns.some((turn) =>
    turn.responses.some((response) => {
      const fault = response.fault;
      if (!fault) return false;
      if (fault.kind === 'http') return fault.status === 429 || fault.status >= 500;
      return true;
    }),
  );
  return retryable ? 1 : 0;
}

/** The run's dummy keys by the variable family that carries them. */
function keysOf(credentials: DummyCredentials): { openai: string; anthropic: string; gemini: string } {
  return {
    openai: credentials.openaiApiKey,
    anthropic: credentials.anthropicApiKey,
    gemini: credentials.geminiApiKey,
  };
}

/** Where an installed CLI keeps the scenario and its turn (state) and what it logs. */
interface CliFiles {
  stateFile: string;
  logFile: string;
}

/** Reading the log and moving the turn work the same for the fake and the real CLI. */
function logAndTurn({ stateFile, logFile }: CliFiles): Pick<InstalledOfficialCli, 'setTurn' | 'readLog'> {
  return {
    setTurn: (turn: number) => setFakeCliTurn(stateFile, turn),
    readLog: () => (existsSync(logFile) ? readFakeCliLog(logFile) : []),
  };
}

/** The fake CLI: plays the scenario itself and logs what happens inside it, so the runner can wait on it. */
async function installFake(options: InstallOfficialCliOptions, files: CliFiles): Promise<InstalledOfficialCli> {
  const { stateFile, logFile } = files;
  const installed = await installFakeClis(options.binDir, {
    scenario: options.scenario,
    turnIndex: 0,
    stateFile,
    logFile,
    clis: [options.cli],
    ...(options.fakeScript ? { script: options.fakeScript } : {}),
    ...(options.node ? { node: options.node } : {}),
    ...(options.stallTimeoutMs ? { stallTimeoutMs: options.stallTimeoutMs } : {}),
  });
  const keys = keysOf(options.credentials ?? DUMMY_CREDENTIALS);
  return {
    mode: 'fake',
    // copilot reads its bring-your-own-key settings from the environment the shim gives it (R22).
    env: {
      ...installed.env,
      ...(options.cli === 'copilot' ? copilotVariables({ endpoints: options.endpoints, keys }) : {}),
    },
    waitFor: (turn, event, wait) =>
      waitForFakeCliEvent(logFile, (entry) => entry.event === event && entry.turnIndex === turn, wait).then(
        (entry) => entry !== undefined,
      ),
    behaviour: officialCliBehaviour(options.cli, { logsInside: true }),
    leftoverDirs: [],
    ...logAndTurn(files),
  };
}

/** The real CLI's program and the wrapper's logger, or why the real CLI cannot run here. */
function realCliParts(
  settings: OfficialCliSettings,
  options: InstallOfficialCliOptions,
): { executable: string; loggerScript: string } | { notVerified: NotVerified } {
  if ((options.platform ?? runnerPlatform()) === 'win32')
    return {
      notVerified: runNotVerified(
        'platform',
        'the real-CLI mode runs the CLI behind a POSIX exec wrapper, which Windows does not have',
      ),
    };
  const executable = locateRealCli(options.cli, settings, options.searchPath ?? process.env.PATH ?? '');
  if (!executable) {
    const given = settings.paths?.[options.cli];
    return {
      notVerified: runNotVerified(
        'platform',
        given
          ? `--cli-path ${options.cli}=${given} is not an executable file`
          : `the real ${options.cli} is not on PATH: pass --cli-path ${options.cli}=PATH`,
      ),
    };
  }
  if (!options.fakeScript)
    return {
      notVerified: runNotVerified('harness', 'dist/fake-cli.js (the wrapper’s logger) is missing: run npm run build'),
    };
  return { executable, loggerScript: options.fakeScript };
}

/** The real CLI behind a wrapper that logs its starts, pointed offline at the run's mock. */
async function installReal(
  settings: OfficialCliSettings,
  options: InstallOfficialCliOptions,
  files: CliFiles,
): Promise<InstalledOfficialCli | { notVerified: NotVerified }> {
  const parts = realCliParts(settings, options);
  if ('notVerified' in parts) return parts;
  const { stateFile, logFile } = files;
  writeState(stateFile, { scenario: options.scenario, turnIndex: 0 });
  const credentials = options.credentials ?? DUMMY_CREDENTIALS;
  const copilotRuntime =
    options.cli === 'copilot'
      ? await copilotRuntimeCache(
          parts.executable,
          options.cacheDir ?? path.join(os.tmpdir(), 'yume-conformance-cache'),
        )
      : undefined;
  const env = prepareOfflineEnvironment(options.cli, {
    retries: retriesFor(options.scenario),
    home: path.join(options.stateDir, `${options.cli}-home`),
    endpoints: options.endpoints,
    keys: keysOf(credentials),
    ...(copilotRuntime ? { copilotRuntime } : {}),
  });
  await writeRealCliWrapper(options.binDir, options.cli, {
    executable: parts.executable,
    env,
    loggerScript: parts.loggerScript,
    ...(options.node ? { node: options.node } : {}),
    stateFile,
    logFile,
  });
  return {
    mode: 'real',
    env: {},
    behaviour: officialCliBehaviour(options.cli, { logsInside: false }),
    leftoverDirs: options.cli === 'codex' ? CODEX_SANDBOX_MOUNT_POINTS : [],
    ...logAndTurn(files),
  };
}

export async function installOfficialCli(
  settings: OfficialCliSettings,
  options: InstallOfficialCliOptions,
): Promise<InstalledOfficialCli | { notVerified: NotVerified }> {
  const files = {
    stateFile: path.join(options.stateDir, 'cli-state.json'),
    logFile: path.join(options.stateDir, 'cli-log.jsonl'),
  };
  return settings.mode === 'fake' ? installFake(options, files) : installReal(settings, options, files);
}
