// Stream rules on tool calls and their results (R3). Data only (listed in STREAM_RULES, ./stream-rules.ts);
// the checks live in ./checks/.
import type { RuleInput } from './types.js';

export const TOOL_RULES: readonly RuleInput[] = [
  // ---- tool calls (R3)
  {
    id: 'tool.result-pairs-use',
    severity: 'MUST',
    source: 'docs/protocol.md#r3-tool-calls',
    title: 'Every `tool_result` answers an earlier `tool_use` of the same turn',
    fix: 'Set `tool_use_id` to the id of the `tool_use` it answers, and print the `tool_use` first.',
  },
  {
    id: 'tool.use-answered',
    severity: 'MUST',
    source: 'docs/protocol.md#r3-tool-calls, docs/protocol.md#r6-interrupts-and-process-trees',
    title: 'Every `tool_use` is answered by a `tool_result` before the turn ends',
    fix: 'Print a `tool_result` for every call, with `is_error: true` when it failed, was refused or was interrupted.',
  },
  {
    id: 'tool.result-once',
    severity: 'MUST',
    source: 'docs/protocol.md#r3-tool-calls',
    title: 'A `tool_use` gets exactly one `tool_result`',
    fix: 'Print one result per call id; merge partial output into it.',
  },
  {
    id: 'tool.unique-id',
    severity: 'MUST',
    source: 'docs/protocol.md#r3-tool-calls, docs/protocol.md#output-discipline',
    title: 'Tool call ids are unique in a session',
    fix: 'Generate a new id per call (e.g. `call_<provider id>` or a counter); reuse an id only for the same call across retries.',
  },
  {
    id: 'tool.no-text-before-result',
    severity: 'MUST',
    source: 'docs/protocol.md#r3-tool-calls, docs/protocol.md#stream-format',
    title: 'No assistant text between a `tool_use` and its `tool_result`',
    fix: 'Print the text the model produced before the call first, then the call, then its result, then later text.',
  },
  {
    id: 'tool.listed-in-init',
    severity: 'MUST',
    source: 'docs/protocol.md#r3-tool-calls, docs/protocol.md#output-discipline',
    title: 'Every tool used is listed in `system.tools`',
    fix: "List every tool the shim can execute in the init line's `tools` (and only those).",
  },
  {
    id: 'tool.file-path',
    severity: 'MUST',
    source: 'docs/protocol.md#r3-tool-calls, docs/protocol.md#tools-the-app-knows',
    title: 'File tools (Read, Write, Edit, MultiEdit) use `file_path`',
    fix: 'Name the path field `file_path` (not `path` or `filename`) in the tool input.',
  },
  {
    id: 'tool.input-object',
    severity: 'MUST',
    source: 'docs/protocol.md#r3-tool-calls',
    title: '`tool_use.input` is a JSON object',
    fix: 'Parse the model\'s argument string into an object; if it is not valid JSON, print `input: {"_invalid_arguments": "<raw text>"}`.',
  },
  {
    id: 'tool.one-at-a-time',
    severity: 'MUST',
    source: 'docs/protocol.md#r3-tool-calls, docs/protocol.md#stream-format',
    title: 'Flat dialect: one call at a time (`tool_use`, its `tool_result`, then the next)',
    fix: "Run a model message's calls sequentially and print each `tool_use` right before its own result; the app pairs a flat result with the latest `tool_use`.",
  },
  {
    id: 'tool.one-at-a-time-envelope',
    severity: 'SHOULD',
    source: 'docs/protocol.md#r3-tool-calls',
    title: 'Envelopes: calls preferably one at a time',
    fix: 'Print each tool_use block followed by its result; several pending calls are allowed in envelopes but one at a time is preferred.',
  },
  {
    id: 'tool.invalid-arguments',
    severity: 'MUST',
    source: 'docs/protocol.md#r3-tool-calls',
    title: 'A call with invalid arguments is answered with an error `tool_result`',
    fix: 'When `input._invalid_arguments` is set, do not run the tool; answer with `is_error: true` and go on with the loop.',
  },
  {
    id: 'tool.input-schema',
    severity: 'SHOULD',
    source: 'docs/protocol.md#tools-the-app-knows',
    title: 'Known tools get the input fields the app reads',
    fix: 'Use the fields of schemas/tool-input-<tool>.schema.json (e.g. Bash `command`, Edit `old_string`/`new_string`).',
  },
];
