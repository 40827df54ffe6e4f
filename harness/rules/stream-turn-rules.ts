// Stream rules over a turn's sequence of events: its shape (init, result, one turn per process) and how it
// ends (usage, errors, interrupts). Data only (listed in STREAM_RULES, ./stream-rules.ts); the checks live in
// ./checks/sequence.ts.
import type { RuleInput } from './types.js';

const SPEC = ['spec'] as const;

export const TURN_RULES: readonly RuleInput[] = [
  // ---- turns (R2)
  {
    id: 'turn.init-first',
    severity: 'MUST',
    source: 'docs/protocol.md#r2-turns-sessions-and-processes, docs/protocol.md#r21-compaction',
    title: '`system` init comes first (or `system` error for bad arguments); `system` `status` lines may precede it',
    fix: 'Print `{"type":"system","subtype":"init",...}` before anything else; on an argument error print `system` subtype "error", an error result, and exit 2.',
  },
  {
    id: 'turn.init-once',
    severity: 'MUST',
    source: 'docs/protocol.md#r2-turns-sessions-and-processes',
    title: '`system` init appears exactly once per process',
    fix: 'Print init once when the process starts, not per turn or per provider call.',
  },
  {
    id: 'turn.result-last',
    severity: 'MUST',
    source: 'docs/protocol.md#r2-turns-sessions-and-processes, docs/protocol.md#stream-format',
    title: 'Every turn ends with a `result`',
    fix: 'Always print a `result` (with `is_error: true` after errors and interrupts) as the turn\'s last message, so the app leaves "streaming".',
  },
  {
    id: 'turn.result-session-id',
    severity: 'MUST',
    source: 'docs/protocol.md#r2-turns-sessions-and-processes',
    title: "`result.session_id` is the session id of the process's init (or, under spec, the one announced after it)",
    fix: 'Print the same session id in the result as in system init (the app resumes with it); a compaction that changes the id announces the new one with `system` `session_id` before the result (spec only).',
  },
  {
    id: 'turn.success-subtype',
    severity: 'MUST',
    source: 'docs/protocol.md#r5-errors-and-faults',
    title: 'A success result (`is_error: false`) has `subtype: "success"`',
    fix: 'Print `"subtype":"success"` with `"is_error":false`; error results may use any subtype.',
  },
  {
    id: 'turn.single-result',
    severity: 'MUST',
    source: 'docs/protocol.md#r2-turns-sessions-and-processes',
    title: 'Exactly one `result` per turn',
    fix: 'Print the result once, after everything else of the turn.',
  },
  {
    id: 'turn.message-stop-after-result',
    severity: 'MUST',
    source: 'docs/protocol.md#r2-turns-sessions-and-processes',
    title: "`message_stop`, if printed, comes right after the turn's `result`",
    fix: 'Print `message_stop` only directly after the `result`, at most once per turn.',
  },
  {
    id: 'turn.nothing-after-result',
    severity: 'MUST',
    source: 'docs/protocol.md#r2-turns-sessions-and-processes',
    title: "In spawn-per-turn mode nothing follows the turn's `result` (and `message_stop`)",
    fix: 'Stop printing after the result and exit.',
  },
];

export const TURN_OUTCOME_RULES: readonly RuleInput[] = [
  // ---- usage (R4)
  {
    id: 'usage.present',
    severity: 'MUST',
    source: 'docs/protocol.md#r4-usage, docs/protocol.md#output-discipline',
    title: 'Every completed turn reports usage',
    fix: 'Print a `usage` line or put `usage` in the result; ask the provider for usage (e.g. `stream_options.include_usage`) or estimate it with `estimated: true`.',
  },
  {
    id: 'usage.not-zero',
    severity: 'SHOULD',
    profiles: SPEC,
    source: 'docs/protocol.md#r4-usage',
    title: 'A result never reports 0 input and 0 output tokens',
    fix: 'Omit `usage` when nothing is known (e.g. an error before any provider call) or send an estimate above 0.',
  },
  {
    id: 'usage.estimated-positive',
    severity: 'MUST',
    source: 'docs/protocol.md#r4-usage',
    title: 'Estimated usage is above 0',
    fix: 'An estimate marked `estimated: true` must count the prompt and output (> 0).',
  },

  // ---- errors (R5)
  {
    id: 'error.no-success-after-error',
    severity: 'MUST',
    source: 'docs/protocol.md#r5-errors-and-faults',
    title: 'A turn with an `error` or `system` error ends in an error result',
    fix: 'After printing an error, end the turn with `{"type":"result","is_error":true,...}`; if a retry recovered, do not print `error` (list it in `result.errors`).',
  },

  // ---- interrupt (R6)
  {
    id: 'interrupt.error-result',
    severity: 'MUST',
    source: 'docs/protocol.md#r6-interrupts-and-process-trees',
    title: '`interrupt` is followed by an error result and nothing else of the turn',
    fix: 'On SIGINT or an interrupt frame: answer running tools with error results, print `interrupt`, then `result` with `is_error: true`.',
  },
];
