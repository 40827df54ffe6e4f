// Helpers for the runner tests: run one scenario against a fixture shim, and find processes a run left.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScenario } from '../../../harness/mock/scenario/scenario-loader.js';
import { SuiteCgroup } from '../../../harness/process/cgroup.js';
import type { Profile } from '../../../harness/rules/types.js';
import { type CapabilitiesFile, capabilitiesFrom, type Dialect } from '../../../harness/runner/config/capabilities.js';
import type { Invocation } from '../../../harness/runner/config/invocation.js';
import type { ProviderId } from '../../../harness/runner/config/providers.js';
import type { RunResult } from '../../../harness/runner/results/run-types.js';
import { runScenario } from '../../../harness/runner/run-scenario.js';
import { WorkspaceTemplates } from '../../../harness/runner/setup/git-workspace.js';
import type { DirectoryRemover } from '../../../harness/runner/setup/workspace.js';

export const root = fileURLToPath(new URL('../../../', import.meta.url));
export const transcripts = path.join(root, 'transcripts');
export const fixtureShim = (name: string) => path.join(root, 'test', 'fixtures', 'shims', name);
export const referenceShim = path.join(root, 'dist', 'yume-shim.cjs');

export interface FixtureRun {
  shim?: string;
  provider?: ProviderId;
  invocation?: Invocation;
  profile?: Profile;
  dialect?: Dialect;
  seed?: number;
  timeoutMs?: number;
  capabilities?: CapabilitiesFile;
  recordOnly?: boolean;
  maxStdoutBytes?: number;
  /** The git command that makes the run's workspace repository (default: git on PATH). */
  git?: string;
  maxRequestBodyBytes?: number;
  keepDirectories?: boolean;
  /** Start the shim in a cgroup v2 leaf of this suite cgroup (default: the tests' own, where one can be made). */
  suiteCgroup?: SuiteCgroup;
  /** 'process-group' forces the fallback (no cgroup). */
  isolation?: 'process-group';
  /** Removes the run's folders instead of the harness's own remover. */
  removeDirectories?: DirectoryRemover;
}

/** One cgroup for the runs of this test process, as `yume-conformance run` makes one per invocation. */
let testCgroup: SuiteCgroup | undefined | null = null;
function defaultCgroup(): SuiteCgroup | undefined {
  if (testCgroup === null) {
    const created = SuiteCgroup.create(process.platform);
    testCgroup = 'cgroup' in created ? created.cgroup : undefined;
    if (testCgroup) {
      const made = testCgroup;
      process.once('exit', () => made.close());
    }
  }
  return testCgroup;
}

/** Runs one scenario; `tag` is put in the shim's environment so leftovers can be found by it. */
export async function runFixture(
  shimFile: string,
  scenarioId: string,
  options: FixtureRun = {},
): Promise<RunResult & { tag: string }> {
  const tag = randomUUID();
  const invocation = options.invocation ?? { kind: 'spec' };
  // As the matrix makes runs: under the yume-app invocation no dialect is asked unless a test pins one (R1a).
  const dialect = options.dialect ?? (invocation.kind === 'yume-app' ? undefined : 'flat');
  const workspaces = new WorkspaceTemplates(options.git ? { git: options.git } : {});
  const result = await runScenario(
    {
      scenario: loadScenario(path.join(transcripts, scenarioId)),
      provider: options.provider ?? 'openai-chat',
      invocation,
      profile: options.profile ?? 'spec',
      ...(dialect === undefined ? {} : { dialect }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    },
    {
      shim: shimFile,
      shimArgs: [],
      userEnv: { YUME_CONFORMANCE_TEST_TAG: tag },
      timeoutMs: options.timeoutMs ?? 15_000,
      platform: process.platform,
      capabilities: capabilitiesFrom(
        options.capabilities ?? {
          providers: ['all'],
          persistent: true,
          dialect: 'both',
          features: ['bash', 'resume', 'permission-modes', 'interactive', 'gcloud'],
        },
        'test',
      ),
      protocolVersion: '1.0',
      ...(options.recordOnly ? { recordOnly: true } : {}),
      ...(options.maxStdoutBytes ? { maxStdoutBytes: options.maxStdoutBytes } : {}),
      ...(options.maxRequestBodyBytes ? { maxRequestBodyBytes: options.maxRequestBodyBytes } : {}),
      ...(options.keepDirectories ? { keepDirectories: true } : {}),
      ...(options.removeDirectories ? { removeDirectories: options.removeDirectories } : {}),
      ...(options.isolation === 'process-group' ? {} : withSuiteCgroup(options.suiteCgroup ?? defaultCgroup())),
      workspaces,
    },
  ).finally(() => workspaces.close());
  return { ...result, tag };
}

/** Rule ids of the findings at a severity (default: MUST). */
export const rules = (result: RunResult, severity: 'MUST' | 'SHOULD' | 'INFO' = 'MUST') =>
  [
    ...new Set(result.findings.filter((finding) => finding.severity === severity).map((finding) => finding.rule)),
  ].sort();

/** Every finding, one line each, for assertion messages. */
export const describeFindings = (result: RunResult) =>
  result.findings.map((finding) => `${finding.severity} ${finding.rule}: ${finding.message}`).join('\n');

/** Live (non-zombie) processes whose environment carries the test tag (Linux; elsewhere: unknown → []). */
export function processesTagged(tag: string): number[] {
  if (process.platform !== 'linux') return [];
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (readFileSync(`/proc/${entry}/environ`).includes(`YUME_CONFORMANCE_TEST_TAG=${tag}`))
        found.push(Number(entry));
    } catch {
      // gone, or not ours
    }
  }
  return found;
}

/** Live processes whose command line contains `text` (Linux; elsewhere []). */
export function processesWithArgument(text: string): number[] {
  if (process.platform !== 'linux') return [];
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(text)) found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}

function withSuiteCgroup(suiteCgroup: SuiteCgroup | undefined): { suiteCgroup?: SuiteCgroup } {
  return suiteCgroup ? { suiteCgroup } : {};
}
