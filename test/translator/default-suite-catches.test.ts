// The broken translators that reproduce real wrapper bugs are caught by the default suite (every scenario
// for their provider id), and the failing run's FIRST finding names the cause, not a consequence: restarting
// the CLI after each tool call, running a silent command again, and a CLI refusal turned into a success.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSuite } from '../helpers/nothing-left-open.js';
import { ROOT } from './helpers/build-shim.js';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'translators');

const CASES = [
  {
    fixture: 'rerun-after-tool.mjs',
    provider: 'gemini-cli',
    scenario: 'single-tool',
    causes: ['cli.no-rerun-after-tool', 'cli.one-start-per-turn'],
    says: /gemini ran \w+ and was then started \d+ more time\(s\) for the same prompt|gemini was started \d+ times/,
  },
  {
    fixture: 'run-tool-twice.mjs',
    provider: 'codex-cli',
    scenario: 'silent-command',
    causes: ['tool.not-run-twice'],
    says: /made_dir\/runs\.log changed after codex left it/,
  },
  {
    fixture: 'refusal-as-success.mjs',
    provider: 'codex-cli',
    scenario: 'plain-text-no-git',
    causes: ['cli.failure-not-success'],
    says: /codex exited with code 1 before its final event; its stderr ends: "Not inside a trusted directory and --skip-git-repo-check was not specified\.", but the shim printed a success result/,
  },
] as const;

describe.concurrent('the default suite names the bug of a broken translator first', () => {
  it.each(CASES)(
    '$fixture ($provider): $scenario fails, first with $causes.0',
    async (brokenCase) => {
      const report = await runSuite({
        shim: path.join(FIXTURES, brokenCase.fixture),
        providers: [brokenCase.provider],
        capabilities: { providers: [brokenCase.provider], features: ['bash'] },
        jobs: 2,
      });
      expect(report.verdict).toBe('failed');
      const run = report.runs.find((candidate) => candidate.scenario === brokenCase.scenario);
      expect(run?.status).toBe('failed');
      const first = run!.findings[0]!;
      expect(brokenCase.causes as readonly string[], JSON.stringify(run!.findings.slice(0, 3))).toContain(first.rule);
      expect(first.message).toMatch(brokenCase.says);
    },
    120_000,
  );
});
