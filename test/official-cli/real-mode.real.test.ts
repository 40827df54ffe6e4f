// `--cli real`: the reference shim's gemini-cli, codex-cli and claude-cli providers against the pinned real
// CLIs, offline against the mock (each CLI's own HOME and config, the mock answering with the tools the CLI
// declares), over the five required scenarios, the two faults and a resumed session, under the spec profile. Every run passes,
// the rules a fake judges from its own log included (judged here from the wrapper's log, the mock's requests
// and the processes left behind): nothing is left not verified.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  REAL_CLI_CAPABILITIES,
  REAL_CLI_SCENARIOS as SCENARIOS,
} from '../../harness/official-cli/real-cli-scenarios.js';
import { realCliPath } from './shared-programs.js';

const root = path.resolve(import.meta.dirname, '..', '..');

interface ReportRun {
  scenario: string;
  provider: string;
  status: string;
  findings: { rule: string; severity: string; message: string }[];
  limitation?: string;
}

describe('real-CLI mode (--cli real) with the pinned official CLIs', () => {
  it('passes the three CLI providers over the required scenarios, two faults and a resumed session', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'yume-real-mode-'));
    try {
      const report = path.join(out, 'report.json');
      const capabilities = path.join(out, 'capabilities.json');
      writeFileSync(capabilities, JSON.stringify(REAL_CLI_CAPABILITIES));
      const args = [
        path.join(root, 'dist', 'cli.js'),
        'run',
        path.join(root, 'dist', 'yume-shim.cjs'),
        ...['gemini-cli', 'codex-cli', 'claude-cli'].flatMap((id) => ['--provider', id]),
        ...SCENARIOS.flatMap((id) => ['--scenario', id]),
        '--capabilities',
        capabilities,
        '--profile',
        'spec',
        '--invocation',
        'spec',
        '--cli',
        'real',
        ...(['gemini', 'codex', 'claude'] as const).flatMap((cli) => ['--cli-path', `${cli}=${realCliPath(cli)}`]),
        '--timeout',
        '90000',
        '--out',
        report,
      ];
      await promisify(execFile)(process.execPath, args, { timeout: 280_000, maxBuffer: 64 * 1024 * 1024 }).catch(
        (error: { code?: number }) => {
          // Exit 1 (a failed run) is judged below from the report; anything else is a broken command line.
          if (error.code !== 1) throw error;
        },
      );
      const runs = (JSON.parse(readFileSync(report, 'utf8')) as { runs: ReportRun[] }).runs;
      expect(runs).toHaveLength(SCENARIOS.length * 3);
      const failures = runs
        .filter((run) => run.status !== 'passed')
        .map(
          (run) =>
            `${run.scenario} × ${run.provider}: ${run.status} ${run.findings
              .filter((finding) => finding.severity === 'MUST')
              .map((finding) => `${finding.rule}: ${finding.message.split('\n')[0]}`)
              .join('; ')}${run.limitation ? ` (not verified: ${run.limitation})` : ''}`,
        );
      expect(failures, failures.join('\n')).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
