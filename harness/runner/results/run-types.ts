// Types shared by the runner's steps: what one run is (a point of the matrix), the settings of the whole
// suite, and what a run produced (findings for the reports, transcripts and requests for the HTML page).
import type { LoadedScenario } from '../../mock/scenario/scenario-types.js';
import type { OfficialCliSettings } from '../../official-cli/backend.js';
import type { SuiteCgroup } from '../../process/cgroup.js';
import type { PlatformName } from '../../process/platform.js';
import type { NotVerified } from '../../rules/not-verified.js';
import type { Finding, Profile } from '../../rules/types.js';
import type { Capabilities, Dialect } from '../config/capabilities.js';
import type { Invocation } from '../config/invocation.js';
import type { ProviderId } from '../config/providers.js';
import type { WorkspaceTemplates } from '../setup/git-workspace.js';
import type { DirectoryRemover } from '../setup/workspace.js';
import type { DialectSeen } from './dialect-seen.js';
import type { MachineUndecided } from './machine-undecided.js';

/** One point of the matrix: a scenario run once for a provider under an invocation, profile, dialect and chunking. */
export interface RunSpec {
  scenario: LoadedScenario;
  provider: ProviderId;
  invocation: Invocation;
  profile: Profile;
  /**
   * The dialect the runner asks for (YUME_SHIM_DIALECT when it is not the shim's first); undefined under the
   * yume-app invocation, which sets none, as the app does (R1a): the run judges the dialect it sees.
   */
  dialect?: Dialect;
  /** Re-chunking seed of the mock's streams; undefined = one frame per chunk. */
  seed?: number;
}

export interface SuiteSettings {
  /** The shim under test (path or command). */
  shim: string;
  shimArgs: string[];
  /** --env K=V. */
  userEnv: Record<string, string>;
  /** Per process, after which its whole tree is killed. */
  timeoutMs: number;
  platform: PlatformName;
  capabilities: Capabilities;
  protocolVersion: string;
  /** Goldens mode: record stdout, skip the golden comparison. */
  recordOnly?: boolean;
  /** Keep each run's temporary directories (for debugging). */
  keepDirectories?: boolean;
  /** Node binary for .js shims and fake CLIs. */
  execPath?: string;
  /** Stdout capture limit per process (default 64 MB); beyond it the run is a flood and the tree is killed. */
  maxStdoutBytes?: number;
  /** The suite's cgroup v2 (Linux, where one can be made): each process of a run starts in a leaf of it. */
  suiteCgroup?: SuiteCgroup;
  /** Where each run's folders are made (default: scratchDirectory(), scratch-dir.ts). */
  scratchDir?: string;
  /** XDG_CACHE_HOME shared by every run of one suite invocation (default: a folder in each run's HOME). */
  cacheDir?: string;
  /** Request body limit of the run's mock (default 64 MB); a larger body is answered 413 with a finding. */
  maxRequestBodyBytes?: number;
  /** The suite's git workspaces, made once per scenario; without it each run makes its own. */
  workspaces?: WorkspaceTemplates;
  /** Fake official CLIs (default) or the real ones (`--cli real`, `--cli-path`). */
  officialCli?: OfficialCliSettings;
  /** Removes a run's folders (default: removeRunDirectories, workspace.ts); tests make it fail as Windows does. */
  removeDirectories?: DirectoryRemover;
}

export interface TimelineEntry {
  /** ms since the run started. */
  atMs: number;
  source: 'runner' | 'shim' | 'mock' | 'stdin';
  text: string;
}

export interface ProcessRecord {
  /** "turn 1", "turn 2", or "persistent process". */
  label: string;
  /** Scenario turns (0-based) this process served. */
  turns: number[];
  argv: string[];
  stdout: Buffer;
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  /** The golden this process was compared with (file name), if any. */
  golden?: string;
  goldenText?: string;
}

export interface RequestRecord {
  index: number;
  turn: number;
  method: string;
  path: string;
  status: number;
  outcome: string;
  elapsedMs: number;
  closedByClient: boolean;
  body: string;
}

/** `error`: the harness itself failed while running or judging the run (never a verdict on the shim). */
/** Where a run's wall time went (ms), for `npm run bench`'s cost split; not part of the report. */
export interface RunPhases {
  /** Setting the run up: its directories and workspace copy, auth helpers, the official CLI's install, environment. */
  setupMs: number;
  /** Starting and closing the mock provider. */
  mockMs: number;
  /** Spawning and driving the shim until its processes exited. */
  executeMs: number;
  /** Of executeMs: the runner's thread inside the spawn calls (fork and exec of each shim process). */
  spawnMs: number;
  /** Judging what happened (stream rules, run rules, goldens). */
  checksMs: number;
  /** Removing the run's directories. */
  cleanupMs: number;
}

/**
 * `inconclusive`: a required run the machine left undecided on every attempt (R19); `flaky`: a run whose
 * outcome class changed between the attempts of --repeat.
 */
export type RunStatus = 'passed' | 'failed' | 'not-verified' | 'partial' | 'error' | 'inconclusive' | 'flaky';

/** One play of a run, as the report keeps it (the run's own fields are those of its last attempt). */
export type RunAttempt = {
  status: Exclude<RunStatus, 'flaky'>;
  durationMs: number;
  /** MUST and SHOULD findings of the attempt: rule and message. */
  findings: { rule: string; severity: Finding['severity']; message: string }[];
  notVerified?: NotVerified[];
  /** The attempt failed only on checks the expected-failures file lists. */
  expectedFailure?: boolean;
  /** Checks the machine left undecided in this attempt (the reason it was played again). */
  machineUndecided?: MachineUndecided[];
};

export interface RunResult {
  scenario: string;
  provider: ProviderId;
  invocation: string;
  profile: Profile;
  /** As RunSpec.dialect: undefined when the runner asked for none. */
  dialect?: Dialect;
  /** The dialect the shim's stdout spoke (R1a), when it printed lines a dialect owns. */
  dialectSeen?: DialectSeen;
  seed?: number;
  required: boolean;
  status: RunStatus;
  findings: Finding[];
  /** Why the run (or part of it) could not be verified: one record per check, or one for the whole run. */
  notVerified?: NotVerified[];
  /** A declared limitation made a not-verified required run partial. */
  limitation?: string;
  /** Checks the machine's load kept from being judged (machine-undecided.ts): the run is played again. */
  machineUndecided?: MachineUndecided[];
  /** Every play of the run, in order, when it was played more than once (replayed, or --repeat). */
  attempts?: RunAttempt[];
  /** Marked by --expected-failures. */
  expectedFailure?: string;
  durationMs: number;
  processes: ProcessRecord[];
  requests: RequestRecord[];
  timeline: TimelineEntry[];
  /** With status `error`: what failed inside the harness. */
  error?: string;
  /** The runner was stopped by a signal while this run was going. */
  interrupted?: boolean;
  /** The shim could not be started at all (the CLI exits 2 with this reason). */
  startFailure?: string;
  /** Where the run's wall time went. */
  phases?: RunPhases;
  /**
   * CPU ms of the run's shim processes and everything they started (their cgroup leaves), where every one of
   * them had a leaf with cpu.stat (over every attempt of a run played more than once): what the bench sets the
   * harness's own CPU against.
   */
  shimCpuMs?: number;
  /** Credential-like values of the run's environment, for redaction (removed once the run is redacted). */
  secrets?: string[];
  /** The run's workspace and HOME (removed after the run unless kept): what normalisation replaces. */
  directories?: { workspace: string; home: string };
}
