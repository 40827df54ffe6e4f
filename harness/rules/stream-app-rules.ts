// Stream rules of the yume-app profile: the real app's hazards (R14). Data only (listed in STREAM_RULES,
// ./stream-rules.ts); the checks live in ./checks/.
import type { RuleInput } from './types.js';

const APP = ['yume-app'] as const;

export const APP_RULES: readonly RuleInput[] = [
  // ---- yume-app profile: the real app's hazards (R14, docs/protocol.md "How the app reads a stream")
  {
    id: 'app.blank-line',
    severity: 'MUST',
    profiles: APP,
    source: 'docs/protocol.md#r9-framing-is-judged-on-bytes, docs/protocol.md#how-the-app-reads-a-stream',
    title: 'No blank lines (the app shows an error bubble for each)',
    fix: 'Do not print empty lines.',
  },
  {
    id: 'app.dollar-line',
    severity: 'MUST',
    profiles: APP,
    source: 'docs/protocol.md#r9-framing-is-judged-on-bytes, docs/protocol.md#how-the-app-reads-a-stream',
    title: 'No `$` lines (the app shows an error bubble)',
    fix: 'Print `{"type":"message_stop"}` or nothing after the result.',
  },
  {
    id: 'app.duplicate-line',
    severity: 'MUST',
    profiles: APP,
    source: 'docs/protocol.md#r9-framing-is-judged-on-bytes, docs/protocol.md#how-the-app-reads-a-stream',
    title: 'No line byte-identical to an earlier one (the app silently drops it)',
    fix: 'Put a unique `uuid` or `id` in every message, so two equal chunks stay distinct.',
  },
  {
    id: 'app.zero-usage-result',
    severity: 'MUST',
    profiles: APP,
    source: 'docs/protocol.md#r4-usage, docs/protocol.md#how-the-app-reads-a-stream',
    title: 'No result with 0/0 usage (the app shows it as a compaction and resets its counters)',
    fix: 'Omit `usage` when unknown or send an estimate above 0.',
  },
  {
    id: 'app.compaction-zero-usage',
    severity: 'MUST',
    profiles: APP,
    source: 'docs/protocol.md#r21-compaction, docs/protocol.md#how-the-app-reads-a-stream',
    title: "A successful `/compact` turn's result reports 0/0 usage (the app's only counter reset)",
    fix: 'Print the compaction\'s result with `"usage":{"input_tokens":0,"output_tokens":0}`; anything else leaves the app\'s context bar above its threshold, and every next message becomes another /compact.',
  },
  {
    id: 'app.session-id-from-init',
    severity: 'MUST',
    profiles: APP,
    source: 'docs/protocol.md#r21-compaction, docs/protocol.md#how-the-app-reads-a-stream',
    title: 'A session id the app must resume is the one in `init` (it reads no `system` `session_id`)',
    fix: "Keep the session id through a compaction, or put the new id in that turn's `init`; the app resumes the id it read from init.",
  },
  {
    id: 'app.usage-counted',
    severity: 'MUST',
    profiles: APP,
    source: 'docs/protocol.md#r4-usage, docs/protocol.md#how-the-app-reads-a-stream',
    title: "A completed turn's usage is in a form the app counts (`result.usage` or a nested usage line)",
    fix: 'Put the turn\'s totals in `result.usage`, or print usage as `{"type":"usage","usage":{"input_tokens":…,"output_tokens":…}}`; the app ignores flat `input_tokens` on a usage line.',
  },
  {
    id: 'app.tool-result-string',
    severity: 'MUST',
    profiles: APP,
    source: 'docs/protocol.md#how-the-app-reads-a-stream',
    title: '`tool_result.content` is a string',
    fix: 'Serialise structured tool output to text before printing it.',
  },
  {
    id: 'app.nested-error',
    severity: 'MUST',
    profiles: APP,
    source: 'docs/protocol.md#how-the-app-reads-a-stream',
    title: 'Errors carry a string `message`, not a nested `error` object',
    fix: 'Print `{"type":"error","message":"..."}`; the nested shape fails the app\'s Rust parser.',
  },
  {
    id: 'app.session-id-filename-safe',
    severity: 'MUST',
    profiles: APP,
    source: 'docs/protocol.md#r8-prompt-resume-and-history, docs/protocol.md#how-the-app-reads-a-stream',
    title: 'Session ids match [A-Za-z0-9_-]+',
    fix: 'Use ids made of letters, digits, `_` and `-` (the app loads `<id>.json` and rejects other ids).',
  },
  {
    id: 'app.bash-command',
    severity: 'MUST',
    profiles: APP,
    source: 'docs/protocol.md#tools-the-app-knows',
    title: 'Bash calls carry a non-empty `command`',
    fix: "Map the provider's shell tool arguments to `command`; the app draws no output without it.",
  },
  {
    id: 'app.flat-dialect',
    severity: 'SHOULD',
    profiles: APP,
    source:
      'docs/protocol.md#r1-dialects, docs/protocol.md#r1a-the-reference-shim-speaks-the-app-dialect-when-the-app-starts-it, docs/protocol.md#how-the-app-reads-a-stream',
    title:
      "Prefer Claude envelopes (flat lines show twice in a new tab's first turn); runs started with the spec invocation, which asks for flat, are not warned",
    fix: 'Print `assistant`/`user` envelopes (the reference shim: `--dialect claude` or YUME_SHIM_DIALECT=claude).',
  },
];
