// The real official-CLI captures (test/fixtures/streams/captures) with the
// verdict written down per file and the reason for every finding.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../harness/rules/types.js';
import { validateStream } from '../../harness/validate/validate-stream.js';
import { CODEX, type ExpectedVerdict, GEMINI, ZERO_USAGE } from './helpers/capture-verdict.js';
import { COMPACTION_VERDICTS } from './helpers/compaction-verdicts.js';
import { COPILOT_VERDICTS } from './helpers/copilot-verdicts.js';

const dir = path.join(import.meta.dirname, '..', 'fixtures', 'streams', 'captures');

const PARALLEL =
  'claude prints both tool_use blocks of one model message before their results: allowed for envelopes, a SHOULD (R3)';

const expected: Record<string, ExpectedVerdict> = {
  'claude/1-plain': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: 'init, one text envelope, a success result with usage 121/26',
  },
  'claude/2-tool': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: 'text, one Read call with file_path answered by its tool_result, final text, result with usage',
  },
  'claude/3-two-tools': {
    dialect: 'claude-envelope',
    spec: ['tool.one-at-a-time-envelope@3'],
    app: ['tool.one-at-a-time-envelope@3'],
    reason: PARALLEL,
  },
  'claude/4-tool-error': {
    dialect: 'claude-envelope',
    spec: ['tool.one-at-a-time-envelope@3'],
    app: ['tool.one-at-a-time-envelope@3'],
    reason: `${PARALLEL}; both results are is_error: true, which is fine`,
  },
  'claude/5-http-500': {
    dialect: 'claude-envelope',
    spec: ['usage.not-zero@4'],
    app: ['app.zero-usage-result@4'],
    reason: `${ZERO_USAGE}; api_retry is an allowed unknown system subtype (R2)`,
  },
  'claude/5b-http-429': {
    dialect: 'claude-envelope',
    spec: ['usage.not-zero@4'],
    app: ['app.zero-usage-result@4'],
    reason: ZERO_USAGE,
  },
  'claude/6-interrupt': {
    dialect: 'claude-envelope',
    spec: ['usage.not-zero@4'],
    app: ['app.zero-usage-result@4'],
    reason: `${ZERO_USAGE}; claude prints no \`interrupt\` line, which a stream alone cannot demand (the runner checks R6)`,
  },
  'gemini/1-plain': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: GEMINI,
  },
  'gemini/2-tool': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: GEMINI,
  },
  'gemini/3-two-tools': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: GEMINI,
  },
  'gemini/4-tool-error': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: GEMINI,
  },
  'gemini/5-http-500': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: GEMINI,
  },
  'gemini/5b-http-429': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: GEMINI,
  },
  'gemini/6-interrupt': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: GEMINI,
  },
  'gemini/6b-interrupt-group': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: `${GEMINI}; it also ends without a result, which is not judged once the dialect is foreign`,
  },
  'codex/1-plain': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: CODEX,
  },
  'codex/2-tool': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: CODEX,
  },
  'codex/3-two-tools': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: CODEX,
  },
  'codex/4-tool-error': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: CODEX,
  },
  'codex/5-http-500': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: `${CODEX}; its \`error\` lines are valid stream-json but 3 of 5 lines are codex's own`,
  },
  'codex/5b-http-429': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: CODEX,
  },
  ...COPILOT_VERDICTS,
  'codex/6-interrupt': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: CODEX,
  },
  ...COMPACTION_VERDICTS,
};

const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.stdout.jsonl'))
  .map((f) => f.split(path.sep).join('/').replace('.stdout.jsonl', ''))
  .sort();

describe('real CLI captures', () => {
  it('has a written-down verdict for every capture file', () => {
    expect(files).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(expected))('%s', (name, want) => {
    expect(want.reason.length).toBeGreaterThan(10);
    const bytes = readFileSync(path.join(dir, `${name}.stdout.jsonl`));
    for (const [profile, findings] of [
      ['spec', want.spec],
      ['yume-app', want.app],
    ] as [Profile, string[]][]) {
      const result = validateStream(bytes, { profile, source: name });
      expect(result.dialect).toBe(want.dialect);
      expect(
        result.findings.map((f) => `${f.rule}@${f.line}`),
        `${name} (${profile})`,
      ).toEqual(findings);
      expect(result.conforms).toBe(!result.findings.some((f) => f.severity === 'MUST'));
    }
  });

  it('names the dialect it recognised in the message', () => {
    const gemini = validateStream(readFileSync(path.join(dir, 'gemini/2-tool.stdout.jsonl')));
    expect(gemini.findings[0]!.message).toContain('Gemini CLI native output');
    const codex = validateStream(readFileSync(path.join(dir, 'codex/2-tool.stdout.jsonl')));
    expect(codex.findings[0]!.message).toContain('Codex native output');
    const copilot = validateStream(readFileSync(path.join(dir, 'copilot/2-tool.stdout.jsonl')));
    expect(copilot.findings[0]!.message).toContain('Copilot CLI native output');
    expect(gemini.conforms || codex.conforms || copilot.conforms).toBe(false);
  });
});
