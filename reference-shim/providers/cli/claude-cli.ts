// --provider claude-cli: runs `claude -p --output-format=stream-json --verbose ... -- <prompt>` and
// translates its envelopes. claude already uses the app's tool names, so the translation is mostly
// re-identification (ids unique in the shim's session) and error handling: an API error is a synthetic
// assistant message plus a result with subtype "success" and is_error true, which becomes an error here.
// claude compacts sessions itself (docs/protocol.md#r21-compaction): its `compact_boundary` and the synthetic user
// message carrying the summary become the sink's compaction; its status lines are not passed on (they may precede
// `init` only in claude's own stream).
import type { TurnSink } from '../provider.js';
import type { ArgsInput, CliDefinition, CliTranslator } from './cli-provider.js';
import { allowsChanges, asNumber, asString, errorFromStatus, isObject, statusInMessage } from './errors.js';

export const CLAUDE_CLI_TOOLS = [
  'Task',
  'Bash',
  'Glob',
  'Grep',
  'LS',
  'Read',
  'Edit',
  'MultiEdit',
  'Write',
  'NotebookEdit',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
];
/** Tools allowed without asking when the shim's permission mode runs tools (root may not use bypassPermissions). */
const ALLOWED_TOOLS = CLAUDE_CLI_TOOLS.join(',');

export function claudeArgs(input: ArgsInput): string[] {
  const permissions = allowsChanges(input.permissionMode)
    ? ['--permission-mode=acceptEdits', `--allowedTools=${ALLOWED_TOOLS}`]
    : ['--permission-mode=plan'];
  const args = ['-p', '--output-format=stream-json', '--verbose', `--model=${input.model}`, ...permissions];
  if (input.resumeId) args.push(`--resume=${input.resumeId}`);
  // After `--` the prompt is an operand, never an option, whatever it starts with.
  if (!input.promptOnStdin) args.push('--', input.prompt);
  return args;
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content
    .map((block) => (isObject(block) && typeof block.text === 'string' ? block.text : JSON.stringify(block)))
    .join('\n');
}

/**
 * The summary in claude's synthetic message that opens a compacted session: the text between its opening paragraph
 * (and the reminder of the tools used) and its pointer to the full transcript; the whole message when it is not
 * framed so.
 */
export function claudeSummary(message: string): string {
  let text = message.replace(/^This session is being continued[^\n]*\n\n/, '');
  text = text.replace(/^<system-reminder>[\s\S]*?<\/system-reminder>\n/, '');
  const end = text.indexOf('\n\nIf you need specific details from before compaction');
  if (end >= 0) text = text.slice(0, end);
  return text.trim() || message.trim();
}

class ClaudeTranslator implements CliTranslator {
  cliSessionId: string | undefined;
  ending: CliTranslator['ending'];
  private readonly printedIds = new Map<string, string>();
  private apiError: string | undefined;
  private finalText = '';
  /** A boundary whose summary message (the next line) has not come yet. */
  private boundary: { trigger: 'manual' | 'auto'; preTokens: number } | undefined;
  /** Why claude said its compaction failed (a status line with compact_result "failed"). */
  compactError: string | undefined;

  constructor(private readonly sink: TurnSink) {}

  onEvent(event: Record<string, unknown>): void {
    if (typeof event.session_id === 'string' && !this.cliSessionId) this.cliSessionId = event.session_id;
    if (this.boundary && !(event.type === 'user' && event.isSynthetic === true)) this.compacted(undefined);
    switch (event.type) {
      case 'system':
        this.system(event);
        break;
      case 'assistant':
        this.assistant(event);
        break;
      case 'user':
        this.user(event);
        break;
      case 'result':
        this.result(event);
        break;
      default:
        break;
    }
  }

  private system(event: Record<string, unknown>): void {
    if (event.subtype === 'init') this.cliSessionId = asString(event.session_id) ?? this.cliSessionId;
    else if (event.subtype === 'api_retry') {
      this.sink.retried(
        `claude retried after HTTP ${String(event.error_status ?? '?')} ${asString(event.error) ?? ''} (attempt ${String(event.attempt ?? '?')})`.trim(),
      );
    } else if (event.subtype === 'status' && event.compact_result === 'failed') {
      this.compactError = asString(event.compact_error) ?? 'the compaction failed';
    } else if (event.subtype === 'compact_boundary') {
      const metadata = isObject(event.compact_metadata) ? event.compact_metadata : {};
      const trigger = metadata.trigger === 'manual' ? 'manual' : 'auto';
      this.boundary = { trigger, preTokens: asNumber(metadata.pre_tokens) ?? 0 };
    }
  }

  /** Reports the pending boundary, with the summary its synthetic message carried. */
  private compacted(message: string | undefined): void {
    const boundary = this.boundary!;
    this.boundary = undefined;
    this.sink.compacted({ ...boundary, ...(message === undefined ? {} : { summary: claudeSummary(message) }) });
  }

  private assistant(event: Record<string, unknown>): void {
    const message = isObject(event.message) ? event.message : {};
    const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
    if (event.error !== undefined || event.is_api_error_message === true) {
      // A synthetic message carrying an API error: it is the turn's error, not assistant text.
      this.apiError =
        blocks.map((block) => asString(block.text) ?? '').join('') || asString(event.error) || 'API error';
      return;
    }
    for (const block of blocks) {
      if (block.type === 'text' && typeof block.text === 'string') {
        this.sink.text(block.text);
        this.finalText += block.text;
      } else if (block.type === 'thinking' && typeof block.thinking === 'string') {
        this.sink.thinking(block.thinking);
      } else if (block.type === 'tool_use') {
        const cliId = asString(block.id) ?? `toolu_${this.printedIds.size + 1}`;
        const input = isObject(block.input) ? block.input : {};
        this.printedIds.set(cliId, this.sink.toolUse({ id: cliId, name: asString(block.name) ?? 'unknown', input }));
        this.finalText = '';
      }
    }
  }

  private user(event: Record<string, unknown>): void {
    const message = isObject(event.message) ? event.message : {};
    if (this.boundary && event.isSynthetic === true) {
      this.compacted(blockText(message.content));
      return;
    }
    const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
    for (const block of blocks) {
      if (block.type !== 'tool_result') continue;
      const printed = this.printedIds.get(asString(block.tool_use_id) ?? '');
      if (!printed) continue;
      this.sink.toolResult({
        toolUseId: printed,
        content: blockText(block.content) || '(no output)',
        isError: block.is_error === true,
      });
    }
  }

  private result(event: Record<string, unknown>): void {
    const usage = isObject(event.usage) ? event.usage : {};
    const input = asNumber(usage.input_tokens) ?? 0;
    const output = asNumber(usage.output_tokens) ?? 0;
    const cacheRead = asNumber(usage.cache_read_input_tokens) ?? 0;
    const cacheCreation = asNumber(usage.cache_creation_input_tokens) ?? 0;
    if (input > 0 || output > 0) {
      this.sink.usage({
        inputTokens: input,
        outputTokens: output,
        ...(cacheRead > 0 ? { cacheReadTokens: cacheRead } : {}),
        ...(cacheCreation > 0 ? { cacheCreationTokens: cacheCreation } : {}),
      });
    }
    if (event.is_error !== true) {
      this.ending = { ok: true, text: asString(event.result) ?? this.finalText };
      return;
    }
    const errors = Array.isArray(event.errors)
      ? event.errors.filter((entry): entry is string => typeof entry === 'string')
      : [];
    const message =
      asString(event.result) ??
      this.apiError ??
      (errors.join('; ') || `claude ended with ${asString(event.subtype) ?? 'an error'}`);
    const status = asNumber(event.api_error_status) ?? statusInMessage(message);
    this.ending = { ok: false, error: errorFromStatus(status, `claude: ${message}`) };
  }
}

export const CLAUDE_CLI: CliDefinition = {
  id: 'claude-cli',
  binary: 'claude',
  installHint:
    'Install it with `npm install -g @anthropic-ai/claude-code` and sign in, or use --provider anthropic (REST).',
  tools: CLAUDE_CLI_TOOLS,
  // claude 2.1 runs `/compact` in -p mode (test/fixtures/streams/captures/claude/7-compact).
  compactsOnCommand: true,
  buildArgs: claudeArgs,
  createTranslator: (sink) => new ClaudeTranslator(sink),
};
