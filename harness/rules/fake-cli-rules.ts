// Rules only a fake official CLI can judge (`cli.*`, `tool.not-run-twice`), reported by harness/official-cli/checks.ts.
import { defineRules } from './types.js';

export const FAKE_CLI_RULES = defineRules('run', [
  {
    id: 'cli.refused-to-start',
    severity: 'MUST',
    source: 'docs/protocol.md#wrapping-an-official-cli',
    title: 'The official CLI starts: it does not refuse and exit before printing anything',
    fix: 'Start the CLI where and how it runs (codex outside a git repository needs --skip-git-repo-check); its stderr says why it refused.',
  },
  {
    id: 'cli.failure-not-success',
    severity: 'MUST',
    source: 'docs/protocol.md#wrapping-an-official-cli, docs/protocol.md#r5-errors-and-faults',
    title: 'A CLI that exited non-zero or refused before its final event is not reported as a success',
    fix: "Check the CLI's exit code and whether it printed its final event; end the turn with a `system` error or `error` line and an error result, quoting its stderr.",
  },
  {
    id: 'cli.one-start-per-turn',
    severity: 'MUST',
    source: 'docs/protocol.md#wrapping-an-official-cli',
    title: 'The wrapped CLI is started exactly once per turn',
    fix: 'Spawn the official CLI once per prompt and let it run its own agent loop to the end; do not start it again (or not at all).',
  },
  {
    id: 'cli.no-rerun-after-tool',
    severity: 'MUST',
    source: 'docs/protocol.md#wrapping-an-official-cli',
    title: 'The CLI is not started again after it ran a tool',
    fix: "A tool call is part of the CLI's own loop: read its events until it exits; never re-run the CLI with the same prompt because it used a tool.",
  },
  {
    id: 'cli.prompt-not-option',
    severity: 'MUST',
    source: 'docs/protocol.md#wrapping-an-official-cli',
    title: 'The prompt reaches the CLI as the prompt, never parsed as options',
    fix: 'Pass the prompt after `--` (codex, claude), as `--prompt=<text>` (gemini), or on stdin; a bare positional prompt starting with `-` is read as flags.',
  },
  {
    id: 'cli.stdin-closed',
    severity: 'MUST',
    source: 'docs/protocol.md#wrapping-an-official-cli',
    title: "The CLI's stdin is closed",
    fix: 'Spawn the CLI with stdin ignored (/dev/null), or end it right after writing the prompt; codex waits for stdin EOF before it starts.',
  },
  {
    id: 'cli.resume-continues-session',
    severity: 'MUST',
    source: 'docs/protocol.md#r8-prompt-resume-and-history, docs/protocol.md#wrapping-an-official-cli',
    title: "A resumed turn continues the CLI's own session",
    fix: "Keep the CLI's session/thread id in the shim's session and pass it back on --resume (claude --resume ID, codex exec resume ID, gemini --resume ID).",
  },
  {
    id: 'tool.not-run-twice',
    severity: 'MUST',
    source: 'docs/protocol.md#wrapping-an-official-cli',
    title: 'A tool the CLI ran is not run again (its side effects happen once)',
    fix: "Report the CLI's own tool events; never execute a CLI's tool call locally, even when the CLI printed no output for it.",
  },
  {
    id: 'cli.tool-outcome-matches',
    severity: 'MUST',
    source:
      'docs/protocol.md#wrapping-an-official-cli, docs/protocol.md#r3-tool-calls, docs/protocol.md#r5-errors-and-faults',
    title: 'Each tool the CLI ran gets one tool_result with the outcome the CLI reported',
    fix: 'Print one tool_result per CLI tool event, with is_error as the CLI reported it (codex status failed, gemini status error, claude is_error).',
  },
  {
    id: 'cli.interrupt-reaches-cli',
    severity: 'MUST',
    source: 'docs/protocol.md#r6-interrupts-and-process-trees, docs/protocol.md#wrapping-an-official-cli',
    title: "An interrupt reaches the CLI's worker process (its whole process group)",
    fix: 'Spawn the CLI in its own process group and signal the group (process.kill(-pid, "SIGINT")); gemini\'s launcher ignores signals sent to its pid, and copilot\'s loader dies of them and leaves its native binary running.',
  },
  {
    id: 'cli.compaction-through-cli',
    severity: 'MUST',
    source: 'docs/protocol.md#r21-compaction, docs/protocol.md#wrapping-an-official-cli',
    title:
      'A CLI that does not run /compact non-interactively is asked for a summary, and the next turn starts a new CLI session from it',
    fix: "Never pass /compact to gemini, codex or copilot: gemini and codex send it to the model as text, copilot compacts without printing the summary or a boundary. Ask the CLI, in its own session, for a summary of the conversation with the hints; keep the summary in the shim's session; start the next turn in a new CLI session whose prompt carries it. A session with no history needs no CLI call.",
  },
]);

export type FakeCliRuleId =
  | 'cli.one-start-per-turn'
  | 'cli.no-rerun-after-tool'
  | 'cli.prompt-not-option'
  | 'cli.stdin-closed'
  | 'cli.resume-continues-session'
  | 'tool.not-run-twice'
  | 'cli.tool-outcome-matches'
  | 'cli.interrupt-reaches-cli'
  | 'cli.compaction-through-cli';
