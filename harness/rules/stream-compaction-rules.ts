// Stream rules of compaction (docs/protocol.md#r21-compaction): what a successful `/compact` turn prints. Data
// only (listed in STREAM_RULES, ./stream-rules.ts); the checks live in ./checks/compaction.ts. The app's own
// stake in them (its counter reset, its reading of the session id) is in ./stream-app-rules.ts.
import type { RuleInput } from './types.js';

const SPEC = ['spec'] as const;

export const COMPACTION_RULES: readonly RuleInput[] = [
  {
    id: 'compaction.boundary',
    severity: 'MUST',
    source: 'docs/protocol.md#r21-compaction',
    title: 'A successful `/compact` turn prints a `system` `compact_boundary` with `trigger: "manual"`',
    fix: 'After init print `{"type":"system","subtype":"compact_boundary","compact_metadata":{"trigger":"manual","pre_tokens":N}}` (N: the last call\'s input + cache + output tokens, 0 when unknown).',
  },
  {
    id: 'compaction.result-zero-usage',
    severity: 'SHOULD',
    profiles: SPEC,
    source: 'docs/protocol.md#r21-compaction',
    title: "A successful `/compact` turn's result reports 0 input and 0 output tokens",
    fix: 'Print the compaction\'s result with `"usage":{"input_tokens":0,"output_tokens":0}`: it is how the app knows the session was compacted (the summary request\'s own tokens are not the turn\'s).',
  },
  {
    id: 'compaction.summary-shown',
    severity: 'SHOULD',
    source: 'docs/protocol.md#r21-compaction',
    title: 'The summary is in the result text or a synthetic `user` message, never assistant text',
    fix: "Put the summary in the `result` field of the compaction's result (the app shows it as the summary), or in a `user` message as claude does; do not print it as `text` or an assistant message.",
  },
];
