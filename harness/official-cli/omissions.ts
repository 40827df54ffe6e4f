// What each official CLI leaves out of its stdout, so a CLI-wrapping shim cannot print it either (R10: a
// Type-B transcript is compared with the golden without that content; docs/type-b-checks.md). Taken from
// the captures: gemini prints no read_file content and reports a failing shell command as success; codex
// and claude print whole messages only, so a message cut short (interrupt, broken stream) never appears;
// codex runs every tool through its shell or apply_patch, so its calls are not the app's tool calls, and it
// drops a stream event it cannot parse (the turn goes on); gemini and codex print usage only in their closing
// event, which an interrupted run never reaches; copilot's calls are its own too (tool-mapping.ts).
import type { OfficialCliName, ScriptToolCall } from './script-types.js';
import { expectedTranslation, type TranslationContext } from './tool-mapping.js';

export interface CliOmissions {
  /** Text of a model message that did not complete is not printed (only whole messages are). */
  partialText: boolean;
  /** App tools whose output the CLI does not print (the shim's tool_result cannot contain it). */
  toolOutputs: readonly string[];
  /** A command that exits non-zero is reported as a success (its tool_result is_error cannot be compared). */
  shellFailureAsSuccess: boolean;
  /** Tool calls are the CLI's own (shell commands, patches): compare them through expectedToolCall(). */
  ownToolCalls: boolean;
  /** Retries of the provider call are visible only on stderr (not on stdout). */
  retriesOnStderrOnly: boolean;
  /**
   * An event it cannot parse in the middle of a stream is dropped and the turn goes on (codex 0.169 builds
   * messages from whole items): a malformed chunk ends the turn as a success with the whole message.
   */
  dropsMalformedEvents: boolean;
  /**
   * `/compact` as the prompt compacts the session in non-interactive mode (claude 2.1). gemini 0.61 and codex 0.169
   * send it to the model as text (captures `7-*`), so a translator compacts through them (docs/protocol.md#r21-compaction).
   */
  compactsOnCommand: boolean;
  /**
   * A request over the context window is compacted away and retried once (claude 2.1, captures/claude/8-overflow);
   * gemini and codex end the turn with the API's error (their `8-overflow`), R21's other way out.
   */
  compactsOnOverflow: boolean;
  /**
   * Usage is printed only in the closing event (gemini's `result` stats, codex's `turn.completed`), which an
   * interrupted CLI never prints: the usage of the calls that completed before the interrupt is unknown to the
   * shim, which estimates it (R4), so it is compared only for being present and above 0.
   */
  usageOnlyAtEnd: boolean;
}

export const CLI_OMISSIONS: Readonly<Record<OfficialCliName, CliOmissions>> = {
  gemini: {
    partialText: false,
    toolOutputs: ['Read'],
    shellFailureAsSuccess: true,
    ownToolCalls: false,
    retriesOnStderrOnly: true,
    dropsMalformedEvents: false,
    usageOnlyAtEnd: true,
    compactsOnCommand: false,
    compactsOnOverflow: false,
  },
  codex: {
    partialText: true,
    toolOutputs: [],
    shellFailureAsSuccess: false,
    ownToolCalls: true,
    retriesOnStderrOnly: false,
    dropsMalformedEvents: true,
    usageOnlyAtEnd: true,
    compactsOnCommand: false,
    compactsOnOverflow: false,
  },
  claude: {
    partialText: true,
    toolOutputs: [],
    shellFailureAsSuccess: false,
    ownToolCalls: false,
    retriesOnStderrOnly: false,
    dropsMalformedEvents: false,
    // Each assistant message carries its usage, and after SIGINT claude still prints its result with the totals.
    usageOnlyAtEnd: false,
    compactsOnCommand: true,
    compactsOnOverflow: true,
  },
  // copilot streams its text and prints every tool's output; a failing command is `success: true` with its exit
  // code beside it, so a translator can tell. Its calls are its own (`bash` carries a description, a Write over a
  // file is an `edit`): compared through expectedToolCall().
  copilot: {
    partialText: false,
    toolOutputs: [],
    shellFailureAsSuccess: false,
    ownToolCalls: true,
    retriesOnStderrOnly: false,
    dropsMalformedEvents: false,
    // Token counts come only in the usage file copilot writes when its `result` line comes.
    usageOnlyAtEnd: true,
    compactsOnCommand: false,
    compactsOnOverflow: false,
  },
};

/**
 * The (name, input) a correct translator prints for a scripted call when the shim wraps `cli`: what a
 * golden's tool call becomes before comparison. `context.readAfter` reads a workspace file after the run
 * (codex reports edits as changed paths; the translator shows the file's new content).
 */
export function expectedToolCall(
  cli: OfficialCliName,
  call: ScriptToolCall,
  context: TranslationContext,
): { name: string; input: Record<string, unknown> } {
  return expectedTranslation(cli, call, context);
}
