// `--cli real`: the reference shim's gemini-cli, codex-cli, claude-cli and copilot-cli providers against the pinned
// real CLIs, offline against the mock (each CLI's own HOME and config, the mock answering with the tools the CLI
// declares), over the five required scenarios, the two faults and a resumed session, under the spec profile. Every run passes,
// the rules a fake judges from its own log included (judged here from the wrapper's log, the mock's requests
// and the processes left behind): nothing is left not verified. copilot runs as its captures did, in a network
// namespace with loopback only (as root, where `unshare` can make one), and also through kill-and-resume, which
// ends its loader and native binary with the shim: no process of the pair may be left (process.* rules).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  REAL_CLI_CAPABILITIES,
  REAL_CLI_SCENARIOS as SCENARIOS,
} from '../../harness/official-cli/real-cli-scenarios.js';
import type { OfficialCliName } from '../../harness/official-cli/script-types.js';
import { realCliPath } from './shared-programs.js';

const root = path.resolve(import.meta.dirname, '..', '..');

interface ReportRun {
  scenario: string;
  provider: string;
  status: string;
  findings: { rule: string; severity: string; message: string }[];
  limitation?: string;
}

interface RealModeRun {
  providers: string[];
  scenarios: readonly string[];
  features: string[];
  profile: 'spec' | 'yume-app';
  /** In a network namespace of its own with loopback only. */
  offline: boolean;
}

/** Whether this process may make a network namespace (root, with util-linux's unshare). */
function canIsolateNetwork(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('unshare', ['-n', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Runs the suite in the real-CLI mode and returns the failing runs, one line each. */
async function realModeFailures(options: RealModeRun): Promise<{ runs: ReportRun[]; failures: string[] }> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'yume-real-mode-'));
  try {
    const report = path.join(out, 'report.json');
    const capabilities = path.join(out, 'capabilities.json');
    writeFileSync(capabilities, JSON.stringify({ ...REAL_CLI_CAPABILITIES, features: options.features }));
    const clis = options.providers.map((id) => id.replace(/-cli$/, '') as OfficialCliName);
    const args = [
      path.join(root, 'dist', 'cli.js'),
      'run',
      path.join(root, 'dist', 'yume-shim.cjs'),
      ...options.providers.flatMap((id) => ['--provider', id]),
      ...options.scenarios.flatMap((id) => ['--scenario', id]),
      ...['--capabilities', capabilities, '--profile', options.profile, '--invocation', 'spec', '--cli', 'real'],
      ...clis.flatMap((cli) => ['--cli-path', `${cli}=${realCliPath(cli)}`]),
      ...['--timeout', '90000', '--out', report],
    ];
    const [file, argv] = options.offline
      ? ['unshare', ['-n', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...args]]
      : [process.execPath, args];
    await promisify(execFile)(file, argv, { timeout: 280_000, maxBuffer: 64 * 1024 * 1024 }).catch(
      (error: { code?: number }) => {
        // Exit 1 (a failed run) is judged from the report; anything else is a broken command line.
        if (error.code !== 1) throw error;
      },
    );
    const runs = (JSON.parse(readFileSync(report, 'utf8')) as { runs: ReportRun[] }).runs;
    const failures = runs
      .filter((run) => run.status !== 'passed')
      .map(
        (run) =>
          `${run.scenario} × ${run.provider}: ${run.status} ${run.findings
            .filter((finding) => finding.severity === 'MUST')
            .map((finding) => `${finding.rule}: ${finding.message.split('\n')[0]}`)
            .join('; ')}${run.limitation ? ` (not verified: ${run.limitation})` : ''}`,
      );
    return { runs, failures };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

describe('real-CLI mode (--cli real) with the pinned copilot, offline', () => {
  it('passes copilot-cli over the real-CLI scenarios, and kill-and-resume with no process of the pair left', async () => {
    const offline = canIsolateNetwork();
    const spec = await realModeFailures({
      providers: ['copilot-cli'],
      scenarios: SCENARIOS,
      features: ['cli', 'resume'],
      profile: 'spec',
      offline,
    });
    expect(spec.runs).toHaveLength(SCENARIOS.length);
    expect(spec.failures, spec.failures.join('\n')).toEqual([]);
    const killed = await realModeFailures({
      providers: ['copilot-cli'],
      scenarios: ['kill-and-resume'],
      features: ['cli', 'resume'],
      profile: 'yume-app',
      offline,
    });
    expect(killed.failures, killed.failures.join('\n')).toEqual([]);
    expect(
      killed.runs
        .flatMap((run) => run.findings.map((finding) => finding.rule))
        .filter((rule) => rule.startsWith('process.')),
    ).toEqual([]);
  });
});

describe('real-CLI mode (--cli real) with the pinned official CLIs', () => {
  it('passes gemini-cli, codex-cli and claude-cli over the required scenarios, two faults and a resumed session', async () => {
    const { runs, failures } = await realModeFailures({
      providers: ['gemini-cli', 'codex-cli', 'claude-cli'],
      scenarios: SCENARIOS,
      features: [...REAL_CLI_CAPABILITIES.features],
      profile: 'spec',
      offline: false,
    });
    expect(runs).toHaveLength(SCENARIOS.length * 3);
    expect(failures, failures.join('\n')).toEqual([]);
  });
});
