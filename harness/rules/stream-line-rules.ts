// Stream rules judged on each line by itself: its framing on raw bytes, the schema of its message and the
// dialect it speaks. Data only (listed in STREAM_RULES, ./stream-rules.ts); the checks live in ./checks/.
import type { RuleInput } from './types.js';

const SPEC = ['spec'] as const;

export const LINE_RULES: readonly RuleInput[] = [
  // ---- framing: judged on raw bytes (R9)
  {
    id: 'framing.not-empty',
    severity: 'MUST',
    source: 'docs/protocol.md#r2-turns-sessions-and-processes, docs/protocol.md#stream-format',
    title: 'stdout carries at least one stream-json message',
    fix: "Print `system` init, the turn's messages and a `result` to stdout; send logs to stderr.",
  },
  {
    id: 'framing.utf8',
    severity: 'MUST',
    source: 'docs/protocol.md#r9-framing-is-judged-on-bytes',
    title: 'Every line is valid UTF-8',
    fix: 'Encode stdout as UTF-8 and replace invalid bytes from tools or providers (e.g. with U+FFFD) before printing. Yume stops reading stdout at the first invalid line.',
  },
  {
    id: 'framing.no-bom',
    severity: 'MUST',
    source: 'docs/protocol.md#r9-framing-is-judged-on-bytes',
    title: 'No byte order mark',
    fix: 'Do not print a UTF-8 BOM (EF BB BF); JSON.parse in the app rejects the line.',
  },
  {
    id: 'framing.no-ansi',
    severity: 'MUST',
    source: 'docs/protocol.md#r9-framing-is-judged-on-bytes, docs/protocol.md#output-discipline',
    title: 'No ANSI escape sequences on stdout',
    fix: 'Disable colours and spinners on stdout (they belong on stderr, if anywhere).',
  },
  {
    id: 'framing.no-prefix',
    severity: 'MUST',
    source: 'docs/protocol.md#r9-framing-is-judged-on-bytes, docs/protocol.md#output-discipline',
    title: 'No `data:` or other prefix before the JSON object',
    fix: 'Print the bare JSON object; strip SSE `data:` prefixes and log tags.',
  },
  {
    id: 'framing.single-line-json',
    severity: 'MUST',
    source: 'docs/protocol.md#r9-framing-is-judged-on-bytes, docs/protocol.md#output-discipline',
    title: 'Every line is exactly one complete JSON value',
    fix: 'Serialise each message with JSON.stringify (no indentation) followed by one "\\n"; never split or join objects across lines, and flush complete lines only.',
  },
  {
    id: 'framing.json-object',
    severity: 'MUST',
    source: 'docs/protocol.md#stream-format',
    title: 'Every line is a JSON object (not an array, string, number or null)',
    fix: 'Wrap data in a message object with a `type` field.',
  },
  {
    id: 'framing.blank-line',
    severity: 'SHOULD',
    profiles: SPEC,
    source: 'docs/protocol.md#r9-framing-is-judged-on-bytes',
    title: 'No blank lines',
    fix: 'Do not print empty lines; end each message with exactly one newline.',
  },
  {
    id: 'framing.dollar-terminator',
    severity: 'INFO',
    profiles: SPEC,
    source: 'docs/protocol.md#r9-framing-is-judged-on-bytes, docs/protocol.md#stream-format',
    title: 'The legacy `$` terminator is not needed',
    fix: 'Print `{"type":"message_stop"}` after the result instead of `$`.',
  },
  {
    id: 'framing.line-size',
    severity: 'SHOULD',
    source: 'docs/protocol.md#r9-framing-is-judged-on-bytes, docs/protocol.md#stream-format',
    title: 'Lines stay under 100,000 bytes',
    fix: 'Cap or summarise huge tool output (say that it was cut) and split long text into several `text` messages.',
  },
  {
    id: 'framing.final-newline',
    severity: 'SHOULD',
    source: 'docs/protocol.md#r9-framing-is-judged-on-bytes',
    title: 'The last line ends with a newline',
    fix: 'Terminate every message, including the last, with "\\n" and flush before exiting.',
  },
  {
    id: 'framing.integer-lexeme',
    severity: 'MUST',
    source: 'docs/protocol.md#r14-the-yume-app-profile-follows-the-app',
    title: 'Integer fields (token counts, durations, turn counts) are written as plain digits',
    fix: 'Write integers without a fraction or an exponent: 121, not 121.0 or 1.21e2 (round before printing).',
  },
  {
    id: 'framing.lone-surrogate',
    severity: 'MUST',
    source: 'docs/protocol.md#r14-the-yume-app-profile-follows-the-app',
    title: 'String escapes never hold half a surrogate pair',
    fix: 'Escape characters above U+FFFF as a \\uD8xx\\uDCxx pair (or print them as UTF-8); never cut a string between the two halves.',
  },
  {
    id: 'framing.nesting-depth',
    severity: 'MUST',
    source: 'docs/protocol.md#r14-the-yume-app-profile-follows-the-app',
    title: 'A message nests fewer than 128 levels of objects and arrays',
    fix: 'Flatten or stringify deeply nested values (for example a tool input) before printing them.',
  },

  // ---- schema of each message (stream format, R1, R2)
  {
    id: 'schema.type-field',
    severity: 'MUST',
    source: 'docs/protocol.md#stream-format',
    title: 'Every message has a string `type`',
    fix: 'Add the `type` field (e.g. "text", "tool_use", "result").',
  },
  {
    id: 'schema.message',
    severity: 'MUST',
    source: 'docs/protocol.md#stream-format',
    title: 'Every message matches the schema of its type',
    fix: 'Give the message the required fields with the JSON types of schemas/<type>.schema.json.',
  },
  {
    id: 'schema.unknown-type',
    severity: 'SHOULD',
    source: 'docs/protocol.md#r2-turns-sessions-and-processes',
    title: 'Message types are ones the protocol defines',
    fix: 'Use the types of schemas/stream-message.schema.json; the app drops unknown types.',
  },
  {
    id: 'schema.unknown-block',
    severity: 'SHOULD',
    source: 'docs/protocol.md#r1-dialects',
    title: 'Envelope content blocks are text, thinking, tool_use or tool_result',
    fix: 'Send other content as text blocks; the app drops unknown blocks.',
  },

  // ---- dialect (R1)
  {
    id: 'dialect.stream-json',
    severity: 'MUST',
    source: 'docs/protocol.md#r1-dialects',
    title: "Output is stream-json (flat or Claude envelopes), not a CLI's native dialect",
    fix: "Translate the wrapped CLI's own events (Gemini `init`/`message`, Codex `thread.*`/`turn.*`/`item.*`) into flat stream-json or Claude envelopes.",
  },
  {
    id: 'dialect.consistent',
    severity: 'SHOULD',
    source: 'docs/protocol.md#r1-dialects',
    title: 'One dialect per stream',
    fix: 'Print either the flat dialect or Claude envelopes, not both.',
  },
];
