// The real official-CLI captures (test/fixtures/streams/captures) with the
// verdict written down per file and the reason for every finding.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../harness/rules/types.js';
import { validateStream } from '../../harness/validate/validate-stream.js';

const dir = path.join(import.meta.dirname, '..', 'fixtures', 'streams', 'captures');

interface Expected {
  dialect: string;
  /** Findings as "rule@line", per profile. */
  spec: string[];
  app: string[];
  /** Why each finding is there (or why there is none). */
  reason: string;
}

const PARALLEL =
  'claude prints both tool_use blocks of one model message before their results: allowed for envelopes, a SHOULD (R3)';
const ZERO_USAGE =
  'claude ends the error turn with result.usage 0/0: a SHOULD under spec (R4), a MUST under yume-app because the app shows it as a compaction';
const COMPACT_TURN =
  "claude's /compact turn: `system` `status` lines come before `init` (turn.init-first) and its result has usage 0/0 (usage.not-zero under spec, app.zero-usage-result under yume-app); R21 (docs/protocol.md) lifts both for a /compact turn";
const AFTER_COMPACT = 'the turn after /compact: init, the answer, a result with usage';
const COMPACT_STOPPED =
  'claude stopped during its summary request: `system` `status` lines and no `init` or `result` (turn.init-first, turn.result-last); R21 does not excuse an unfinished turn';
const NOTHING_TO_COMPACT =
  'claude has nothing to compact: no request, a synthetic assistant line saying so and a result that is not an error, with usage 0/0 (usage.not-zero under spec, app.zero-usage-result under yume-app)';
const GEMINI = 'Gemini CLI native dialect (`init`, `message`, tool_name/tool_id, result.stats), not stream-json (R1)';
const CODEX = 'Codex native dialect (`thread.*`, `turn.*`, `item.*`), not stream-json (R1)';

const expected: Record<string, Expected> = {
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
  'claude/7-compact.run1.turn1': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: 'turn 1 of the first /compact run: reads hello.txt and answers, with usage',
  },
  'claude/7-compact.run1.turn2': {
    dialect: 'claude-envelope',
    spec: ['turn.init-first@1', 'usage.not-zero@7'],
    app: ['turn.init-first@1', 'app.zero-usage-result@7'],
    reason: COMPACT_TURN,
  },
  'claude/7-compact.run2.turn1': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: 'turn 1 of the second /compact run: reads hello.txt and answers, with usage',
  },
  'claude/7-compact.run2.turn2': {
    dialect: 'claude-envelope',
    spec: ['turn.init-first@1', 'usage.not-zero@7'],
    app: ['turn.init-first@1', 'app.zero-usage-result@7'],
    reason: COMPACT_TURN,
  },
  'claude/7-compact.run2.turn3': {
    dialect: 'claude-envelope',
    spec: ['usage.not-zero@3'],
    app: ['app.zero-usage-result@3'],
    reason: `the mock refused the turn after /compact (its replies were used up by the two summary requests): ${ZERO_USAGE}`,
  },
  'claude/7-compact.turn1': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: 'turn 1: reads hello.txt and answers, with usage',
  },
  'claude/7-compact.turn2': {
    dialect: 'claude-envelope',
    spec: ['turn.init-first@1', 'usage.not-zero@7'],
    app: ['turn.init-first@1', 'app.zero-usage-result@7'],
    reason: `${COMPACT_TURN}; two summary requests, the first answer kept`,
  },
  'claude/7-compact.turn3': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: AFTER_COMPACT,
  },
  'claude/7b-compact-tagged.turn1': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: 'turn 1: reads hello.txt and answers, with usage',
  },
  'claude/7b-compact-tagged.turn2': {
    dialect: 'claude-envelope',
    spec: ['turn.init-first@1', 'usage.not-zero@7'],
    app: ['turn.init-first@1', 'app.zero-usage-result@7'],
    reason: `${COMPACT_TURN}; one summary request (its answer has a <summary> block)`,
  },
  'claude/7b-compact-tagged.turn3': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: AFTER_COMPACT,
  },
  'claude/8-overflow.turn1': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: 'turn 1: reads hello.txt and answers, with usage',
  },
  'claude/8-overflow.turn2': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason:
      'the provider refused the prompt as too long: claude compacted on its own (a boundary with trigger auto, after init), retried once and answered; the result counts only the retry (260/8)',
  },
  'claude/8b-overflow-twice.turn1': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: 'turn 1: reads hello.txt and answers, with usage',
  },
  'claude/8b-overflow-twice.turn2': {
    dialect: 'claude-envelope',
    spec: ['usage.not-zero@7'],
    app: ['app.zero-usage-result@7'],
    reason: `the retry after the automatic compaction was refused too: an error result 'Prompt is too long'; ${ZERO_USAGE}`,
  },
  'claude/8c-overflow-first-turn': {
    dialect: 'claude-envelope',
    spec: ['usage.not-zero@3'],
    app: ['app.zero-usage-result@3'],
    reason: `a first turn refused as too long cannot be compacted: an error result that says so; ${ZERO_USAGE}`,
  },
  'claude/9-compact-interrupted.turn1': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: 'turn 1: reads hello.txt and answers, with usage',
  },
  'claude/9-compact-interrupted.turn2': {
    dialect: 'flat',
    spec: ['turn.init-first@1', 'turn.result-last@2'],
    app: ['turn.init-first@1', 'turn.result-last@2'],
    reason: `SIGINT during the summary: the second status line says compact_result failed; ${COMPACT_STOPPED}; with no claude envelope left the dialect reads as flat`,
  },
  'claude/9-compact-interrupted.turn3': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: 'the turn after an interrupted /compact: init, the answer, a result with usage',
  },
  'claude/9b-compact-killed.turn1': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: 'turn 1: reads hello.txt and answers, with usage',
  },
  'claude/9b-compact-killed.turn2': {
    dialect: 'flat',
    spec: ['turn.init-first@1', 'turn.result-last@1'],
    app: ['turn.init-first@1', 'turn.result-last@1'],
    reason: `SIGKILL during the summary: one status line; ${COMPACT_STOPPED}; the dialect reads as flat`,
  },
  'claude/9b-compact-killed.turn3': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: 'the turn after a killed /compact: init, the answer, a result with usage',
  },
  'claude/10-compact-empty': {
    dialect: 'claude-envelope',
    spec: ['usage.not-zero@3'],
    app: ['app.zero-usage-result@3'],
    reason: `/compact in a fresh session; ${NOTHING_TO_COMPACT}`,
  },
  'claude/10b-compact-after-interrupt.turn1': {
    dialect: 'claude-envelope',
    spec: ['usage.not-zero@4'],
    app: ['app.zero-usage-result@4'],
    reason: `an interrupted first turn; ${ZERO_USAGE}`,
  },
  'claude/10b-compact-after-interrupt.turn2': {
    dialect: 'claude-envelope',
    spec: ['turn.init-first@1', 'usage.not-zero@7'],
    app: ['turn.init-first@1', 'app.zero-usage-result@7'],
    reason: `${COMPACT_TURN}; the history is the interrupted turn's prompt and partial answer`,
  },
  'claude/10c-compact-after-unanswered.turn1': {
    dialect: 'claude-envelope',
    spec: ['turn.result-last@2'],
    app: ['turn.result-last@2'],
    reason:
      'SIGINT before any answer arrived: claude printed [Request interrupted by user] and exited 0 without a result',
  },
  'claude/10c-compact-after-unanswered.turn2': {
    dialect: 'claude-envelope',
    spec: ['turn.init-first@1', 'usage.not-zero@5'],
    app: ['turn.init-first@1', 'app.zero-usage-result@5'],
    reason: `the status lines (compact_result failed) come before init; ${NOTHING_TO_COMPACT}`,
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
  'gemini/7-compress.turn1': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: GEMINI,
  },
  'gemini/7-compress.turn2': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: `${GEMINI}; /compress in -p mode prints no compaction line: the command is sent to the model as text`,
  },
  'gemini/7-compress.turn3': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: GEMINI,
  },
  'gemini/7b-compact.turn1': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: GEMINI,
  },
  'gemini/7b-compact.turn2': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: `${GEMINI}; /compress in -p mode prints no compaction line: the command is sent to the model as text`,
  },
  'gemini/7b-compact.turn3': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: GEMINI,
  },
  'gemini/7c-compress-slow-answer.turn1': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: GEMINI,
  },
  'gemini/7c-compress-slow-answer.turn2': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: `${GEMINI}; /compress in -p mode prints no compaction line: the command is sent to the model as text`,
  },
  'gemini/7c-compress-slow-answer.turn3': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: GEMINI,
  },
  'gemini/8-overflow.turn1': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: GEMINI,
  },
  'gemini/8-overflow.turn2': {
    dialect: 'gemini-cli-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: `${GEMINI}; the overflow ends the turn with an error result quoting the provider`,
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
  'codex/6-interrupt': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: CODEX,
  },
  'codex/7-compact.turn1': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: CODEX,
  },
  'codex/7-compact.turn2': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: `${CODEX}; codex exec sends /compact to the model as text`,
  },
  'codex/7-compact.turn3': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: CODEX,
  },
  'codex/7b-auto-compact-limit.turn1': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: CODEX,
  },
  'codex/7b-auto-compact-limit.turn2': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: `${CODEX}; the compaction forced by model_auto_compact_token_limit prints no line`,
  },
  'codex/7b-auto-compact-limit.turn3': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: CODEX,
  },
  'codex/8-overflow.turn1': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: CODEX,
  },
  'codex/8-overflow.turn2': {
    dialect: 'codex-native',
    spec: ['dialect.stream-json@1'],
    app: ['dialect.stream-json@1'],
    reason: `${CODEX}; the overflow ends with error and turn.failed, no compaction`,
  },
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
    expect(gemini.conforms || codex.conforms).toBe(false);
  });
});
