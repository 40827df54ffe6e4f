// Rules judged by the runner on a whole run (process, goldens, workspace, sessions), not on one stdout.
// Data only: the runner's checks (harness/runner, harness/process) report findings with these ids through
// runFinding(). Provider requests and fake CLIs have their own lists beside this one (request-rules.ts,
// fake-cli-rules.ts); catalog.ts gathers them all. Keep ids stable once released.
import { defineRules } from './types.js';

export const RUN_RULES = defineRules('run', [
  // ---- goldens (R10)
  {
    id: 'golden.text',
    severity: 'MUST',
    source: 'docs/protocol.md#r10-what-a-golden-compares',
    title: 'Assistant text matches the golden (per stretch between tool calls)',
    fix: 'Print exactly the text the provider streamed; chunking is free, content is not.',
  },
  {
    id: 'golden.partial-text',
    severity: 'SHOULD',
    source: 'docs/protocol.md#r10-what-a-golden-compares, docs/protocol.md#r5-errors-and-faults',
    title:
      'Text streamed before a provider fault is shown (the last text stretch of an error turn is the error message and is not compared)',
    fix: 'Print the text chunks that arrived before the stream failed, then the error.',
  },
  {
    id: 'golden.tool-calls',
    severity: 'MUST',
    source: 'docs/protocol.md#r10-what-a-golden-compares',
    title: 'Tool calls match the golden (name, input, pairing, is_error)',
    fix: "Forward the model's calls with the app's tool names and input fields, unchanged.",
  },
  {
    id: 'golden.tool-results',
    severity: 'MUST',
    source: 'docs/protocol.md#r10-what-a-golden-compares',
    title: 'Tool results contain what the scenario fixes',
    fix: 'Put the real tool output (file lines, command output, the error) into `tool_result.content`.',
  },
  {
    id: 'golden.result',
    severity: 'MUST',
    source: 'docs/protocol.md#r10-what-a-golden-compares, docs/protocol.md#r4-usage',
    title: "The result's is_error and usage totals match the golden",
    fix: "Sum usage over the turn's provider calls and set `is_error` as the scenario expects.",
  },
  {
    id: 'golden.turns',
    severity: 'MUST',
    source: 'docs/protocol.md#r10-what-a-golden-compares, docs/protocol.md#r2-turns-sessions-and-processes',
    title: "The run has the golden's number of turns, each ending in a result",
    fix: 'End every turn with exactly one `result`; do not end a turn early or merge turns.',
  },

  // ---- workspace (R11)
  {
    id: 'workspace.matches',
    severity: 'MUST',
    source: 'docs/protocol.md#r11-tools-and-paths',
    title: 'The workspace after the run matches the expected tree',
    fix: 'Apply Write/Edit/MultiEdit exactly as asked, relative to --cwd.',
  },
  {
    id: 'workspace.outside-cwd-refused',
    severity: 'MUST',
    source: 'docs/protocol.md#r11-tools-and-paths',
    title: 'Paths outside --cwd are refused with an error tool_result',
    fix: 'Resolve paths (and symlinks) against --cwd and refuse anything outside it.',
  },
  {
    id: 'workspace.outside-writes',
    severity: 'MUST',
    source: 'docs/protocol.md#writes-outside-the-workspace',
    title: 'Nothing is written beside --cwd, in the folder that holds the workspace',
    fix: 'Write only inside --cwd (through tools the app can refuse), HOME and TMPDIR; never next to the project folder.',
  },
  {
    id: 'workspace.outside-home-temp',
    severity: 'INFO',
    source: 'docs/protocol.md#writes-outside-the-workspace',
    title:
      "New entries of the shims' user in the real home or the system temp folder during the suite (a shim that ignores HOME or TMPDIR)",
    fix: 'Find the home through HOME (USERPROFILE on Windows) and temporary files through TMPDIR (TEMP), as os.homedir() and os.tmpdir() do; never through the password database or a fixed /tmp.',
  },
  {
    id: 'workspace.deny-untouched',
    severity: 'MUST',
    source: 'docs/protocol.md#permission-modes',
    title: 'Permission mode `deny` runs no tool and changes nothing',
    fix: 'In deny mode answer every call with an error tool_result without running it.',
  },

  // ---- error outcomes that depend on the injected fault (R5)
  {
    id: 'error.fault-outcome',
    severity: 'MUST',
    source: 'docs/protocol.md#r5-errors-and-faults',
    title:
      'Each fault ends with the outcome R5 requires (Claude envelopes: the error as assistant text, then an error result)',
    fix: 'Auth failures: `system` error; 400/404/malformed/cut: `error`; then an error result (see R5). In Claude envelopes, assistant text with the error message, then an error result, also conforms.',
  },
  {
    id: 'error.retries-listed',
    severity: 'MUST',
    source: 'docs/protocol.md#r5-errors-and-faults',
    title: 'A recovered retry is listed in `result.errors` (Claude envelopes: or a `system` `api_retry` line)',
    fix: 'Append each retried failure to `result.errors` and finish the turn normally (in Claude envelopes a `system` line with subtype "api_retry" per retry also conforms).',
  },

  // ---- usage totals (R4)
  {
    id: 'usage.totals',
    severity: 'MUST',
    source: 'docs/protocol.md#r4-usage',
    title: "The turn's usage (`result.usage`, else the sum of its usage lines) equals what the provider reported",
    fix: 'Add up the usage of every provider call of the turn.',
  },

  // ---- streaming
  {
    id: 'streaming.incremental',
    severity: 'SHOULD',
    source: 'docs/protocol.md#output-discipline',
    title:
      'Assistant text is printed while the provider still streams (Claude envelopes: `stream_event` text deltas count)',
    fix: 'Print and flush text as chunks arrive instead of waiting for the whole message.',
  },

  // ---- secrets (D2)
  {
    id: 'secrets.no-credential-echo',
    severity: 'MUST',
    source: 'docs/protocol.md#credentials-and-secrets',
    title: 'No API key or token appears on stdout or stderr',
    fix: 'Never log credentials; redact them from error messages and tool output.',
  },

  // ---- session file (R8)
  {
    id: 'session.file',
    severity: 'MUST',
    source: 'docs/protocol.md#r8-prompt-resume-and-history',
    title: 'The session file exists and matches schemas/session-file.schema.json',
    fix: 'Write `~/.yume/sessions/<provider>/<id>.json` atomically with id, provider, model, cwd, title, history and camelCase usage.',
  },
  {
    id: 'session.resume-keeps-id',
    severity: 'MUST',
    source: 'docs/protocol.md#r8-prompt-resume-and-history',
    title: '`--resume ID` continues under the same session id',
    fix: 'Report the resumed id in `system` init; an unknown filename-safe id starts a new session under that id.',
  },

  // ---- process (R2, R5, R6)
  {
    id: 'process.started',
    severity: 'MUST',
    source: 'docs/protocol.md#running-the-suite',
    title: 'The shim can be started',
    fix: 'Check the path, the shebang and the execute bit (or the .cmd wrapper on Windows).',
  },
  {
    id: 'process.exit-after-result',
    severity: 'MUST',
    source: 'docs/protocol.md#r5-errors-and-faults',
    title: 'Spawn-per-turn: the process exits within 2 s after its last result',
    fix: 'Close provider connections and exit once the result is printed.',
  },
  {
    id: 'process.exit-code',
    severity: 'SHOULD',
    source: 'docs/protocol.md#r5-errors-and-faults',
    title: 'Exit code 0 after a success result',
    fix: 'Exit 0 when the turn succeeded.',
  },
  {
    id: 'process.exit-code-after-error',
    severity: 'INFO',
    source: 'docs/protocol.md#r5-errors-and-faults',
    title: 'Exit code after an error result (any code is accepted)',
    fix: 'No action needed; reported for information.',
  },
  {
    id: 'process.no-output',
    severity: 'MUST',
    source: 'docs/protocol.md#r2-turns-sessions-and-processes, docs/protocol.md#r5-errors-and-faults',
    title: 'The shim prints something before it exits',
    fix: 'Print `system` init first and an error result on any failure (even an argument error) instead of exiting silently.',
  },
  {
    id: 'process.argument-error',
    severity: 'MUST',
    source: 'docs/protocol.md#r2-turns-sessions-and-processes, docs/protocol.md#r13-real-programs-decide-what-conforms',
    title: 'Bad arguments: `system` error, error result, exit 2',
    fix: 'Reject unknown flags and malformed `--resume` ids that way.',
  },
  {
    id: 'process.timeout',
    severity: 'MUST',
    source: 'docs/protocol.md#running-the-suite',
    title: 'The run finishes within the timeout',
    fix: 'Do not hang: end every turn with a result and exit (or wait for the next stdin frame in persistent mode).',
  },
  {
    id: 'process.descendants-gone',
    severity: 'MUST',
    source: 'docs/protocol.md#r6-interrupts-and-process-trees',
    title: 'No process the shim started is left after the run',
    fix: 'Kill tool process trees (process groups) on interrupt and exit.',
  },
  {
    id: 'process.orphaned-tools',
    severity: 'SHOULD',
    source: 'docs/protocol.md#r6-interrupts-and-process-trees',
    title: 'No tool process outlives a shim killed with SIGKILL',
    fix: 'Start tools so they end with the shim (on Linux a parent-death signal, or a supervisor that outlives the kill); a killed process cannot clean up, so the harness ends them.',
  },
  {
    id: 'process.output-flood',
    severity: 'MUST',
    source: 'docs/protocol.md#r9-framing-is-judged-on-bytes, docs/protocol.md#running-the-suite',
    title: 'Stdout stays within the capture limit (64 MB)',
    fix: 'Cap or summarise huge output; never print in a loop without a bound.',
  },
  {
    id: 'process.stdout-held-open',
    severity: 'MUST',
    source: 'docs/protocol.md#r6-interrupts-and-process-trees',
    title: 'No process the shim started keeps stdout or stderr open after it exits',
    fix: 'Give tools their own stdio pipes (not the inherited ones) and end their process trees before exiting.',
  },

  // ---- interrupt, process side (R6)
  {
    id: 'interrupt.exit-in-time',
    severity: 'MUST',
    source: 'docs/protocol.md#r6-interrupts-and-process-trees',
    title: 'Spawn-per-turn: the process exits within 2 s after SIGINT',
    fix: 'Handle SIGINT: print interrupt and the error result, then exit.',
  },
  {
    id: 'interrupt.tool-error-result',
    severity: 'MUST',
    source: 'docs/protocol.md#r6-interrupts-and-process-trees',
    title: 'A tool running at the interrupt is answered with an error tool_result',
    fix: 'Kill the tool and print its result with `is_error: true` before `interrupt`.',
  },
  {
    id: 'interrupt.sent',
    severity: 'INFO',
    source: 'docs/protocol.md#r6-interrupts-and-process-trees',
    title: 'When the runner sent the interrupt, and what triggered it',
    fix: "Nothing to fix: read it with the other interrupt findings (a signal sent before the tool ran is the harness's fault, not the shim's).",
  },
  {
    id: 'interrupt.acknowledged',
    severity: 'MUST',
    source: 'docs/protocol.md#r6-interrupts-and-process-trees',
    title:
      'An interrupted turn prints `interrupt` (Claude envelopes: a user message `[Request interrupted by user]`) and ends with an error result',
    fix: 'On SIGINT (spawn-per-turn) or an interrupt frame (persistent), print `{"type":"interrupt"}`, then a result with `is_error: true`.',
  },

  // ---- persistent mode (R6, stdin frames)
  {
    id: 'persistent.next-turn',
    severity: 'MUST',
    source: 'docs/protocol.md#r2-turns-sessions-and-processes, docs/protocol.md#r6-interrupts-and-process-trees',
    title: 'Persistent mode: the process serves the next `user` frame after a turn or an interrupt',
    fix: 'Keep reading stdin frames until EOF.',
  },
  {
    id: 'persistent.stdin-tolerant',
    severity: 'MUST',
    source: 'docs/protocol.md#stdin-frames',
    title: 'Blank lines, CRLF and unknown fields on stdin are ignored',
    fix: 'Trim each stdin line, skip blank ones and ignore unknown fields.',
  },
  {
    id: 'persistent.bad-frame-error',
    severity: 'MUST',
    source: 'docs/protocol.md#stdin-frames',
    title: 'Unknown frame types and malformed JSON on stdin get an `error` line, never a crash',
    fix: 'Print `{"type":"error","message":...}` and keep serving.',
  },
  {
    id: 'persistent.eof-exit',
    severity: 'MUST',
    source: 'docs/protocol.md#r6-interrupts-and-process-trees',
    title: 'stdin EOF ends the process',
    fix: 'Exit when stdin closes.',
  },
  {
    id: 'permission.approval-honoured',
    severity: 'MUST',
    source: 'docs/protocol.md#permission-modes',
    title: 'Interactive mode runs a tool only after `tool_approval` approved it',
    fix: 'Wait for the approval frame; answer a denied call with an error tool_result.',
  },

  // ---- suite level
  {
    id: 'scenario.required-verified',
    severity: 'MUST',
    source: 'docs/protocol.md#running-the-suite',
    title: 'The five required scenarios are verified for every declared provider',
    fix: 'Support them, or declare the limitation in the capabilities file (the run is then "partial").',
  },
  {
    id: 'scenario.moment-reached',
    severity: 'MUST',
    source: 'docs/protocol.md#running-the-suite',
    title:
      'The shim reaches the scripted moment of an interrupt or a kill (streamed text, a running tool) within 8 s of its own time',
    fix: 'Start, call the provider and print text as it streams without waiting for a signal or stdin; a start-up that outlasts the fallback is interrupted before the moment the scenario tests.',
  },
  {
    id: 'expected-failures.stale',
    severity: 'MUST',
    source: 'docs/protocol.md#running-the-suite',
    title: 'A check listed as an expected failure still fails',
    fix: 'Remove checks that now pass from the expected-failures file.',
  },
]);
