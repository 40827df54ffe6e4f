// Run rules of compaction (docs/protocol.md#r21-compaction): what only the whole run shows (the script's usage,
// the session file, how a turn that met a context overflow ended). Data only; the checks live in
// harness/runner/checks/compaction-checks.ts. The requests' side is in ./request-rules.ts, the stream's in
// ./stream-compaction-rules.ts.
import { defineRules } from './types.js';

export const COMPACTION_RUN_RULES = defineRules('run', [
  {
    id: 'compaction.overflow-outcome',
    severity: 'MUST',
    source: 'docs/protocol.md#r21-compaction',
    title: 'A context overflow ends in one automatic compaction and an answer, or in an error quoting the provider',
    fix: 'On a context-overflow error either compact on your own (a compact_boundary with trigger "auto"), retry once with the summary and print the answer, or end the turn with an error result that quotes the provider\'s message.',
  },
  {
    id: 'compaction.nothing-to-compact',
    severity: 'MUST',
    source: 'docs/protocol.md#r21-compaction',
    title: '`/compact` on a session with no history says there is nothing to compact',
    fix: 'Make no summary request; end the turn with an error result saying there is nothing to compact (no 0/0), or as claude does with a 0/0 success.',
  },
  {
    id: 'compaction.pre-tokens',
    severity: 'MUST',
    source: 'docs/protocol.md#r21-compaction',
    title: "A boundary's `pre_tokens` is the last call's input + cache + output tokens (0 when unknown)",
    fix: "Keep the last provider call's usage with the session and print input + cache read + cache creation + output tokens as `compact_metadata.pre_tokens`, or 0 when you do not know it.",
  },
  {
    id: 'session.compacted-history',
    severity: 'MUST',
    source: 'docs/protocol.md#r21-compaction, docs/protocol.md#r8-prompt-resume-and-history',
    title: 'After a compaction the session file holds the summary, not the compacted turns',
    fix: 'Replace the saved history with the summary (and any recent messages you keep) when a compaction succeeds; the next --resume must start from it.',
  },
]);
