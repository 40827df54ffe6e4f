// What test/validate/captures.test.ts writes down for the copilot captures: every one is copilot's own dialect.
import { CAPTURE_IDS } from '../../official-cli/helpers/capture-scenarios.js';
import type { ExpectedVerdict } from './capture-verdict.js';

const COPILOT =
  'Copilot CLI native dialect (`session.*`, `assistant.*`, `tool.execution_*`, a `result` with `exitCode`), not stream-json (R1)';
const COPILOT_NAMES = [
  ...CAPTURE_IDS,
  '6b-interrupt-group',
  '7-compact.turn1',
  '7-compact.turn2',
  '7-compact.stalled.turn2',
  '7-compact.turn3',
  'openai-chat/1-plain',
  'openai-chat/2-tool',
  'openai-responses/1-plain',
  'openai-responses/2-tool',
  'facts/fault-403',
  'facts/fault-404',
  'facts/fault-stream-cut',
  'facts/fault-malformed-chunk',
  'facts/interrupt-during-bash',
  'facts/x-401-persistent',
  'facts/x-400',
  'facts/x-read-only',
];

/** Every copilot capture is its own dialect, whatever happened in it (a /compact turn prints only two lines). */
export const COPILOT_VERDICTS: Record<string, ExpectedVerdict> = Object.fromEntries(
  COPILOT_NAMES.map((name) => [
    `copilot/${name}`,
    {
      dialect: 'copilot-cli-native',
      spec: ['dialect.stream-json@1'],
      app: ['dialect.stream-json@1'],
      reason: COPILOT,
    },
  ]),
);
