// Rules judged on one captured stdout by validateStream(). Data only; the checks live in ./checks/.
import { defineRules } from './types.js';

const SPEC = ['spec'] as const;
const APP = ['yume-app'] as const;

export const STREAM_RULES = defineRules('stream', [
  // ---- framing: judged on raw bytes (R9)
  { id: 'framing.not-empty', severity: 'MUST', source: 'R2, PROTOCOL_NORMALIZATION §1', title: 'stdout carries at least one stream-json message', fix: 'Print `system` init, the turn\'s messages and a `result` to stdout; send logs to stderr.' },
  { id: 'framing.utf8', severity: 'MUST', source: 'R9', title: 'Every line is valid UTF-8', fix: 'Encode stdout as UTF-8 and replace invalid bytes from tools or providers (e.g. with U+FFFD) before printing. Yume stops reading stdout at the first invalid line.' },
  { id: 'framing.no-bom', severity: 'MUST', source: 'R9', title: 'No byte order mark', fix: 'Do not print a UTF-8 BOM (EF BB BF); JSON.parse in the app rejects the line.' },
  { id: 'framing.no-ansi', severity: 'MUST', source: 'R9, PROTOCOL_NORMALIZATION §2', title: 'No ANSI escape sequences on stdout', fix: 'Disable colours and spinners on stdout (they belong on stderr, if anywhere).' },
  { id: 'framing.no-prefix', severity: 'MUST', source: 'R9, PROTOCOL_NORMALIZATION §2', title: 'No `data:` or other prefix before the JSON object', fix: 'Print the bare JSON object; strip SSE `data:` prefixes and log tags.' },
  { id: 'framing.single-line-json', severity: 'MUST', source: 'R9, PROTOCOL_NORMALIZATION §2', title: 'Every line is exactly one complete JSON value', fix: 'Serialise each message with JSON.stringify (no indentation) followed by one "\\n"; never split or join objects across lines, and flush complete lines only.' },
  { id: 'framing.json-object', severity: 'MUST', source: 'PROTOCOL_NORMALIZATION §1', title: 'Every line is a JSON object (not an array, string, number or null)', fix: 'Wrap data in a message object with a `type` field.' },
  { id: 'framing.blank-line', severity: 'SHOULD', profiles: SPEC, source: 'R9', title: 'No blank lines', fix: 'Do not print empty lines; end each message with exactly one newline.' },
  { id: 'framing.dollar-terminator', severity: 'INFO', profiles: SPEC, source: 'R9, PROTOCOL_NORMALIZATION §1', title: 'The legacy `$` terminator is not needed', fix: 'Print `{"type":"message_stop"}` after the result instead of `$`.' },
  { id: 'framing.line-size', severity: 'SHOULD', source: 'R9, PROTOCOL_NORMALIZATION §1', title: 'Lines stay under 100,000 bytes', fix: 'Cap or summarise huge tool output (say that it was cut) and split long text into several `text` messages.' },
  { id: 'framing.final-newline', severity: 'SHOULD', source: 'R9', title: 'The last line ends with a newline', fix: 'Terminate every message, including the last, with "\\n" and flush before exiting.' },

  // ---- schema of each message (PROTOCOL_NORMALIZATION §1, R1, R2)
  { id: 'schema.type-field', severity: 'MUST', source: 'PROTOCOL_NORMALIZATION §1', title: 'Every message has a string `type`', fix: 'Add the `type` field (e.g. "text", "tool_use", "result").' },
  { id: 'schema.message', severity: 'MUST', source: 'PROTOCOL_NORMALIZATION §1, schemas/', title: 'Every message matches the schema of its type', fix: 'Give the message the required fields with the JSON types of schemas/<type>.schema.json.' },
  { id: 'schema.unknown-type', severity: 'SHOULD', source: 'R2', title: 'Message types are ones the protocol defines', fix: 'Use the types of schemas/stream-message.schema.json; the app drops unknown types.' },
  { id: 'schema.unknown-block', severity: 'SHOULD', source: 'R1', title: 'Envelope content blocks are text, thinking, tool_use or tool_result', fix: 'Send other content as text blocks; the app drops unknown blocks.' },

  // ---- dialect (R1)
  { id: 'dialect.stream-json', severity: 'MUST', source: 'R1', title: 'Output is stream-json (flat or Claude envelopes), not a CLI\'s native dialect', fix: 'Translate the wrapped CLI\'s own events (Gemini `init`/`message`, Codex `thread.*`/`turn.*`/`item.*`) into flat stream-json or Claude envelopes.' },
  { id: 'dialect.consistent', severity: 'SHOULD', source: 'R1', title: 'One dialect per stream', fix: 'Print either the flat dialect or Claude envelopes, not both.' },

  // ---- turns (R2)
  { id: 'turn.init-first', severity: 'MUST', source: 'R2', title: '`system` init comes first (or `system` error for bad arguments)', fix: 'Print `{"type":"system","subtype":"init",...}` before anything else; on an argument error print `system` subtype "error", an error result, and exit 2.' },
  { id: 'turn.init-once', severity: 'MUST', source: 'R2', title: '`system` init appears exactly once per process', fix: 'Print init once when the process starts, not per turn or per provider call.' },
  { id: 'turn.result-last', severity: 'MUST', source: 'R2, PROTOCOL_NORMALIZATION §1', title: 'Every turn ends with a `result`', fix: 'Always print a `result` (with `is_error: true` after errors and interrupts) as the turn\'s last message, so the app leaves "streaming".' },
  { id: 'turn.single-result', severity: 'MUST', source: 'R2', title: 'Exactly one `result` per turn', fix: 'Print the result once, after everything else of the turn.' },
  { id: 'turn.message-stop-after-result', severity: 'MUST', source: 'R2', title: '`message_stop`, if printed, comes right after the turn\'s `result`', fix: 'Print `message_stop` only directly after the `result`, at most once per turn.' },
  { id: 'turn.nothing-after-result', severity: 'MUST', source: 'R2', title: 'In spawn-per-turn mode nothing follows the turn\'s `result` (and `message_stop`)', fix: 'Stop printing after the result and exit.' },

  // ---- tool calls (R3)
  { id: 'tool.result-pairs-use', severity: 'MUST', source: 'R3', title: 'Every `tool_result` answers an earlier `tool_use` of the same turn', fix: 'Set `tool_use_id` to the id of the `tool_use` it answers, and print the `tool_use` first.' },
  { id: 'tool.use-answered', severity: 'MUST', source: 'R3, R6', title: 'Every `tool_use` is answered by a `tool_result` before the turn ends', fix: 'Print a `tool_result` for every call, with `is_error: true` when it failed, was refused or was interrupted.' },
  { id: 'tool.result-once', severity: 'MUST', source: 'R3', title: 'A `tool_use` gets exactly one `tool_result`', fix: 'Print one result per call id; merge partial output into it.' },
  { id: 'tool.unique-id', severity: 'MUST', source: 'R3, PROTOCOL_NORMALIZATION §2', title: 'Tool call ids are unique in a session', fix: 'Generate a new id per call (e.g. `call_<provider id>` or a counter); reuse an id only for the same call across retries.' },
  { id: 'tool.no-text-before-result', severity: 'MUST', source: 'R3, PROTOCOL_NORMALIZATION §1', title: 'No assistant text between a `tool_use` and its `tool_result`', fix: 'Print the text the model produced before the call first, then the call, then its result, then later text.' },
  { id: 'tool.listed-in-init', severity: 'MUST', source: 'R3, PROTOCOL_NORMALIZATION §2', title: 'Every tool used is listed in `system.tools`', fix: 'List every tool the shim can execute in the init line\'s `tools` (and only those).' },
  { id: 'tool.file-path', severity: 'MUST', source: 'R3, YUME_CLI_SPEC Tool Definitions', title: 'File tools (Read, Write, Edit, MultiEdit) use `file_path`', fix: 'Name the path field `file_path` (not `path` or `filename`) in the tool input.' },
  { id: 'tool.input-object', severity: 'MUST', source: 'R3', title: '`tool_use.input` is a JSON object', fix: 'Parse the model\'s argument string into an object; if it is not valid JSON, print `input: {"_invalid_arguments": "<raw text>"}`.' },
  { id: 'tool.one-at-a-time', severity: 'MUST', source: 'R3, PROTOCOL_NORMALIZATION §1', title: 'Flat dialect: one call at a time (`tool_use`, its `tool_result`, then the next)', fix: 'Run a model message\'s calls sequentially and print each `tool_use` right before its own result; the app pairs a flat result with the latest `tool_use`.' },
  { id: 'tool.one-at-a-time-envelope', severity: 'SHOULD', source: 'R3', title: 'Envelopes: calls preferably one at a time', fix: 'Print each tool_use block followed by its result; several pending calls are allowed in envelopes but the seeds prefer them sequential.' },
  { id: 'tool.invalid-arguments', severity: 'MUST', source: 'R3', title: 'A call with invalid arguments is answered with an error `tool_result`', fix: 'When `input._invalid_arguments` is set, do not run the tool; answer with `is_error: true` and go on with the loop.' },
  { id: 'tool.input-schema', severity: 'SHOULD', source: 'YUME_CLI_SPEC Tool Definitions', title: 'Known tools get the input fields the app reads', fix: 'Use the fields of schemas/tool-input-<tool>.schema.json (e.g. Bash `command`, Edit `old_string`/`new_string`).' },

  // ---- usage (R4)
  { id: 'usage.present', severity: 'MUST', source: 'R4, PROTOCOL_NORMALIZATION §2', title: 'Every completed turn reports usage', fix: 'Print a `usage` line or put `usage` in the result; ask the provider for usage (e.g. `stream_options.include_usage`) or estimate it with `estimated: true`.' },
  { id: 'usage.not-zero', severity: 'SHOULD', profiles: SPEC, source: 'R4', title: 'A result never reports 0 input and 0 output tokens', fix: 'Omit `usage` when nothing is known (e.g. an error before any provider call) or send an estimate above 0.' },
  { id: 'usage.estimated-positive', severity: 'MUST', source: 'R4', title: 'Estimated usage is above 0', fix: 'An estimate marked `estimated: true` must count the prompt and output (> 0).' },

  // ---- errors (R5)
  { id: 'error.no-success-after-error', severity: 'MUST', source: 'R5', title: 'A turn with an `error` or `system` error ends in an error result', fix: 'After printing an error, end the turn with `{"type":"result","is_error":true,...}`; if a retry recovered, do not print `error` (list it in `result.errors`).' },

  // ---- interrupt (R6)
  { id: 'interrupt.error-result', severity: 'MUST', source: 'R6', title: '`interrupt` is followed by an error result and nothing else of the turn', fix: 'On SIGINT or an interrupt frame: answer running tools with error results, print `interrupt`, then `result` with `is_error: true`.' },

  // ---- yume-app profile: the real app's hazards (reference/yume-app-contract.md §2-§4, §6, §9)
  { id: 'app.blank-line', severity: 'MUST', profiles: APP, source: 'R9, yume-app-contract §2', title: 'No blank lines (the app shows an error bubble for each)', fix: 'Do not print empty lines.' },
  { id: 'app.dollar-line', severity: 'MUST', profiles: APP, source: 'R9, yume-app-contract §2', title: 'No `$` lines (the app shows an error bubble)', fix: 'Print `{"type":"message_stop"}` or nothing after the result.' },
  { id: 'app.duplicate-line', severity: 'MUST', profiles: APP, source: 'R9, yume-app-contract §2', title: 'No line byte-identical to an earlier one (the app silently drops it)', fix: 'Put a unique `uuid` or `id` in every message, so two equal chunks stay distinct.' },
  { id: 'app.zero-usage-result', severity: 'MUST', profiles: APP, source: 'R4, yume-app-contract §6', title: 'No result with 0/0 usage (the app shows it as a compaction and resets its counters)', fix: 'Omit `usage` when unknown or send an estimate above 0.' },
  { id: 'app.tool-result-string', severity: 'MUST', profiles: APP, source: 'yume-app-contract §4, §10', title: '`tool_result.content` is a string', fix: 'Serialise structured tool output to text before printing it.' },
  { id: 'app.nested-error', severity: 'MUST', profiles: APP, source: 'yume-app-contract §4, §10', title: 'Errors carry a string `message`, not a nested `error` object', fix: 'Print `{"type":"error","message":"..."}`; the nested shape fails the app\'s Rust parser.' },
  { id: 'app.session-id-filename-safe', severity: 'MUST', profiles: APP, source: 'R8, yume-app-contract §9', title: 'Session ids match [A-Za-z0-9_-]+', fix: 'Use ids made of letters, digits, `_` and `-` (the app loads `<id>.json` and rejects other ids).' },
  { id: 'app.bash-command', severity: 'MUST', profiles: APP, source: 'yume-app-contract §8', title: 'Bash calls carry a non-empty `command`', fix: 'Map the provider\'s shell tool arguments to `command`; the app draws no output without it.' },
  { id: 'app.flat-dialect', severity: 'SHOULD', profiles: APP, source: 'R1, yume-app-contract §3', title: 'Prefer Claude envelopes (flat lines show twice in a new tab\'s first turn)', fix: 'Print `assistant`/`user` envelopes (the reference shim: `--dialect claude` or YUME_SHIM_DIALECT=claude).' },
]);
