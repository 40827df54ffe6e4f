// The fake `claude -p --output-format stream-json --verbose` (Claude Code 2.1): `system` init, one
// `assistant` envelope per content block (whole blocks, no deltas), one `user` envelope per tool result,
// `system` `api_retry` per retry, then `result`. HTTP errors: a synthetic assistant "API Error" message
// and a result with subtype success but is_error true, exit 1. SIGINT: the partial text flushed with
// `aborted: true`, "[Request interrupted by user]", an error_during_execution result, exit 0. `/compact` and a
// context overflow: claude compacts the session itself (render/claude-compaction.ts).
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { isCompactPrompt } from '../../../common/compact-command.js';
import { providerToolCallId } from '../../mock/scenario/tool-call-ids.js';
import type { Invocation } from '../args/invocation.js';
import type { CliRuntime } from '../runtime.js';
import { addUsage, dripGapMs, type ModelFailure, ScriptCursor, type UsageTotals, usageOf } from '../script-playback.js';
import type { ScriptResponse, ScriptToolCall } from '../script-types.js';
import { claudeToolInput } from '../tool-mapping.js';
import { compactResultLine } from './claude-compact-lines.js';
import { ABORTED_COMPACTION, type CompactingRun, compactOnCommand, compactOnOverflow } from './claude-compaction.js';
import { claudeApiError } from './claude-errors.js';
import { billCall, type ClaudeBilled, type ClaudeSessionPast, noBilling } from './claude-session.js';
import {
  type ClaudeEnding,
  claudeAssistantLine,
  claudeInitLine,
  claudeMessageUsage,
  claudeResultLine,
  claudeSyntheticErrorLine,
} from './claude-shapes.js';
import { claudeToolResultLine } from './claude-tool-result.js';

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

export interface ClaudeRunOptions {
  sessionId: string;
  stdinText: string;
  /** What the resumed session already holds (a new session holds nothing). */
  past?: ClaudeSessionPast;
}

const NEW_SESSION: ClaudeSessionPast = {
  billed: noBilling(),
  lastCallTokens: undefined,
  conversation: false,
  toolsUsed: [],
};

/** One model message as claude prints it: its id and the usage every envelope of it repeats. */
interface ClaudeMessage {
  id: string;
  usage: Record<string, number | string>;
}

/** One `claude -p` run: what it has counted so far and the lines it prints, step by step. */
class ClaudeRun implements CompactingRun {
  private readonly started = Date.now();
  private readonly model: string;
  private readonly format: string;
  /** What `usage` reports: the calls completed since the run began, or since it compacted the session. */
  private totals: UsageTotals = { input: 0, output: 0, cached: 0 };
  /** Every call of this run, summary calls and a call cut short included. */
  private readonly billed: ClaudeBilled = noBilling();
  /** Every call of the session so far. */
  private readonly session: ClaudeBilled;
  lastCallTokens: number | undefined;
  private requests = 0;
  private compactingOnCommand = false;
  private readonly permissionDenials: Array<Record<string, unknown>> = [];
  /** claude counts user messages as turns: the prompt, each tool result, and an interruption. */
  private numTurns = 1;
  private lastText = '';
  /**
   * The message being streamed when a stall holds it: flushed with `aborted: true` on SIGINT, unless it is a
   * summary (`shown` false), which claude never prints.
   */
  private partial: { id: string; text: string; input: number; shown: boolean } | undefined;
  private runningTool: string | undefined;

  constructor(
    private readonly runtime: CliRuntime,
    private readonly invocation: Invocation,
    readonly sessionId: string,
    readonly past: ClaudeSessionPast,
  ) {
    this.model = invocation.model ?? CLAUDE_DEFAULT_MODEL;
    this.format = (invocation.flags['output-format'] as string | undefined) ?? 'text';
    this.session = { ...past.billed };
    this.lastCallTokens = past.lastCallTokens;
  }

  get workspace(): string {
    return this.runtime.workspace;
  }

  get conversation(): boolean {
    return this.past.conversation || this.requests > 0;
  }

  emit(line: Record<string, unknown>): void {
    const stamped = {
      ...line,
      session_id: this.sessionId,
      uuid: typeof line.uuid === 'string' ? line.uuid : randomUUID(),
    };
    if (this.format === 'stream-json') this.runtime.line(stamped);
  }

  private bill(usage: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number }): void {
    this.requests += 1;
    billCall(this.billed, usage);
    billCall(this.session, usage);
  }

  /** Ends the process, noting for later runs what the session now holds. */
  private close(code: number): Promise<never> {
    this.runtime.noteSession({
      billed: this.session,
      ...(this.lastCallTokens === undefined ? {} : { lastCallTokens: this.lastCallTokens }),
      conversation: this.conversation,
    });
    return this.runtime.exit(code);
  }

  private finish(ending: ClaudeEnding): void {
    const line: Record<string, unknown> = {
      ...claudeResultLine(this.model, ending, {
        totals: this.totals,
        billed: this.billed,
        session: this.session,
        durationMs: Date.now() - this.started,
        permissionDenials: this.permissionDenials,
      }),
      session_id: this.sessionId,
      uuid: randomUUID(),
    };
    if (this.format === 'stream-json' || this.format === 'json') this.runtime.line(line);
    else if (typeof line.result === 'string') process.stdout.write(`${line.result}\n`);
  }

  init(): void {
    const permissionMode = String(this.invocation.flags.permissionMode ?? 'default');
    const { runtime, model } = this;
    this.emit(claudeInitLine({ cwd: runtime.workspace, model, permissionMode, tools: INIT_TOOLS, home: os.homedir() }));
  }

  /**
   * SIGINT: the partial message, the tool cut short, "[Request interrupted by user]", then the result; exit 0. A
   * `/compact` waiting for its summary prints only its failed status line (9-compact-interrupted).
   */
  interrupt(): void {
    const { partial, runningTool } = this;
    // The interrupted call is billed (modelUsage) though its usage never completed.
    if (partial) this.bill({ input_tokens: partial.input, output_tokens: partial.text.length });
    if (this.compactingOnCommand) {
      this.emit(compactResultLine(ABORTED_COMPACTION));
      void this.close(0);
      return;
    }
    if (partial?.shown)
      this.emit({
        ...claudeAssistantLine(
          this.model,
          partial.id,
          [{ type: 'text', text: partial.text }],
          claudeMessageUsage(partial.input, 0, 1),
        ),
        aborted: true,
      });
    if (runningTool)
      this.emit(
        claudeToolResultLine(
          runningTool,
          { isError: true, output: '[Request interrupted by user for tool use]', failure: 'interrupted' },
          { workspace: this.runtime.workspace, name: 'Bash', input: {} },
        ),
      );
    this.emit({
      type: 'user',
      message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] },
      parent_tool_use_id: null,
      timestamp: new Date().toISOString(),
    });
    this.finish({ kind: 'interrupted', numTurns: this.numTurns + 1, tools: runningTool !== undefined });
    void this.close(0);
  }

  /** A `system` `api_retry` line per failed attempt that was retried. */
  reportRetries(retried: readonly ModelFailure[]): void {
    retried.forEach((failure, index) => {
      const described = claudeApiError(failure);
      this.emit({
        type: 'system',
        subtype: 'api_retry',
        attempt: index + 1,
        max_retries: MAX_ATTEMPTS - 1,
        retry_delay_ms: 600,
        error_status: described.status,
        error: described.error,
      });
    });
  }

  /** The synthetic "API Error" message and an error result; exit 1. */
  fail(failure: ModelFailure): Promise<never> {
    const described = claudeApiError(failure);
    this.emit(claudeSyntheticErrorLine(randomUUID(), described));
    this.finish({
      kind: 'api-error',
      text: described.text,
      status: described.status,
      errorType: described.type,
      ...(described.terminalReason ? { terminalReason: described.terminalReason } : {}),
    });
    if (this.format !== 'stream-json' && this.format !== 'json') this.runtime.stderr(`${described.text}\n`);
    return this.close(1);
  }

  async billSummary(response: ScriptResponse): Promise<boolean> {
    if (response.stall === 'after-first-text') {
      this.partial = { id: '', text: response.text?.[0] ?? '', input: usageOf(response).input_tokens, shown: false };
      await this.runtime.stall();
      this.partial = undefined;
      return false;
    }
    this.bill(usageOf(response));
    return true;
  }

  setCompactingOnCommand(on: boolean): void {
    this.compactingOnCommand = on;
  }

  countFromHere(): void {
    this.totals = { input: 0, output: 0, cached: 0 };
    this.numTurns += 1;
  }

  finishCommand(): Promise<never> {
    this.finish({ kind: 'local-command' });
    return this.close(0);
  }

  /**
   * Prints a model response's thinking and text as whole blocks; a stall holds its first text chunk (flushed
   * on SIGINT) until the stream breaks. Returns the message, or undefined when the stream broke.
   */
  async printResponse(response: ScriptResponse): Promise<ClaudeMessage | undefined> {
    const { runtime, model } = this;
    const reported = usageOf(response);
    const message = {
      id: `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
      usage: claudeMessageUsage(reported.input_tokens, reported.cache_read_input_tokens ?? 0, 1),
    };
    if (response.thinking && response.thinking.length > 0) {
      const thinking = { type: 'thinking', thinking: response.thinking.join(''), signature: '' };
      this.emit(claudeAssistantLine(model, message.id, [thinking], message.usage));
    }
    const chunks = response.text ?? [];
    if (response.stall === 'after-first-text') {
      this.partial = { id: message.id, text: chunks[0] ?? '', input: reported.input_tokens, shown: true };
      await runtime.stall();
      this.partial = undefined;
      return undefined;
    }
    const gap = dripGapMs(response);
    if (gap > 0 && chunks.length > 1) await runtime.sleep(gap * (chunks.length - 1));
    if (chunks.length > 0) {
      this.lastText = chunks.join('');
      this.emit(claudeAssistantLine(model, message.id, [{ type: 'text', text: this.lastText }], message.usage));
    }
    addUsage(this.totals, reported);
    this.bill(reported);
    this.lastCallTokens = reported.input_tokens + (reported.cache_read_input_tokens ?? 0) + reported.output_tokens;
    return message;
  }

  /** Prints each tool_use block of the message, then runs the calls in order, each result a `user` envelope. */
  async useTools(message: ClaudeMessage, calls: readonly ScriptToolCall[]): Promise<void> {
    const { runtime, invocation } = this;
    const inputs = calls.map((scripted) =>
      claudeToolInput(scripted.name, runtime.inputOf(scripted), runtime.workspace),
    );
    // claude prints the ids the Messages API issued (the mock's, derived from the script ids).
    const ids = calls.map(
      (scripted) => providerToolCallId('anthropic', runtime.state.scenario.id, scripted.id) ?? scripted.id,
    );
    calls.forEach((scripted, index) => {
      const block = { type: 'tool_use', id: ids[index], name: scripted.name, input: inputs[index] };
      this.emit(claudeAssistantLine(this.model, message.id, [block], message.usage));
    });
    for (const [index, scripted] of calls.entries()) {
      const id = ids[index]!;
      const input = inputs[index]!;
      const denied = deniedReason(invocation, scripted);
      if (denied) this.permissionDenials.push({ tool_name: scripted.name, tool_use_id: id, tool_input: input });
      this.runningTool = id;
      const outcome = await runtime.runTool({ ...scripted, input }, id, denied);
      this.runningTool = undefined;
      this.numTurns += 1;
      this.emit(claudeToolResultLine(id, outcome, { workspace: runtime.workspace, name: scripted.name, input }));
    }
  }

  /** The success result after the last message; exit 0. */
  succeed(): Promise<never> {
    this.finish({ kind: 'success', text: this.lastText, numTurns: this.numTurns });
    return this.close(0);
  }
}

export async function runClaude(
  runtime: CliRuntime,
  invocation: Invocation,
  options: ClaudeRunOptions,
): Promise<never> {
  const run = new ClaudeRun(runtime, invocation, options.sessionId, options.past ?? NEW_SESSION);
  const prompt = invocation.prompt ?? options.stdinText.trim();
  if (prompt === '') {
    runtime.stderr('Error: Input must be provided either through stdin or as a prompt argument when using --print\n');
    return runtime.exit(1);
  }
  runtime.log({ event: 'prompt', prompt, source: invocation.prompt !== undefined ? 'argv' : 'stdin' });
  runtime.onInterrupt(() => run.interrupt());
  const cursor = new ScriptCursor(runtime.turn.responses);
  if (isCompactPrompt(prompt)) return compactOnCommand(run, cursor);
  run.init();
  let compacted = false;
  for (;;) {
    const call = cursor.call(MAX_ATTEMPTS);
    run.reportRetries(call.retried);
    if (call.kind === 'failed') {
      const overflow = call.failure.kind === 'http' && call.failure.overflow === true;
      // Over the context window: compact once and retry (a second overflow is "Prompt is too long").
      if (overflow && !compacted && (await compactOnOverflow(run, cursor, prompt))) {
        compacted = true;
        continue;
      }
      return run.fail(call.failure);
    }
    const message = await run.printResponse(call.response);
    if (!message) return run.fail({ kind: 'cut', response: call.response });
    const calls = call.response.toolCalls ?? [];
    if (calls.length === 0) return run.succeed();
    await run.useTools(message, calls);
  }
}

/** Read-only tools always run; the rest need bypass, acceptEdits (edits) or --allowedTools. */
function deniedReason(invocation: Invocation, call: ScriptToolCall): string | undefined {
  if (READ_ONLY_TOOLS.has(call.name) || invocation.autoApprove) return undefined;
  const allowed = invocation.allowedTools.some((entry) => entry === call.name || entry.startsWith(`${call.name}(`));
  if (allowed && !invocation.readOnly) return undefined;
  return `Claude requested permissions to use ${call.name}, but you haven't granted it yet.`;
}

export function newClaudeSessionId(): string {
  return randomUUID();
}
