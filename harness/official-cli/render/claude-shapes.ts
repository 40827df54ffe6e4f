// The full line shapes Claude Code 2.1 prints in stream-json mode (as in captures/claude/*), kept apart from
// the rendering logic. Field sets matter: test/official-cli compares them with the captures key by key.
import { CLAUDE_VERSION } from '../args/claude-args.js';
import type { ClaudeBilled } from './claude-session.js';

export interface ClaudeTotals {
  input: number;
  output: number;
  cached: number;
}

const SUBAGENT_STATS = {
  spawned: 0,
  requested: { background: 0, foreground: 0, unset: 0 },
  started_in_background: 0,
  max_depth: 0,
  spawned_by_subagents: 0,
  completed: 0,
  failed: 0,
  killed: { parent: 0, user: 0, system: 0 },
  refused: { depth_limit: 0, concurrency_limit: 0, budget: 0 },
  by_type: {},
};

export function claudeInitLine(fields: {
  cwd: string;
  model: string;
  permissionMode: string;
  tools: string[];
  home: string;
}): Record<string, unknown> {
  const project = fields.cwd.replace(/[^A-Za-z0-9]/g, '-');
  return {
    type: 'system',
    subtype: 'init',
    cwd: fields.cwd,
    tools: fields.tools,
    mcp_servers: [],
    model: fields.model,
    permissionMode: fields.permissionMode,
    slash_commands: ['compact', 'context', 'cost', 'init', 'review'],
    terminal_slash_commands: ['doctor'],
    apiKeySource: process.env.ANTHROPIC_API_KEY ? 'ANTHROPIC_API_KEY' : 'none',
    claude_code_version: CLAUDE_VERSION,
    output_style: 'default',
    agents: ['general-purpose'],
    skills: ['review'],
    plugins: [{ name: 'fake-plugin', path: 'builtin', source: 'fake-plugin@builtin' }],
    capabilities: ['interrupt_receipt_v1'],
    analytics_disabled: true,
    product_feedback_disabled: true,
    served_by_anthropic: false,
    sandbox_enabled: false,
    memory_paths: { auto: `${fields.home}/.claude/projects/${project}/memory/` },
    original_cwd: fields.cwd,
    additional_directories: [],
    messaging_socket_path: `/tmp/cc-socks/${process.pid}.sock`,
    fast_mode_state: 'off',
    fast_mode_disabled_reason: 'sdk_opt_in_required',
    per_turn_effort_active: false,
    ultrathink_available: false,
    ultrathink_typed_raises: false,
    view_mode: 'default',
  };
}

/** A message's usage as the Messages API's `message_start` gives it (the suite's mock names its service tier). */
export function claudeMessageUsage(input: number, cached: number, output: number): Record<string, number | string> {
  return {
    input_tokens: input,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    output_tokens: output,
    service_tier: 'standard',
  };
}

export function claudeAssistantLine(
  model: string,
  messageId: string,
  content: unknown[],
  usage: Record<string, number | string>,
): Record<string, unknown> {
  return {
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
  };
}

/** The usage of a message claude makes up itself (`model: "<synthetic>"`): nothing was called. */
export const SYNTHETIC_USAGE = {
  output_tokens_details: null,
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
  service_tier: null,
  cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
  inference_geo: null,
  iterations: null,
  speed: null,
  fallback_credit: null,
};

/** An API error as claude reports it: the message text, `error`, `api_error_status` and `api_error_type`. */
export interface ClaudeApiError {
  text: string;
  error: string;
  status: number | null;
  type: string;
  /** The result's `terminal_reason` when it is not `api_error`. */
  terminalReason?: string;
}

/** The assistant message claude makes up to carry an API error. */
export function claudeSyntheticErrorLine(
  messageId: string,
  { text, error, status, type: errorType }: ClaudeApiError,
): Record<string, unknown> {
  return {
    type: 'assistant',
    message: {
      diagnostics: null,
      id: messageId,
      container: null,
      model: '<synthetic>',
      role: 'assistant',
      stop_details: null,
      stop_reason: 'stop_sequence',
      stop_sequence: '',
      type: 'message',
      usage: SYNTHETIC_USAGE,
      content: [{ type: 'text', text }],
      context_management: null,
    },
    parent_tool_use_id: null,
    timestamp: new Date().toISOString(),
    error,
    is_api_error_message: true,
    api_error_status: status,
    api_error_type: errorType,
  };
}

function modelUsageEntry(model: string, billed: ClaudeBilled): Record<string, unknown> {
  return {
    inputTokens: billed.input,
    outputTokens: billed.output,
    cacheReadInputTokens: billed.cached,
    cacheCreationInputTokens: 0,
    webSearchRequests: 0,
    costUSD: billed.costUsd,
    contextWindow: 200000,
    maxOutputTokens: 32000,
    thinkingTokens: 0,
    cacheCreationEphemeral5mInputTokens: 0,
    cacheCreationEphemeral1hInputTokens: 0,
    canonicalModel: model,
    provider: 'firstParty',
    costBasis: 'list',
  };
}

/**
 * How a run ends. `local-command`: `/compact` ran as claude's own command (7-compact, and 10-compact-empty where
 * there was nothing to compact); `terminalReason` of an API error: `prompt_too_long` after a context overflow.
 */
export type ClaudeEnding =
  | { kind: 'success'; text: string; numTurns: number }
  | { kind: 'api-error'; text: string; status: number | null; errorType: string; terminalReason?: string }
  | { kind: 'interrupted'; numTurns: number; tools: boolean }
  | { kind: 'local-command' };

/** What a result line counts: the calls since a compaction (`usage`), this run's calls, the session's. */
export interface ClaudeResultCounts {
  totals: ClaudeTotals;
  /** This run's calls, a call cut short by an interrupt and the summary calls included (model_usage_since_last_result). */
  billed: ClaudeBilled;
  /** The session's calls so far (modelUsage and total_cost_usd of a resumed session count them all). */
  session: ClaudeBilled;
  durationMs: number;
  permissionDenials: unknown[];
}

const byModel = (model: string, billed: ClaudeBilled) =>
  billed.input + billed.output > 0 ? { [model]: modelUsageEntry(model, billed) } : {};

/** A result's `usage`: the calls it counts, with the fields claude always prints. */
function resultUsage(totals: ClaudeTotals): Record<string, unknown> {
  return {
    input_tokens: totals.input,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: totals.cached,
    output_tokens: totals.output,
    output_tokens_details: { thinking_tokens: 0 },
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: 'standard',
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
    inference_geo: '',
    iterations: [],
    speed: 'standard',
    fallback_credit: null,
  };
}

/** The fields a result line has for its ending. */
function endingFields(ending: ClaudeEnding, durationMs: number): Record<string, unknown> {
  switch (ending.kind) {
    case 'local-command':
      return {
        subtype: 'success',
        is_error: false,
        num_turns: 0,
        stop_reason: null,
        result: '',
        local_command: 'compact',
      };
    case 'success':
      return {
        subtype: 'success',
        is_error: false,
        num_turns: ending.numTurns,
        stop_reason: 'end_turn',
        terminal_reason: 'completed',
        api_error_status: null,
        result: ending.text,
        ttft_ms: durationMs,
        ttft_stream_ms: durationMs,
        time_to_request_ms: 0,
        first_content_frame_ms: durationMs,
      };
    case 'api-error':
      return {
        subtype: 'success', // sic: claude keeps "success" and sets is_error
        is_error: true,
        num_turns: 1,
        stop_reason: 'stop_sequence',
        terminal_reason: ending.terminalReason ?? 'api_error',
        api_error_status: ending.status,
        api_error_type: ending.errorType,
        result: ending.text,
      };
    case 'interrupted':
      return {
        subtype: 'error_during_execution',
        is_error: true,
        num_turns: ending.numTurns,
        stop_reason: null,
        terminal_reason: ending.tools ? 'aborted_tools' : 'aborted_streaming',
        errors: ['[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null'],
      };
  }
}

/** The result line. */
export function claudeResultLine(
  model: string,
  ending: ClaudeEnding,
  { totals, billed, session, durationMs, permissionDenials }: ClaudeResultCounts,
): Record<string, unknown> {
  return {
    type: 'result',
    duration_ms: durationMs,
    duration_api_ms: ending.kind === 'success' ? durationMs : 0,
    total_cost_usd: session.costUsd,
    usage: resultUsage(totals),
    modelUsage: byModel(model, session),
    permission_denials: permissionDenials,
    fast_mode_state: 'off',
    fast_mode_disabled_reason: 'sdk_opt_in_required',
    subagent_stats: SUBAGENT_STATS,
    safety_stops: 0,
    queued_turn_count: 0,
    result_index: 0,
    model_usage_since_last_result: byModel(model, billed),
    ...endingFields(ending, durationMs),
  };
}
