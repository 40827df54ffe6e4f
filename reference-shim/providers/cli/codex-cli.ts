// --provider codex-cli: runs `codex exec --json ... -- <prompt>` and translates its thread/turn/item
// events. codex runs every tool through its shell, so a `command_execution` is a Bash call with the
// command unwrapped from `/bin/bash -lc '...'`; a `file_change` (apply_patch) reports only paths, shown
// as a Write of the content the file now has. Agent messages arrive whole (codex prints no deltas).
import { readFileSync, statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { TurnSink } from '../provider.js';
import type { ArgsInput, CliDefinition, CliTranslator, CliUsageTotals } from './cli-provider.js';
import {
  allowsChanges,
  asNumber,
  asString,
  errorFromStatus,
  isObject,
  reportUsageSince,
  statusInMessage,
} from './errors.js';
import { unwrapShellCommand } from './shell-words.js';

export const CODEX_CLI_TOOLS = ['Bash', 'Write', 'WebSearch'];
/** A written file larger than this is not copied into the Write call's input. */
const MAX_CONTENT_BYTES = 256 * 1024;

export function codexArgs(input: ArgsInput): string[] {
  const sandbox = !allowsChanges(input.permissionMode)
    ? ['--sandbox=read-only']
    : input.permissionMode === 'bypassPermissions'
      ? ['--dangerously-bypass-approvals-and-sandbox']
      : ['--sandbox=workspace-write'];
  const args = ['exec', '--json', '--skip-git-repo-check', `--cd=${input.cwd}`, `--model=${input.model}`, ...sandbox];
  if (input.resumeId) args.push('resume', input.resumeId);
  // `-` reads the prompt from stdin; otherwise it follows `--`, so clap never reads it as a flag.
  if (input.promptOnStdin) args.push('-');
  else args.push('--', input.prompt);
  return args;
}

function currentContent(file: string): string | undefined {
  try {
    if (statSync(file).size > MAX_CONTENT_BYTES) return undefined;
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

class CodexTranslator implements CliTranslator {
  cliSessionId: string | undefined;
  usageTotals: CliUsageTotals | undefined;
  ending: CliTranslator['ending'];
  private readonly printedIds = new Map<string, string>();
  private finalText = '';
  private lastError: string | undefined;

  constructor(
    private readonly sink: TurnSink,
    private readonly log: (message: string) => void,
    private readonly cwd: string,
    private readonly previousTotals: CliUsageTotals | undefined,
  ) {}

  onEvent(event: Record<string, unknown>): void {
    switch (event.type) {
      case 'thread.started':
        this.cliSessionId = asString(event.thread_id) ?? this.cliSessionId;
        break;
      case 'item.started':
        if (isObject(event.item)) this.started(event.item);
        break;
      case 'item.completed':
        if (isObject(event.item)) this.completed(event.item);
        break;
      case 'error': {
        const message = asString(event.message) ?? 'codex error';
        // "Reconnecting... 1/1 (...)" is a retry codex made itself (R5: listed in result.errors).
        if (message.startsWith('Reconnecting')) this.sink.retried(`codex: ${message}`);
        else this.lastError = message;
        break;
      }
      case 'turn.completed': {
        // A resumed thread reports its running total: this turn used what it added since the last turn.
        const usage = isObject(event.usage) ? event.usage : {};
        const totals: CliUsageTotals = {
          inputTokens: asNumber(usage.input_tokens) ?? 0,
          outputTokens: asNumber(usage.output_tokens) ?? 0,
          cacheReadTokens: asNumber(usage.cached_input_tokens) ?? 0,
        };
        this.usageTotals = totals;
        reportUsageSince(this.sink, totals, this.previousTotals);
        this.ending = { ok: true, text: this.finalText };
        break;
      }
      case 'turn.failed': {
        const message =
          (isObject(event.error) ? asString(event.error.message) : undefined) ??
          this.lastError ??
          'codex reported a failed turn';
        this.ending = { ok: false, error: errorFromStatus(statusInMessage(message), `codex: ${message}`) };
        break;
      }
      default:
        break;
    }
  }

  private toolUse(cliId: string, name: string, input: Record<string, unknown>): string {
    // codex numbers items from item_0 in every run: the prefix and the allocator keep them unique.
    const printed = this.sink.toolUse({ id: `codex_${cliId}`, name, input });
    this.printedIds.set(cliId, printed);
    this.finalText = '';
    return printed;
  }

  private started(item: Record<string, unknown>): void {
    const id = asString(item.id) ?? `item_${this.printedIds.size}`;
    if (item.type === 'command_execution')
      this.toolUse(id, 'Bash', { command: unwrapShellCommand(asString(item.command) ?? '') });
    else if (item.type === 'mcp_tool_call')
      this.toolUse(
        id,
        `mcp__${asString(item.server) ?? 'server'}__${asString(item.tool) ?? 'tool'}`,
        isObject(item.arguments) ? item.arguments : {},
      );
  }

  private completed(item: Record<string, unknown>): void {
    const id = asString(item.id) ?? `item_${this.printedIds.size}`;
    switch (item.type) {
      case 'agent_message': {
        const text = asString(item.text) ?? '';
        if (text) this.sink.text(text);
        this.finalText += text;
        break;
      }
      case 'reasoning':
        if (asString(item.text)) this.sink.thinking(item.text as string);
        break;
      case 'command_execution': {
        const printed =
          this.printedIds.get(id) ??
          this.toolUse(id, 'Bash', { command: unwrapShellCommand(asString(item.command) ?? '') });
        const exitCode = asNumber(item.exit_code);
        const failed =
          item.status === 'failed' || item.status === 'declined' || (exitCode !== undefined && exitCode !== 0);
        const output = asString(item.aggregated_output) ?? '';
        const suffix = failed
          ? `${output && !output.endsWith('\n') ? '\n' : ''}Exit code ${exitCode ?? 'unknown'}${item.status === 'declined' ? ' (declined)' : ''}`
          : '';
        this.sink.toolResult({ toolUseId: printed, content: output + suffix || '(no output)', isError: failed });
        break;
      }
      case 'file_change':
        this.fileChange(id, item);
        break;
      case 'mcp_tool_call': {
        const printed =
          this.printedIds.get(id) ??
          this.toolUse(
            id,
            `mcp__${asString(item.server) ?? 'server'}__${asString(item.tool) ?? 'tool'}`,
            isObject(item.arguments) ? item.arguments : {},
          );
        const error = isObject(item.error) ? asString(item.error.message) : undefined;
        const blocks = isObject(item.result) && Array.isArray(item.result.content) ? item.result.content : [];
        const text = blocks
          .map((block) => (isObject(block) ? (asString(block.text) ?? JSON.stringify(block)) : String(block)))
          .join('\n');
        this.sink.toolResult({
          toolUseId: printed,
          content: error ?? (text || '(no output)'),
          isError: item.status === 'failed' || error !== undefined,
        });
        break;
      }
      case 'web_search': {
        const printed = this.toolUse(id, 'WebSearch', { query: asString(item.query) ?? '' });
        this.sink.toolResult({
          toolUseId: printed,
          content: `searched the web for ${JSON.stringify(asString(item.query) ?? '')}`,
          isError: false,
        });
        break;
      }
      case 'error':
        // A warning item (e.g. unknown model metadata); the turn goes on.
        this.log(`codex-cli: ${asString(item.message) ?? 'warning'}`);
        break;
      default:
        break;
    }
  }

  /** One Write (or, for a deletion, a Bash `rm`) per changed path; codex prints no patch content. */
  private fileChange(id: string, item: Record<string, unknown>): void {
    const changes = Array.isArray(item.changes) ? item.changes.filter(isObject) : [];
    const failed = item.status === 'failed';
    changes.forEach((change, index) => {
      const file = asString(change.path) ?? '';
      const absolute = resolvePath(this.cwd, file);
      const kind = asString(change.kind) ?? 'update';
      const cliId = changes.length > 1 ? `${id}_${index}` : id;
      if (kind === 'delete') {
        const printed = this.toolUse(cliId, 'Bash', {
          command: `rm -- ${JSON.stringify(file)}`,
          description: 'codex apply_patch deleted the file',
        });
        this.sink.toolResult({
          toolUseId: printed,
          content: failed ? `codex could not delete ${file}` : `deleted ${file}`,
          isError: failed,
        });
        return;
      }
      // codex prints no patch content: show what the file holds now (unchanged when the patch failed).
      const content = currentContent(absolute);
      const printed = this.toolUse(cliId, 'Write', { file_path: file, content: content ?? '' });
      const verb = kind === 'add' ? 'created' : 'updated';
      this.sink.toolResult({
        toolUseId: printed,
        content: failed ? `codex could not apply the patch to ${file}` : `codex ${verb} ${file}`,
        isError: failed,
      });
    });
  }
}

export const CODEX_CLI: CliDefinition = {
  id: 'codex-cli',
  binary: 'codex',
  installHint: 'Install it with `npm install -g @openai/codex` and sign in, or use --provider codex (REST).',
  tools: CODEX_CLI_TOOLS,
  buildArgs: codexArgs,
  createTranslator: (sink, context) => new CodexTranslator(sink, context.log, context.cwd, context.previousTotals),
};
