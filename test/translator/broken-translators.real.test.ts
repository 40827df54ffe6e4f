// The rules a fake CLI judges from its own log, proven against the real CLIs (`--cli real`): broken
// translators (test/fixtures/translators/) driving the pinned real gemini, codex, claude and copilot fail with
// the rule of their bug, judged from the wrapper's log, the mock's requests and the processes left behind. The
// reference translators pass the same rules with the same CLIs (test/official-cli/real-mode.real.test.ts).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { OfficialCliName } from '../../harness/official-cli/script-types.js';
import { realCliPath } from '../official-cli/shared-programs.js';

const root = path.resolve(import.meta.dirname, '..', '..');

interface Case {
  fixture: string;
  bug: string;
  cli: OfficialCliName;
  scenario: string;
  rule: string;
  timeoutMs?: number;
}

const CASES: Case[] = [
  {
    fixture: 'rerun-after-tool.mjs',
    bug: 'starts gemini again after it ran a tool',
    cli: 'gemini',
    scenario: 'single-tool',
    rule: 'cli.no-rerun-after-tool',
  },
  {
    fixture: 'leaves-stdin-open.mjs',
    bug: 'leaves codex’s stdin open',
    cli: 'codex',
    scenario: 'plain-text',
    rule: 'cli.stdin-closed',
    timeoutMs: 15_000,
  },
  {
    fixture: 'reports-tool-failure-as-success.mjs',
    bug: 'reports codex’s failed command as a success',
    cli: 'codex',
    scenario: 'tool-error',
    rule: 'cli.tool-outcome-matches',
  },
  {
    fixture: 'leaves-cli-running-on-interrupt.mjs',
    bug: 'leaves gemini running when interrupted',
    cli: 'gemini',
    scenario: 'interrupt',
    rule: 'cli.interrupt-reaches-cli',
  },
  {
    fixture: 'forgets-cli-session.mjs',
    bug: 'starts claude afresh on --resume',
    cli: 'claude',
    scenario: 'resume',
    rule: 'cli.resume-continues-session',
  },
  {
    fixture: 'signals-copilot-loader-only.mjs',
    bug: 'signals copilot’s loader alone, which leaves its native binary running',
    cli: 'copilot',
    scenario: 'interrupt',
    rule: 'cli.interrupt-reaches-cli',
  },
];

const PROVIDER: Record<OfficialCliName, string> = {
  gemini: 'gemini-cli',
  codex: 'codex-cli',
  claude: 'claude-cli',
  copilot: 'copilot-cli',
};

interface ReportRun {
  status: string;
  findings: { rule: string; severity: string; message: string }[];
  /** The run's timeline (from --artifacts), for the failure message: these verdicts depend on timing. */
  timeline: string;
}

async function runReal(testCase: Case): Promise<ReportRun> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'yume-real-broken-'));
  try {
    const report = path.join(out, 'report.json');
    const capabilities = path.join(out, 'capabilities.json');
    writeFileSync(
      capabilities,
      JSON.stringify({ name: testCase.fixture, providers: ['all'], features: ['cli', 'resume'] }),
    );
    const args = [
      path.join(root, 'dist', 'cli.js'),
      'run',
      path.join(root, 'test', 'fixtures', 'translators', testCase.fixture),
      ...['--provider', PROVIDER[testCase.cli], '--scenario', testCase.scenario],
      ...['--capabilities', capabilities, '--profile', 'spec', '--invocation', 'spec'],
      ...['--cli', 'real', '--cli-path', `${testCase.cli}=${realCliPath(testCase.cli)}`],
      ...['--timeout', String(testCase.timeoutMs ?? 60_000), '--out', report],
      ...['--artifacts', path.join(out, 'artifacts')],
    ];
    await promisify(execFile)(process.execPath, args, { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }).catch(
      (error: { code?: number; stderr?: string }) => {
        if (error.code !== 1) throw new Error(`exit ${error.code}: ${error.stderr}`);
      },
    );
    const run = (JSON.parse(readFileSync(report, 'utf8')) as { runs: (ReportRun & { artifacts?: string })[] }).runs[0]!;
    const timeline = run.artifacts ? path.join(out, 'artifacts', run.artifacts, 'timeline.txt') : undefined;
    return { ...run, timeline: timeline && existsSync(timeline) ? readFileSync(timeline, 'utf8') : '(none)' };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

describe.concurrent('broken translators with the real CLIs fail with the rule of their bug', () => {
  it.each(CASES.map((testCase) => [testCase.fixture, testCase] as const))(
    '%s',
    async (_name, testCase) => {
      const run = await runReal(testCase);
      const must = run.findings.filter((finding) => finding.severity === 'MUST');
      const said = `${testCase.bug}: ${run.findings.map((finding) => `${finding.severity} ${finding.rule}: ${finding.message}`).join('\n')}\ntimeline:\n${run.timeline}`;
      expect(run.status, said).toBe('failed');
      expect(
        must.map((finding) => finding.rule),
        said,
      ).toContain(testCase.rule);
    },
    150_000,
  );
});
