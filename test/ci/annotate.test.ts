import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runNodeScript } from './helpers/run-node-script.js';

const annotate = path.join(repoRoot, 'ci', 'annotate.mjs');

const mixedReport = {
  summary: { passed: 1, failed: 1, warnings: 1, notVerified: 1 },
  runs: [
    { scenario: 'plain-text', provider: 'openai-chat', status: 'passed', findings: [] },
    {
      scenario: 'single-tool',
      provider: 'openai-chat',
      status: 'failed',
      findings: [
        {
          rule: 'tool.result-pairs-use',
          severity: 'MUST',
          message: 'tool_result for call_9 has no tool_use',
          line: 3,
          fix: 'print the tool_use first',
        },
        { rule: 'usage.present', severity: 'SHOULD', message: 'no usage before result', line: 5 },
        { rule: 'info.dialect', severity: 'INFO', message: 'flat dialect' },
      ],
    },
    { scenario: 'interrupt', provider: 'gemini', status: 'not-verified', findings: [] },
    { scenario: 'multi-tool', provider: 'gemini', status: 'partial', findings: [] },
  ],
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'yc-annotate-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(report: unknown, args: string[] = [], env: Record<string, string> = {}) {
  const reportFile = path.join(dir, 'report.json');
  if (report !== undefined) writeFileSync(reportFile, typeof report === 'string' ? report : JSON.stringify(report));
  const summaryFile = path.join(dir, 'summary.md');
  const result = runNodeScript(annotate, ['--report', reportFile, '--summary-file', summaryFile, ...args], {
    cwd: dir,
    env,
  });
  let summary = '';
  try {
    summary = readFileSync(summaryFile, 'utf8');
  } catch {
    // no summary written
  }
  return { ...result, lines: result.stdout.split('\n').filter(Boolean), summary };
}

describe('ci/annotate.mjs', () => {
  it('emits one annotation per finding at the level of its severity, and one per run not fully verified', () => {
    const { status, lines } = run(mixedReport, ['--os', 'Linux X64']);
    expect(status).toBe(0);
    expect(lines).toEqual([
      '::error title=yume-conformance single-tool × openai-chat%3A tool.result-pairs-use::tool_result for call_9 has no tool_use (shim stdout line 3) Fix: print the tool_use first',
      '::warning title=yume-conformance single-tool × openai-chat%3A usage.present::no usage before result (shim stdout line 5)',
      '::notice title=yume-conformance single-tool × openai-chat%3A info.dialect::flat dialect',
      '::warning title=yume-conformance interrupt × gemini%3A not verified::status "not-verified": this run was not checked and does not count as a full pass',
      '::warning title=yume-conformance multi-tool × gemini%3A partial::status "partial": this run passed only with a declared limitation and does not count as a full pass',
    ]);
  });

  it('writes a summary that names the OS, the verdict and every run, and says other OSes are not verified', () => {
    const { summary } = run(mixedReport, ['--os', 'Windows X64']);
    expect(summary).toContain('## yume-conformance on Windows X64');
    expect(summary).toContain('**Verdict on Windows X64: failed** — 1 passed, 1 failed, 1 warnings, 1 not verified.');
    expect(summary).toContain('Other operating systems are not verified by this job.');
    expect(summary).toContain('| single-tool | openai-chat | failed | 1 | 1 | 1 |');
    expect(summary).toContain('| interrupt | gemini | not-verified | 0 | 0 | 0 |');
    expect(summary).toContain(
      '| single-tool | openai-chat | `tool.result-pairs-use` | MUST | 3 | tool_result for call_9 has no tool_use |',
    );
  });

  it('takes the OS from RUNNER_OS and RUNNER_ARCH on a GitHub runner', () => {
    const { summary } = run(mixedReport, [], { RUNNER_OS: 'macOS', RUNNER_ARCH: 'ARM64' });
    expect(summary).toContain('## yume-conformance on macOS ARM64');
  });

  it('gives "passed" only when every run passed, "partial" when any was not verified', () => {
    const passed = { summary: { passed: 1, failed: 0, warnings: 0, notVerified: 0 }, runs: [mixedReport.runs[0]] };
    expect(run(passed, ['--os', 'Linux']).summary).toContain('**Verdict on Linux: passed**');
    const partial = {
      summary: { passed: 1, failed: 0, warnings: 0, notVerified: 1 },
      runs: [mixedReport.runs[0], mixedReport.runs[2]],
    };
    expect(run(partial, ['--os', 'Linux']).summary).toContain('**Verdict on Linux: partial**');
    const nothing = { summary: { passed: 0, failed: 0, warnings: 0, notVerified: 0 }, runs: [] };
    expect(run(nothing, ['--os', 'Linux']).summary).toContain('**Verdict on Linux: not verified**');
  });

  it('treats a status it does not know as not verified, never as passed', () => {
    const report = {
      summary: { passed: 0, failed: 0, warnings: 0, notVerified: 0 },
      runs: [{ scenario: 'plain-text', provider: 'openai-chat', status: 'skipped', findings: [] }],
    };
    const { summary, lines } = run(report, ['--os', 'Linux']);
    expect(summary).toContain('**Verdict on Linux: partial**');
    expect(summary).toContain('| plain-text | openai-chat | skipped (not verified) |');
    expect(lines[0]).toMatch(/^::warning title=.*not verified::/);
  });

  it('escapes newlines, percent signs, colons and commas so a message cannot break the command', () => {
    const report = {
      summary: { passed: 0, failed: 1, warnings: 0, notVerified: 0 },
      runs: [
        {
          scenario: 'a,b',
          provider: 'x:y',
          status: 'failed',
          findings: [
            { rule: 'framing.single-line-json', severity: 'MUST', message: '100% broken\n::error::injected\r' },
          ],
        },
      ],
    };
    const { lines, summary } = run(report, ['--os', 'Linux']);
    expect(lines).toEqual([
      '::error title=yume-conformance a%2Cb × x%3Ay%3A framing.single-line-json::100%25 broken%0A::error::injected%0D',
    ]);
    expect(summary).toContain('| a,b | x:y | `framing.single-line-json` | MUST |  | 100% broken ::error::injected |');
  });

  it('escapes table cells in the summary', () => {
    const report = {
      summary: { passed: 0, failed: 1, warnings: 0, notVerified: 0 },
      runs: [
        {
          scenario: 's|1',
          provider: '<p>',
          status: 'failed',
          findings: [{ rule: 'r', severity: 'MUST', message: 'a | b' }],
        },
      ],
    };
    const { summary } = run(report, ['--os', 'Linux']);
    expect(summary).toContain('| s\\|1 | &lt;p&gt; | failed |');
    expect(summary).toContain('| a \\| b |');
  });

  it('points annotations at the shim file when it is in the workspace (no line: findings count stdout lines)', () => {
    mkdirSync(path.join(dir, 'bin'));
    writeFileSync(path.join(dir, 'bin', 'my shim.mjs'), '');
    const { lines } = run(mixedReport, ['--os', 'Linux', '--shim', './bin/my shim.mjs']);
    expect(lines[0]).toMatch(/^::error file=bin\/my shim\.mjs,title=/);
    // A shim outside the workspace (or missing) cannot carry an annotation.
    const outside = run(mixedReport, ['--os', 'Linux', '--shim', '../elsewhere.mjs']);
    expect(outside.lines[0]).toMatch(/^::error title=/);
  });

  it('names the shim file relative to the repository root when the suite runs in a subfolder', () => {
    mkdirSync(path.join(dir, 'pkg', 'bin'), { recursive: true });
    writeFileSync(path.join(dir, 'pkg', 'bin', 'shim.mjs'), '');
    const reportFile = path.join(dir, 'report.json');
    writeFileSync(reportFile, JSON.stringify(mixedReport));
    const result = runNodeScript(
      annotate,
      ['--report', reportFile, '--os', 'Linux', '--shim', 'bin/shim.mjs', '--summary-file', path.join(dir, 's.md')],
      {
        cwd: path.join(dir, 'pkg'),
        env: { GITHUB_WORKSPACE: dir },
      },
    );
    expect(result.stdout.split('\n')[0]).toMatch(/^::error file=pkg\/bin\/shim\.mjs,title=/);
  });

  it('points at file and line when the report names the captured stdout of a run', () => {
    const report = structuredClone(mixedReport) as any;
    report.runs[1].stdoutFile = 'reports/single-tool.openai-chat.stdout.jsonl';
    const { lines } = run(report, ['--os', 'Linux']);
    expect(lines[0]).toMatch(/^::error file=reports\/single-tool\.openai-chat\.stdout\.jsonl,line=3,title=/);
  });

  it('emits at most 10 annotations per level (GitHub’s limit per step) and says how many more there are', () => {
    const findings = Array.from({ length: 12 }, (_, index) => ({
      rule: `rule.${index}`,
      severity: 'MUST',
      message: `m${index}`,
      line: index + 1,
    }));
    const report = {
      summary: { passed: 0, failed: 1, warnings: 0, notVerified: 0 },
      runs: [{ scenario: 's', provider: 'p', status: 'failed', findings }],
    };
    const { lines, summary } = run(report, ['--os', 'Linux']);
    expect(lines.filter((line) => line.startsWith('::error'))).toHaveLength(10);
    expect(lines.at(-1)).toMatch(/^2 more findings are listed in the job summary/);
    expect(summary.match(/\| `rule\.\d+` \|/g)).toHaveLength(12);
  });

  it('a missing report is "not verified" with exit 2 and a clear reason, never a stack trace', () => {
    const { status, lines, summary, stderr } = run(undefined, ['--os', 'Linux']);
    expect(status).toBe(2);
    expect(lines[0]).toMatch(
      /^::error title=yume-conformance on Linux%3A not verified::\[yume-conformance\] cannot read the JSON report .*report\.json: it does not exist/,
    );
    expect(summary).toContain('**Verdict on Linux: not verified**');
    expect(stderr).not.toMatch(/at .*\.mjs:\d+/);
  });

  it('a file that is not JSON, or not a report, is named with what is wrong', () => {
    const notJson = run('{"summary": ', ['--os', 'Linux']);
    expect(notJson.status).toBe(2);
    expect(notJson.lines[0]).toMatch(/report\.json is not JSON/);
    const notReport = run({ summary: { passed: 1 } }, ['--os', 'Linux']);
    expect(notReport.status).toBe(2);
    expect(notReport.lines[0]).toContain('is not a yume-conformance JSON report: "runs" is missing');
  });

  it('refuses to run without --report', () => {
    const result = runNodeScript(annotate, [], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--report FILE is required');
  });
});
