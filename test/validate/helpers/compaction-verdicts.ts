// The verdicts `validate` gives the compaction captures (test/fixtures/streams/captures/HOW-CAPTURED.md, "Compaction
// captures"), under docs/protocol.md#r21-compaction: in `validate` a turn with a manual boundary is a /compact turn.
import { CODEX, type ExpectedVerdict, GEMINI, ZERO_USAGE } from './capture-verdict.js';

const COMPACT_TURN =
  "claude's /compact turn: `system` `status` lines before `init`, a manual boundary, the summary as a synthetic user message and a result with usage 0/0: R21's forms, and the boundary marks the turn as a compaction";
const AFTER_COMPACT = 'the turn after /compact: init, the answer, a result with usage';
const COMPACT_STOPPED =
  'claude stopped during its summary request: `system` `status` lines (allowed before init) and no `init` or `result` (turn.result-last); R21 does not excuse an unfinished turn, so compact-interrupted joins the preset under yume-app only (the kill owes no ending)';
const NOTHING_TO_COMPACT =
  'claude has nothing to compact: no request, a synthetic assistant line saying so and a result that is not an error, with usage 0/0; validate sees no boundary, so usage.not-zero (spec) and app.zero-usage-result (yume-app) stand there (a run knows the turn by its prompt and allows it)';

export const COMPACTION_VERDICTS: Record<string, ExpectedVerdict> = {
  'claude/7-compact.run1.turn1': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
    reason: 'turn 1 of the first /compact run: reads hello.txt and answers, with usage',
  },
  'claude/7-compact.run1.turn2': {
    dialect: 'claude-envelope',
    spec: [],
    app: [],
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
    spec: [],
    app: [],
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
    spec: [],
    app: [],
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
    spec: [],
    app: [],
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
    spec: ['turn.result-last@2'],
    app: ['turn.result-last@2'],
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
    spec: ['turn.result-last@1'],
    app: ['turn.result-last@1'],
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
    spec: [],
    app: [],
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
    spec: ['usage.not-zero@5'],
    app: ['app.zero-usage-result@5'],
    reason: `the status lines (compact_result failed) come before init; ${NOTHING_TO_COMPACT}`,
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
