// --provider copilot-cli (and its older name `copilot`): runs `copilot --prompt=<prompt> --output-format=json
// --session-id=<uuid> ...` and translates its JSONL events (GitHub Copilot CLI 1.0.102). Text arrives as deltas;
// each `assistant.message` names its tool calls, under copilot's own names (view, create, edit, bash with absolute
// paths), printed here under the app's (Read, Write, Edit, Bash); `tool.execution_complete` is the result (a shell
// command is an error when its exit code is, though copilot calls it a success). Token counts are never on stdout:
// copilot writes them, as the session's running total, to --usage-output-file, which is read when its `result`
// line comes. The shim picks the session's UUID itself, so a turn that ends without a result line (an interrupt,
// a kill) still leaves a session the next turn continues. copilot goes without --allow-all-tools when the shim may
// not change files: it then runs reads and read-only commands and refuses writes, which the turn reports.
import { readFileSync } from 'node:fs';
import type { TurnSink } from '../provider.js';
import type { ArgsInput, CliDefinition, CliTranslator, CliUsageTotals, TranslatorContext } from './cli-provider.js';
import {
  allowsChanges,
  asNumber,
  asString,
  errorFromStatus,
  isObject,
  reportUsageSince,
  statusInMessage,
} from './errors.js';

export const COPILOT_CLI_TOOLS = [
  'Bash',
  'Read',
  'Write',
  'Edit',
  'Glob',
  'Grep',
  'Task',
  'read_bash',
  'stop_bash',
  'list_bash',
  'apply_patch',
  'skill',
  'sql',
  'fetch_copilot_cli_documentation',
];

export function copilotArgs(input: ArgsInput): string[] {
  const args = [
    '--output-format=json',
    `--model=${input.model}`,
    `--session-id=${input.sessionId}`,
    `--usage-output-file=${input.workFile}`,
  ];
  if (allowsChanges(input.permissionMode)) args.push('--allow-all-tools');
  // Attached with `=`, the prompt is the option's value whatever it starts with; on stdin it needs no flag.
  if (!input.promptOnStdin) args.push(`--prompt=${input.prompt}`);
  return args;
}

const text = asString;

/** copilot's call as the app's tool: its name and the input fields the app reads. */
export function appToolCall(name: string, args: unknown): { name: string; input: Record<string, unknown> } {
  const input = isObject(args) ? args : typeof args === 'string' ? { patch: args } : {};
  switch (name) {
    case 'view': {
      const range = Array.isArray(input.view_range) ? input.view_range.map(asNumber) : [];
      const [from, to] = range;
      const window = from !== undefined && to !== undefined && to >= from ? { offset: from, limit: to - from + 1 } : {};
      return { name: 'Read', input: { file_path: text(input.path) ?? '', ...window } };
    }
    case 'create':
      return { name: 'Write', input: { file_path: text(input.path) ?? '', content: text(input.file_text) ?? '' } };
    case 'edit':
      return {
        name: 'Edit',
        input: {
          file_path: text(input.path) ?? '',
          old_string: text(input.old_str) ?? '',
          new_string: text(input.new_str) ?? '',
        },
      };
    case 'bash':
      return {
        name: 'Bash',
        input: {
          command: text(input.command) ?? '',
          ...(text(input.description) ? { description: input.description } : {}),
        },
      };
    case 'glob':
      return {
        name: 'Glob',
        input: { pattern: text(input.pattern) ?? '', ...(text(input.paths) ? { path: input.paths } : {}) },
      };
    case 'grep':
    case 'rg':
      return {
        name: 'Grep',
        input: { pattern: text(input.pattern) ?? '', ...(text(input.glob) ? { glob: input.glob } : {}) },
      };
    case 'task':
      return { name: 'Task', input };
    default:
      return { name, input };
  }
}

/** A tool's result as the app gets it: copilot's shell trailer dropped, a failing command's exit code named. */
function toolResultOf(data: Record<string, unknown>): { content: string; isError: boolean } {
  const result = isObject(data.result) ? data.result : {};
  const error = isObject(data.error) ? data.error : undefined;
  const exitCode = isObject(data.shellExecution) ? asNumber(data.shellExecution.exitCode) : undefined;
  if (data.success !== true || error) return { content: text(error?.message) ?? 'the tool failed', isError: true };
  const content = (text(result.content) ?? '').replace(/\n?<shellId: \d+ completed with exit code -?\d+>$/, '');
  if (exitCode !== undefined && exitCode !== 0)
    return {
      content: `${content}${content && !content.endsWith('\n') ? '\n' : ''}Exit code ${exitCode}`,
      isError: true,
    };
  return { content: content || '(no output)', isError: false };
}

/** The session's running token totals in copilot's usage file, or undefined when it wrote none. */
function usageFileTotals(file: string): CliUsageTotals | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  const models = isObject(parsed) && isObject(parsed.modelMetrics) ? Object.values(parsed.modelMetrics) : [];
  const totals: CliUsageTotals = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0 };
  for (const metrics of models) {
    const usage = isObject(metrics) && isObject(metrics.usage) ? metrics.usage : {};
    totals.inputTokens += asNumber(usage.inputTokens) ?? 0;
    totals.outputTokens += asNumber(usage.outputTokens) ?? 0;
    totals.cacheReadTokens += asNumber(usage.cacheReadTokens) ?? 0;
  }
  return totals;
}

class CopilotTranslator implements CliTranslator {
  cliSessionId: string | undefined;
  usageTotals: CliUsageTotals | undefined;
  ending: CliTranslator['ending'];
  private readonly printedIds = new Map<string, string>();
  private readonly streamed = new Set<string>();
  private finalText = '';
  private lastFailure: number | undefined;
  /** copilot retries after a 401; what it met next (the mock's 400) does not change that the key was refused. */
  private authFailure: number | undefined;

  constructor(
    private readonly sink: TurnSink,
    private readonly context: TranslatorContext,
  ) {
    this.cliSessionId = context.sessionId;
  }

  onEvent(event: Record<string, unknown>): void {
    const data = isObject(event.data) ? event.data : {};
    switch (event.type) {
      case 'assistant.message_delta':
        this.delta(data);
        break;
      case 'assistant.reasoning_delta':
        if (text(data.deltaContent)) this.sink.thinking(data.deltaContent as string);
        break;
      case 'assistant.message':
        this.message(data);
        break;
      case 'tool.execution_complete': {
        const printed = this.printedIds.get(text(data.toolCallId) ?? '');
        if (printed) this.sink.toolResult({ toolUseId: printed, ...toolResultOf(data) });
        break;
      }
      case 'model.call_failure':
        this.failure(data);
        break;
      case 'assistant.turn_retry':
        this.sink.retried(
          `copilot retried ${this.lastFailure === undefined ? 'after a broken stream' : `after HTTP ${this.lastFailure}`} (${text(data.reason) ?? 'retry'})`,
        );
        break;
      case 'session.error':
        this.error(data);
        break;
      case 'result':
        this.result(event);
        break;
      default:
        break;
    }
  }

  private delta(data: Record<string, unknown>): void {
    const chunk = text(data.deltaContent);
    if (!chunk) return;
    this.streamed.add(text(data.messageId) ?? '');
    this.sink.text(chunk);
    this.finalText += chunk;
  }

  private message(data: Record<string, unknown>): void {
    // With streaming off, the whole message is the only text copilot prints.
    const content = text(data.content);
    if (content && !this.streamed.has(text(data.messageId) ?? '')) {
      this.sink.text(content);
      this.finalText += content;
    }
    const requests = Array.isArray(data.toolRequests) ? data.toolRequests.filter(isObject) : [];
    for (const request of requests) {
      const cliId = text(request.toolCallId) ?? `copilot_${this.printedIds.size + 1}`;
      const call = appToolCall(text(request.name) ?? 'unknown', request.arguments);
      this.printedIds.set(cliId, this.sink.toolUse({ id: cliId, ...call }));
      this.finalText = '';
    }
  }

  private failure(data: Record<string, unknown>): void {
    this.lastFailure = asNumber(data.statusCode);
    if (this.lastFailure === 401 || this.lastFailure === 403) this.authFailure = this.lastFailure;
  }

  private error(data: Record<string, unknown>): void {
    const message = text(data.message) ?? 'copilot reported an error';
    const status = this.authFailure ?? asNumber(data.statusCode) ?? statusInMessage(message);
    this.ending = { ok: false, error: errorFromStatus(status, `copilot: ${message}`) };
  }

  private result(event: Record<string, unknown>): void {
    this.cliSessionId = text(event.sessionId) ?? this.cliSessionId;
    const totals = usageFileTotals(this.context.workFile);
    if (totals) {
      this.usageTotals = totals;
      reportUsageSince(this.sink, totals, this.context.previousTotals);
    }
    if (this.ending) return;
    const exitCode = asNumber(event.exitCode) ?? 0;
    this.ending =
      exitCode === 0
        ? { ok: true, text: this.finalText }
        : { ok: false, error: errorFromStatus(undefined, `copilot: the turn ended with exit code ${exitCode}`) };
  }
}

export const COPILOT_CLI: CliDefinition = {
  id: 'copilot-cli',
  binary: 'copilot',
  installHint:
    'Install it with `npm install -g @github/copilot` and sign in (or set its COPILOT_PROVIDER_* variables for your own provider).',
  tools: COPILOT_CLI_TOOLS,
  buildArgs: copilotArgs,
  createTranslator: (sink: TurnSink, context: TranslatorContext) => new CopilotTranslator(sink, context),
};
