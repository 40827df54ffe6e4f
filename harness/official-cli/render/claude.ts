// The fake `claude -p --output-format stream-json --verbose` (Claude Code 2.1): `system` init, one
// `assistant` envelope per content block (whole blocks, no deltas), one `user` envelope per tool result,
// `system` `api_retry` per retry, then `result`. HTTP errors: a synthetic assistant "API Error" message
// and a result with subtype success but is_error true, exit 1. SIGINT: the partial text flushed with
// `aborted: true`, "[Request interrupted by user]", an error_during_execution result, exit 0.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { providerToolCallId } from '../../mock/scenario/tool-call-ids.js';
import type { Invocation } from '../args/invocation.js';
import type { CliRuntime } from '../runtime.js';
import {
  addUsage,
  dripGapMs,
  httpErrorMessage,
  type ModelFailure,
  ScriptCursor,
  type UsageTotals,
  usageOf,
} from '../script-playback.js';
import type { ScriptToolCall } from '../script-types.js';
import { claudeToolInput } from '../tool-mapping.js';
import type { ToolOutcome } from '../workspace-tools.js';
import {
  type ClaudeEnding,
  claudeAssistantLine,
  claudeInitLine,
  claudeMessageUsage,
  claudeResultLine,
  claudeSyntheticErrorLine,
} from './claude-shapes.js';

export const CLAUDE_DEFAULT_MODEL = 'claude-sonnet-4-5';
/** CLAUDE_CODE_MAX_RETRIES=1 in the captures: two requests. */
const MAX_ATTEMPTS = 2;
const INIT_TOOLS = [
  'Task',
  'Bash',
  'Edit',
  'Glob',
  'Grep',
  'NotebookEdit',
  'Read',
  'TodoWrite',
  'ToolSearch',
  'WebFetch',
  'WebSearch',
  'Write',
];
const READ_ONLY_TOOLS = new Set(['Read', 'Glob', 'Grep', 'LS']);

function apiError(failure: ModelFailure): { text: string; error: string; status: number | null; type: string } {
  if (failure.kind !== 'http')
    return { text: 'API Error: Connection error.', error: 'unknown', status: null, type: 'connection_error' };
  const status = failure.status;
  if (status === 429)
    return {
      text: `API Error: Request rejected (429) · ${httpErrorMessage(429)}`,
      error: 'rate_limit',
      status,
      type: 'rate_limit_error',
    };
  if (status === 401 || status === 403) {
    return {
      text: `API Error: ${status} ${httpErrorMessage(status)} · Please run /login`,
      error: 'authentication_failed',
      status,
      type: 'authentication_error',
    };
  }
  if (status >= 500) {
    return {
      text: `API Error: ${status} ${httpErrorMessage(status)}. This is a server-side issue, usually temporary — try again in a moment. If it persists, check your inference gateway (${gatewayHost()}).`,
      error: 'server_error',
      status,
      type: 'api_error',
    };
  }
  return {
    text: `API Error: ${status} ${httpErrorMessage(status)}`,
    error: 'invalid_request',
    status,
    type: 'invalid_request_error',
  };
}

/** The host claude names in server-error messages: the configured base URL's. */
function gatewayHost(): string {
  try {
    return new URL(process.env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com').host;
  } catch {
    return 'api.anthropic.com';
  }
}

export interface ClaudeRunOptions {
  sessionId: string;
  stdinText: string;
}

export async function runClaude(
  runtime: CliRuntime,
  invocation: Invocation,
  options: ClaudeRunOptions,
): Promise<never> {
  const started = Date.now();
  const model = invocation.model ?? CLAUDE_DEFAULT_MODEL;
  const { sessionId } = options;
  const format = (invocation.flags['output-format'] as string | undefined) ?? 'text';
  const prompt = invocation.prompt ?? options.stdinText.trim();
  if (prompt === '') {
    runtime.stderr('Error: Input must be provided either through stdin or as a prompt argument when using --print\n');
    return runtime.exit(1);
  }
  runtime.log({ event: 'prompt', prompt, source: invocation.prompt !== undefined ? 'argv' : 'stdin' });

  const totals: UsageTotals = { input: 0, output: 0, cached: 0 };
  const permissionDenials: Array<Record<string, unknown>> = [];
  /** claude counts user messages as turns: the prompt, each tool result, and an interruption. */
  let numTurns = 1;
  let lastText = '';
  /** The message being streamed when a stall holds it: flushed with `aborted: true` on SIGINT. */
  let partial: { id: string; text: string; input: number } | undefined;
  let runningTool: string | undefined;

  const emit = (line: Record<string, unknown>) => {
    const stamped = { ...line, session_id: sessionId, uuid: randomUUID() };
    if (format === 'stream-json') runtime.line(stamped);
  };
  const finish = (ending: ClaudeEnding, billed: UsageTotals = totals) => {
    const line: Record<string, unknown> = {
      ...claudeResultLine(model, ending, totals, billed, Date.now() - started, permissionDenials),
      session_id: sessionId,
      uuid: randomUUID(),
    };
    if (format === 'stream-json' || format === 'json') runtime.line(line);
    else if (typeof line.result === 'string') process.stdout.write(`${line.result}\n`);
  };

  runtime.onInterrupt(() => {
    if (partial)
      emit({
        ...claudeAssistantLine(
          model,
          partial.id,
          [{ type: 'text', text: partial.text }],
          claudeMessageUsage(partial.input, 0, 1),
        ),
        aborted: true,
      });
    if (runningTool)
      emit(
        toolResultLine(
          runningTool,
          { isError: true, output: '[Request interrupted by user for tool use]', failure: 'interrupted' },
          runtime.workspace,
          'Bash',
          {},
        ),
      );
    emit({
      type: 'user',
      message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] },
      parent_tool_use_id: null,
      timestamp: new Date().toISOString(),
    });
    // The interrupted call is billed (modelUsage) though its usage never completed.
    const billed = partial
      ? { ...totals, input: totals.input + partial.input, output: totals.output + partial.text.length }
      : totals;
    finish({ kind: 'interrupted', numTurns: numTurns + 1, tools: runningTool !== undefined }, billed);
    void runtime.exit(0);
  });

  const permissionMode = String(invocation.flags.permissionMode ?? 'default');
  emit(claudeInitLine({ cwd: runtime.workspace, model, permissionMode, tools: INIT_TOOLS, home: os.homedir() }));

  const failWith = (failure: ModelFailure): Promise<never> => {
    const described = apiError(failure);
    emit(claudeSyntheticErrorLine(randomUUID(), described.text, described.error, described.status, described.type));
    finish({ kind: 'api-error', text: described.text, status: described.status, errorType: described.type });
    if (format !== 'stream-json' && format !== 'json') runtime.stderr(`${described.text}\n`);
    return runtime.exit(1);
  };

  const cursor = new ScriptCursor(runtime.turn.responses);
  for (;;) {
    const call = cursor.call(MAX_ATTEMPTS);
    call.retried.forEach((failure, index) => {
      const described = apiError(failure);
      emit({
        type: 'system',
        subtype: 'api_retry',
        attempt: index + 1,
        max_retries: MAX_ATTEMPTS - 1,
        retry_delay_ms: 600,
        error_status: described.status,
        error: described.error,
      });
    });
    if (call.kind === 'failed') return failWith(call.failure);
    const response = call.response;
    const reported = usageOf(response);
    const messageId = `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    const usage = claudeMessageUsage(reported.input_tokens, reported.cache_read_input_tokens ?? 0, 1);
    if (response.thinking && response.thinking.length > 0) {
      emit(
        claudeAssistantLine(
          model,
          messageId,
          [{ type: 'thinking', thinking: response.thinking.join(''), signature: '' }],
          usage,
        ),
      );
    }
    const chunks = response.text ?? [];
    if (response.stall === 'after-first-text') {
      partial = { id: messageId, text: chunks[0] ?? '', input: reported.input_tokens };
      await runtime.stall();
      partial = undefined;
      return failWith({ kind: 'cut', response });
    }
    const gap = dripGapMs(response);
    if (gap > 0 && chunks.length > 1) await runtime.sleep(gap * (chunks.length - 1));
    if (chunks.length > 0) {
      lastText = chunks.join('');
      emit(claudeAssistantLine(model, messageId, [{ type: 'text', text: lastText }], usage));
    }
    addUsage(totals, reported);
    const calls = response.toolCalls ?? [];
    if (calls.length === 0) break;
    const inputs = calls.map((scripted) =>
      claudeToolInput(scripted.name, runtime.inputOf(scripted), runtime.workspace),
    );
    // claude prints the ids the Messages API issued (the mock's, derived from the script ids).
    const ids = calls.map(
      (scripted) => providerToolCallId('anthropic', runtime.state.scenario.id, scripted.id) ?? scripted.id,
    );
    calls.forEach((scripted, index) => {
      emit(
        claudeAssistantLine(
          model,
          messageId,
          [{ type: 'tool_use', id: ids[index], name: scripted.name, input: inputs[index] }],
          usage,
        ),
      );
    });
    for (const [index, scripted] of calls.entries()) {
      const id = ids[index]!;
      const denied = deniedReason(invocation, scripted);
      if (denied) permissionDenials.push({ tool_name: scripted.name, tool_use_id: id, tool_input: inputs[index] });
      runningTool = id;
      const outcome = await runtime.runTool({ ...scripted, input: inputs[index] }, id, denied);
      runningTool = undefined;
      numTurns += 1;
      emit(toolResultLine(id, outcome, runtime.workspace, scripted.name, inputs[index]!));
    }
  }
  finish({ kind: 'success', text: lastText, numTurns });
  return runtime.exit(0);
}

/** Read-only tools always run; the rest need bypass, acceptEdits (edits) or --allowedTools. */
function deniedReason(invocation: Invocation, call: ScriptToolCall): string | undefined {
  if (READ_ONLY_TOOLS.has(call.name) || invocation.autoApprove) return undefined;
  const allowed = invocation.allowedTools.some((entry) => entry === call.name || entry.startsWith(`${call.name}(`));
  if (allowed && !invocation.readOnly) return undefined;
  return `Claude requested permissions to use ${call.name}, but you haven't granted it yet.`;
}

function catN(content: string): string {
  return content
    .split('\n')
    .map((line, index) => `${index + 1}\t${line}`)
    .join('\n');
}

/** The `user` envelope claude prints for one tool result, with its `tool_use_result` detail. */
function toolResultLine(
  id: string,
  outcome: ToolOutcome,
  workspace: string,
  name: string,
  input: Record<string, unknown>,
): Record<string, unknown> {
  let content: string;
  let detail: unknown;
  if (outcome.isError) {
    if (outcome.failure === 'not-found' && name === 'Read')
      content = `File does not exist. Note: your current working directory is ${workspace}.`;
    else if (outcome.failure === 'exit-code')
      content = `Exit code ${outcome.exitCode}\n${outcome.output.replace(/\n+$/, '')}`;
    else if (outcome.failure === 'denied' || outcome.failure === 'interrupted') content = outcome.output;
    else content = `<tool_use_error>${outcome.output}</tool_use_error>`;
    detail = `Error: ${content}`;
  } else if (name === 'Read') {
    content = catN(outcome.output);
    const lines = outcome.output.split('\n').length;
    detail = {
      type: 'text',
      file: {
        filePath: outcome.absolutePath,
        content: outcome.output,
        numLines: lines,
        startLine: 1,
        totalLines: lines,
      },
    };
  } else if (name === 'Bash') {
    content = outcome.output.replace(/\n+$/, '');
    detail = { stdout: content, stderr: '', interrupted: false, isImage: false, noOutputExpected: false };
  } else if (name === 'Write') {
    content = outcome.created
      ? `File created successfully at: ${outcome.absolutePath}`
      : `The file ${outcome.absolutePath} has been updated successfully.`;
    detail = {
      type: outcome.created ? 'create' : 'update',
      filePath: outcome.absolutePath,
      content: input.content,
      structuredPatch: [],
    };
  } else if (name === 'Edit') {
    content = `The file ${outcome.absolutePath} has been updated successfully.`;
    detail = {
      filePath: outcome.absolutePath,
      oldString: input.old_string,
      newString: input.new_string,
      structuredPatch: [],
      userModified: false,
      replaceAll: input.replace_all === true,
    };
  } else {
    content = outcome.output === '' ? 'No files found' : outcome.output;
    detail = { output: content };
  }
  const block: Record<string, unknown> = { tool_use_id: id, type: 'tool_result', content };
  if (outcome.isError || name === 'Bash') block.is_error = outcome.isError;
  return {
    type: 'user',
    message: { role: 'user', content: [block] },
    parent_tool_use_id: null,
    timestamp: new Date().toISOString(),
    tool_use_result: detail,
    tool_result_meta: [
      {
        id,
        permission_decision: {
          decision: outcome.failure === 'denied' ? 'deny' : 'accept',
          source: 'config',
          reason_type: 'mode',
        },
      },
    ],
  };
}

export function newClaudeSessionId(): string {
  return randomUUID();
}
