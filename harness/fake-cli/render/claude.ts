// The fake `claude -p --output-format stream-json --verbose` (Claude Code 2.1): `system` init, one
// `assistant` envelope per content block (whole blocks, no deltas), one `user` envelope per tool result,
// `system` `api_retry` per retry, then `result`. HTTP errors: a synthetic assistant "API Error" message
// and a result with subtype success but is_error true, exit 1. SIGINT: the partial text flushed with
// `aborted: true`, "[Request interrupted by user]", an error_during_execution result, exit 0.
import { randomUUID } from 'node:crypto';
import type { Invocation } from '../args/invocation.js';
import { CLAUDE_VERSION } from '../args/claude-args.js';
import type { CliRuntime } from '../runtime.js';
import { usageOf, addUsage, dripGapMs, httpErrorMessage, ScriptCursor, type ModelFailure, type UsageTotals } from '../script-playback.js';
import type { ScriptToolCall } from '../script-types.js';
import type { ToolOutcome } from '../workspace-tools.js';
import { claudeToolInput } from '../tool-mapping.js';
import { providerToolCallId } from '../../mock/tool-call-ids.js';

export const CLAUDE_DEFAULT_MODEL = 'claude-sonnet-4-5';
/** CLAUDE_CODE_MAX_RETRIES=1 in the captures: two requests. */
const MAX_ATTEMPTS = 2;
const INIT_TOOLS = ['Task', 'Bash', 'Edit', 'Glob', 'Grep', 'NotebookEdit', 'Read', 'TodoWrite', 'ToolSearch', 'WebFetch', 'WebSearch', 'Write'];
const READ_ONLY_TOOLS = new Set(['Read', 'Glob', 'Grep', 'LS']);

function apiErrorText(failure: ModelFailure): { text: string; error: string; status: number | null; type: string } {
  if (failure.kind !== 'http') return { text: 'API Error: Connection error.', error: 'unknown', status: null, type: 'connection_error' };
  const status = failure.status;
  if (status === 429) return { text: `API Error: Request rejected (429) · ${httpErrorMessage(429)}`, error: 'rate_limit', status, type: 'rate_limit_error' };
  if (status === 401 || status === 403) {
    return { text: `API Error: ${status} ${httpErrorMessage(status)} · Please run /login`, error: 'authentication_failed', status, type: 'authentication_error' };
  }
  if (status >= 500) {
    return {
      text: `API Error: ${status} ${httpErrorMessage(status)}. This is a server-side issue, usually temporary — try again in a moment.`,
      error: 'server_error',
      status,
      type: 'api_error',
    };
  }
  return { text: `API Error: ${status} ${httpErrorMessage(status)}`, error: 'invalid_request', status, type: 'invalid_request_error' };
}

function costOf(totals: UsageTotals): number {
  return Math.round((totals.input * 3 + totals.output * 15) * 1e-6 * 1e6) / 1e6; // list price, as claude computes it
}

export interface ClaudeRunOptions {
  sessionId: string;
  stdinText: string;
}

export async function runClaude(runtime: CliRuntime, invocation: Invocation, options: ClaudeRunOptions): Promise<never> {
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
  let modelCalls = 0;
  let lastText = '';
  let partialText: string | undefined;
  let partialMessageId = '';
  let runningTool: { id: string } | undefined;
  const emit = (line: Record<string, unknown>) => {
    if (format === 'stream-json') runtime.line({ ...line, session_id: sessionId, uuid: randomUUID() });
  };
  const envelope = (messageId: string, content: unknown[], usage: Record<string, number>) => ({
    type: 'assistant',
    message: {
      id: messageId,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: null,
      stop_sequence: null,
      usage,
      context_management: null,
    },
    parent_tool_use_id: null,
    timestamp: new Date().toISOString(),
  });
  const result = (fields: Record<string, unknown>) => {
    const usage = {
      input_tokens: totals.input,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: totals.cached,
      output_tokens: totals.output,
      server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
      service_tier: 'standard',
    };
    const line: Record<string, unknown> = {
      type: 'result',
      duration_ms: Date.now() - started,
      duration_api_ms: Date.now() - started,
      num_turns: Math.max(1, modelCalls),
      total_cost_usd: costOf(totals),
      usage,
      modelUsage: totals.input + totals.output > 0 ? { [model]: { inputTokens: totals.input, outputTokens: totals.output, costUSD: costOf(totals) } } : {},
      permission_denials: permissionDenials,
      ...fields,
    };
    if (format === 'stream-json') emit(line);
    else if (format === 'json') runtime.line({ ...line, session_id: sessionId, uuid: randomUUID() });
    else if (typeof line.result === 'string') process.stdout.write(`${line.result}\n`);
  };

  runtime.onInterrupt(() => {
    if (partialText !== undefined) {
      emit({ ...envelope(partialMessageId, [{ type: 'text', text: partialText }], usageLine(totals, 0)), aborted: true });
    }
    if (runningTool) {
      emit(toolResultEnvelope(runningTool.id, { isError: true, output: '[Request interrupted by user for tool use]', failure: 'interrupted' }, runtime.workspace, 'Bash'));
    }
    emit({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] }, parent_tool_use_id: null, timestamp: new Date().toISOString() });
    result({
      subtype: 'error_during_execution',
      is_error: true,
      stop_reason: null,
      terminal_reason: runningTool ? 'aborted_tools' : 'aborted_streaming',
      errors: [],
    });
    void runtime.exit(0);
  });

  emit({
    type: 'system',
    subtype: 'init',
    cwd: runtime.workspace,
    tools: INIT_TOOLS,
    mcp_servers: [],
    model,
    permissionMode: invocation.flags.permissionMode ?? 'default',
    slash_commands: ['compact', 'context', 'cost', 'init', 'review'],
    apiKeySource: process.env.ANTHROPIC_API_KEY ? 'ANTHROPIC_API_KEY' : 'none',
    claude_code_version: CLAUDE_VERSION,
    output_style: 'default',
    agents: ['general-purpose'],
    skills: [],
    plugins: [],
  });

  const cursor = new ScriptCursor(runtime.turn.responses);
  for (;;) {
    const call = cursor.call(MAX_ATTEMPTS);
    call.retried.forEach((failure, index) => {
      const described = apiErrorText(failure);
      emit({ type: 'system', subtype: 'api_retry', attempt: index + 1, max_retries: MAX_ATTEMPTS - 1, retry_delay_ms: 600, error_status: described.status, error: described.error });
    });
    if (call.kind === 'failed') {
      const described = apiErrorText(call.failure);
      emit({
        ...envelope(randomUUID(), [{ type: 'text', text: described.text }], usageLine({ input: 0, output: 0, cached: 0 }, 0)),
        error: described.error,
        is_api_error_message: true,
        api_error_status: described.status,
        api_error_type: described.type,
      });
      result({ subtype: 'success', is_error: true, stop_reason: 'stop_sequence', terminal_reason: 'api_error', api_error_status: described.status, result: described.text });
      if (format !== 'stream-json' && format !== 'json') runtime.stderr(`${described.text}\n`);
      return runtime.exit(1);
    }
    modelCalls += 1;
    const response = call.response;
    const messageId = `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    const reported = usageOf(response);
    const usage = usageLine({ input: reported.input_tokens, output: 0, cached: reported.cache_read_input_tokens ?? 0 }, 1);
    if (response.thinking && response.thinking.length > 0) {
      emit(envelope(messageId, [{ type: 'thinking', thinking: response.thinking.join(''), signature: '' }], usage));
    }
    const chunks = response.text ?? [];
    if (response.stall === 'after-first-text') {
      partialText = chunks[0] ?? '';
      partialMessageId = messageId;
      await runtime.stall();
      partialText = undefined;
      return failConnection();
    }
    const gap = dripGapMs(response);
    if (gap > 0 && chunks.length > 1) await runtime.sleep(gap * (chunks.length - 1));
    if (chunks.length > 0) {
      lastText = chunks.join('');
      emit(envelope(messageId, [{ type: 'text', text: lastText }], usage));
    }
    addUsage(totals, usageOf(response));
    const calls = response.toolCalls ?? [];
    if (calls.length === 0) break;
    const inputs = calls.map((scripted) => claudeToolInput(scripted.name, runtime.inputOf(scripted), runtime.workspace));
    // claude prints the ids the Messages API issued (the mock's, derived from the script ids).
    const ids = calls.map((scripted) => providerToolCallId('anthropic', runtime.state.scenario.id, scripted.id) ?? scripted.id);
    calls.forEach((scripted, index) => {
      emit(envelope(messageId, [{ type: 'tool_use', id: ids[index], name: scripted.name, input: inputs[index] }], usage));
    });
    for (const [index, scripted] of calls.entries()) {
      const denied = deniedReason(invocation, scripted);
      const id = ids[index]!;
      if (denied) permissionDenials.push({ tool_name: scripted.name, tool_use_id: id, tool_input: inputs[index] });
      runningTool = { id };
      const outcome = await runtime.runTool({ ...scripted, input: inputs[index] }, id, denied);
      runningTool = undefined;
      emit(toolResultEnvelope(id, outcome, runtime.workspace, scripted.name, inputs[index]));
    }
  }
  result({ subtype: 'success', is_error: false, stop_reason: 'end_turn', terminal_reason: 'completed', api_error_status: null, result: lastText });
  return runtime.exit(0);

  function failConnection(): Promise<never> {
    const described = apiErrorText({ kind: 'cut', response: { text: [] } });
    emit({ ...envelope(randomUUID(), [{ type: 'text', text: described.text }], usageLine({ input: 0, output: 0, cached: 0 }, 0)), error: described.error, is_api_error_message: true });
    result({ subtype: 'success', is_error: true, stop_reason: 'stop_sequence', terminal_reason: 'api_error', api_error_status: null, result: described.text });
    return runtime.exit(1);
  }
}

function usageLine(totals: UsageTotals, output: number): Record<string, number> {
  return { input_tokens: totals.input, cache_creation_input_tokens: 0, cache_read_input_tokens: totals.cached, output_tokens: output };
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
function toolResultEnvelope(
  id: string,
  outcome: ToolOutcome,
  workspace: string,
  name: string,
  input: Record<string, unknown> = {},
): Record<string, unknown> {
  let content: string;
  let detail: unknown;
  if (outcome.isError) {
    if (outcome.failure === 'not-found' && name === 'Read') content = `File does not exist. Note: your current working directory is ${workspace}.`;
    else if (outcome.failure === 'exit-code') content = `Exit code ${outcome.exitCode}\n${outcome.output.replace(/\n+$/, '')}`;
    else if (outcome.failure === 'denied' || outcome.failure === 'interrupted') content = outcome.output;
    else content = `<tool_use_error>${outcome.output}</tool_use_error>`;
    detail = `Error: ${content}`;
  } else if (name === 'Read') {
    content = catN(outcome.output);
    const lines = outcome.output.split('\n').length;
    detail = { type: 'text', file: { filePath: outcome.absolutePath, content: outcome.output, numLines: lines, startLine: 1, totalLines: lines } };
  } else if (name === 'Bash') {
    content = outcome.output.replace(/\n+$/, '');
    detail = { stdout: content, stderr: '', interrupted: false, isImage: false, noOutputExpected: false };
  } else if (name === 'Write') {
    content = outcome.created ? `File created successfully at: ${outcome.absolutePath}` : `The file ${outcome.absolutePath} has been updated successfully.`;
    detail = { type: outcome.created ? 'create' : 'update', filePath: outcome.absolutePath, content: input.content, structuredPatch: [] };
  } else if (name === 'Edit') {
    content = `The file ${outcome.absolutePath} has been updated successfully.`;
    detail = { filePath: outcome.absolutePath, oldString: input.old_string, newString: input.new_string, structuredPatch: [], userModified: false, replaceAll: input.replace_all === true };
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
  };
}

export function newClaudeSessionId(): string {
  return randomUUID();
}
