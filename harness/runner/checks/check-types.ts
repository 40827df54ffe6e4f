// What the per-run checks read (what execute-run.ts observed, the scenario, the official CLI's log) and
// what they return: findings, checks that could not run, and what this kind of run cannot show.

import type { RecordedRequest } from '../../mock/mock-server.js';
import type { LoadedScenario } from '../../mock/scenario/scenario-types.js';
import type { OfficialCliBehaviour } from '../../official-cli/behaviour.js';
import type { CliLogEntry } from '../../official-cli/state.js';
import type { NotVerified } from '../../rules/not-verified.js';
import type { Finding, Profile } from '../../rules/types.js';
import type { Dialect } from '../config/capabilities.js';
import type { Invocation } from '../config/invocation.js';
import type { ProviderEntry } from '../config/providers.js';
import type { ExecutedProcess } from '../execution/execute-run.js';
import type { DialectSeen } from '../results/dialect-seen.js';

export interface CheckInput {
  scenario: LoadedScenario;
  provider: ProviderEntry;
  profile: Profile;
  /**
   * The dialect the run asks of the shim (Claude Code's silent argument error conforms only in `claude`); with
   * none asked (the yume-app invocation), `claude` when the shim declares it may print Claude envelopes.
   */
  dialect?: Dialect;
  persistent: boolean;
  /**
   * How the runner started the shim. `app.flat-dialect` holds only where the shim cannot tell the app did not
   * start it: the app's invocation or a template file; the spec invocation's `start` asks for flat (R1a).
   */
  invocation: Invocation['kind'];
  processes: ExecutedProcess[];
  workspace: string;
  home: string;
  /** The workspace's parent (the run's folder) and the names the runner made there (workspace.outside-writes). */
  runFolder?: { root: string; made: readonly string[] };
  /** The --provider flag value the shim was given (session files live under it, R8). */
  providerFlag?: string;
  requests: RecordedRequest[];
  /**
   * The official CLI on PATH (fake or real, official-cli/backend.ts): what the checks must know of it (its
   * quirks, its use checks), its log, and whether the shim had to use it.
   */
  cli?: {
    behaviour: OfficialCliBehaviour;
    log: CliLogEntry[];
    required: boolean;
    /** Empty folders the CLI itself leaves in the workspace (official-cli/backend.ts). */
    leftoverDirs?: readonly string[];
  };
  recordOnly: boolean;
}

/** What one check returns: its findings, and the checks it could not make, each with the reason. */
export interface CheckResult {
  findings: Finding[];
  notVerified: NotVerified[];
}

/** Several checks' results as one, in order. */
export function combined(results: readonly CheckResult[]): CheckResult {
  return {
    findings: results.flatMap((result) => result.findings),
    notVerified: results.flatMap((result) => result.notVerified),
  };
}

export interface CheckOutput {
  findings: Finding[];
  /** Checks that could not run, with the reason. */
  notVerified: NotVerified[];
  /** Checks this kind of run cannot make by design (a real CLI shows no tool runs): reported, not failed. */
  limitations: NotVerified[];
  /** Golden text per process (for the HTML report). */
  goldens: (string | undefined)[];
  /** The dialect the run's stdout spoke, all processes together (absent when nothing recognisable was printed). */
  dialectSeen?: DialectSeen;
}
