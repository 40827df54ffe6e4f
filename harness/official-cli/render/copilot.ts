// The fake `copilot -p <prompt> --output-format json` (GitHub Copilot CLI 1.0.102 on its anthropic BYOK backend,
// R22), the process its loader starts (main.ts plays the loader): the session events, `user.message`, per model
// call `assistant.turn_start` ... `assistant.turn_end` with text deltas, the whole `assistant.message` and its
// `toolRequests`, `tool.execution_start`/`_complete` per tool (copilot-tools.ts), then `assistant.idle` and the
// `result` line. Retries as copilot makes them against the suite's mock (copilot-script.ts): up to 5 after 429, 5xx
// and a broken stream (whose first text chunk is printed each time; the mock replays it once), 2 after 401, none
// after 400/403/404; a request the script has no answer for meets the mock's 400. Every failure ends in
// `session.error` and exit 1. SIGINT/SIGTERM stop the turn: the interruption, `abort`, `assistant.idle {aborted}`,
// copilot's disposal error on stderr, exit 0. `--usage-output-file` gets the session's running token totals;
// stdout never shows a token count. A `/compact` prompt compacts the session and prints only its skills and result.

import { randomUUID } from 'node:crypto';
import { isCompactPrompt } from '../../../common/compact-command.js';
import { providerToolCallId } from '../../mock/scenario/tool-call-ids.js';
import type { Invocation } from '../args/invocation.js';
import type { CliRuntime } from '../runtime.js';
import { addUsage, dripGapMs, type ModelFailure, type UsageTotals, usageOf } from '../script-playback.js';
import type { ScriptResponse } from '../script-types.js';
import {
  ANTHROPIC_CALL,
  COPILOT_DEFAULT_MODEL,
  CopilotEventStream,
  currentDatetime,
  DISPOSAL_MESSAGE,
  emitSessionStart,
  emitSkillsLoaded,
  NO_PROMPT,
  NOTHING_TO_COMPACT,
  RETRY_INFO,
} from './copilot-events.js';
import {
  type CallError,
  CopilotCursor,
  callErrorOf,
  clientErrorFields,
  failureOf,
  finalResultOf,
  retriesAfter,
  retryReason,
  sessionErrorOf,
} from './copilot-script.js';
import {
  type CopilotCall,
  copilotCall,
  deniedReason,
  executionComplete,
  executionStart,
  toolRequest,
} from './copilot-tools.js';
import { writeCopilotUsage } from './copilot-usage.js';

export interface CopilotRunOptions {
  sessionId: string;
  /** What the session's earlier completed runs used (the usage file reports the session's running total). */
  priorUsage: UsageTotals;
  /** Whether the session holds conversation from earlier runs (a `/compact` without any is refused). */
  conversation: boolean;
}

/** One `copilot -p` process: its counters and the events it prints, step by step. */
class CopilotRun {
  private readonly events: CopilotEventStream;
  private readonly started = Date.now();
  private readonly model: string;
  private readonly interactionId = randomUUID();
  private readonly promptId = randomUUID();
  private readonly totals: UsageTotals;
  private turn = 0;
  private shellIds = 0;
  private activity: { kind: 'model'; since: number } | { kind: 'tool'; call: CopilotCall; since: number } | undefined;
  private lastText = '';

  constructor(
    private readonly runtime: CliRuntime,
    private readonly invocation: Invocation,
    private readonly options: CopilotRunOptions,
  ) {
    this.model = invocation.model ?? COPILOT_DEFAULT_MODEL;
    // The usage file reports the session's running total: this run's calls are added to the earlier runs'.
    this.totals = { ...options.priorUsage };
    this.events = new CopilotEventStream((line) => {
      if (invocation.streamJson) runtime.line(line);
    });
  }

  private get turnId(): string {
    return String(this.turn);
  }

  start(prompt: string): void {
    emitSessionStart(this.events, this.model);
    this.events.emit('user.message', {
      content: prompt,
      transformedContent: `<current_datetime>${currentDatetime()}</current_datetime>\n\n${prompt}`,
      messageId: this.promptId,
      supportedNativeDocumentMimeTypes: [],
      delivery: 'idle',
      interactionId: this.interactionId,
      turnId: '0',
      parentAgentTaskId: randomUUID(),
    });
  }

  beginCall(): void {
    this.events.emit('assistant.turn_start', { turnId: this.turnId, interactionId: this.interactionId });
    this.events.emit('model.call_start', { turnId: this.turnId, model: this.model });
    this.activity = { kind: 'model', since: Date.now() };
  }

  /** The end of the model call under way: `model.call_finished` with its outcome. */
  private callFinished(outcome: 'success' | 'error' | 'cancelled', extra: Record<string, unknown> = {}): void {
    this.events.emit('model.call_finished', {
      turnId: this.turnId,
      dispatchDurationMs: Date.now() - (this.activity?.since ?? Date.now()),
      outcome,
      editClassifierVersion: 1,
      interactionId: this.interactionId,
      ...extra,
    });
  }

  /** One failed request: `model.call_failure` and the call's end; with a retry to come, its notice and the next start. */
  failedCall(failure: ModelFailure, attempt: number, retry: boolean): CallError {
    const error = callErrorOf(failure, {
      model: this.model,
      turnIndex: this.runtime.state.turnIndex,
      scripted: this.runtime.turn.responses.length,
    });
    this.events.emit('model.call_failure', {
      model: this.model,
      ...(error.body?.request_id ? { providerCallId: error.body.request_id } : {}),
      ...(error.status === undefined ? {} : { statusCode: error.status }),
      durationMs: Date.now() - (this.activity?.since ?? Date.now()),
      ...ANTHROPIC_CALL,
      requestBodyBytes: 48_395,
      requestBodyWireBytes: 48_395,
      requestBodyEncoding: 'identity',
      retryAttempt: attempt,
      failureKind: error.status === undefined ? 'transport' : 'api',
      errorMessage: error.text,
      ...(error.body?.error ? { errorType: error.body.error.type } : {}),
      ...clientErrorFields(error.status),
    });
    this.callFinished('error');
    if (retry) {
      const reason = retryReason(failure);
      this.events.emit('assistant.turn_retry', { turnId: this.turnId, model: this.model, reason });
      // A rate limit is retried without a notice.
      if (reason !== 'rate_limit')
        this.events.emit('session.info', {
          infoType: 'model_retry',
          message: reason === 'streaming_error' ? RETRY_INFO.stream : RETRY_INFO.api,
        });
      this.events.emit('model.call_start', { turnId: this.turnId, model: this.model });
      this.activity = { kind: 'model', since: Date.now() };
    }
    return error;
  }

  /** The end of a failed turn: its `session.error`, the usage file, the result; exit 1. */
  fail(error: CallError, retries: number, waitedSeconds: number): Promise<never> {
    this.events.emit('model.call_final_result', { model: this.model, isByok: true, result: finalResultOf(error) });
    this.events.emit('assistant.turn_end', { turnId: this.turnId });
    const base = process.env.COPILOT_PROVIDER_BASE_URL ?? '';
    this.events.emit('session.error', {
      ...sessionErrorOf(error, { base, model: this.model, retries, waitedSeconds }),
      ...(error.status === undefined ? {} : { statusCode: error.status }),
      ...(error.body?.request_id ? { providerCallId: error.body.request_id } : {}),
      originatingMessageId: this.promptId,
    });
    return this.end(1);
  }

  /** The start of a message whose stream then broke: its first text chunk, as copilot printed it. */
  textBeforeBreak(response: ScriptResponse): void {
    const first = response.text?.[0];
    if (!first) return;
    const messageId = randomUUID();
    this.events.emit('assistant.message_start', { messageId });
    this.events.emit('assistant.message_delta', { messageId, deltaContent: first });
  }

  /** Prints a response's text as deltas and its message; undefined when a stall held the stream (a signal ends it). */
  async printResponse(response: ScriptResponse, calls: readonly CopilotCall[]): Promise<boolean> {
    const chunks = response.text ?? [];
    const messageId = randomUUID();
    if (chunks.length > 0) this.events.emit('assistant.message_start', { messageId });
    const gap = dripGapMs(response);
    for (const [index, chunk] of chunks.entries()) {
      if (index > 0 && gap > 0) await this.runtime.sleep(gap);
      this.events.emit('assistant.message_delta', { messageId, deltaContent: chunk });
      if (index === 0 && response.stall === 'after-first-text') {
        await this.runtime.stall();
        return false;
      }
    }
    for (const call of calls)
      this.events.emit('assistant.tool_call_delta', {
        toolCallId: call.id,
        toolName: call.name,
        inputDelta: JSON.stringify(call.arguments),
      });
    this.callFinished('success', {
      containsBuiltInFileEditRequest: calls.some((call) => call.name === 'create' || call.name === 'edit'),
    });
    this.lastText = chunks.join('');
    addUsage(this.totals, usageOf(response));
    this.events.emit('assistant.message', {
      messageId,
      originatingMessageId: this.promptId,
      model: this.model,
      content: this.lastText,
      toolRequests: calls.map(toolRequest),
      interactionId: this.interactionId,
      turnId: this.turnId,
      rte: false,
      apiCallId: `msg_01${randomUUID().replace(/-/g, '').slice(0, 22)}`,
    });
    return true;
  }

  /** Runs a message's calls: both starts, the call's final result, then each call to its end, in order. */
  async useTools(calls: readonly CopilotCall[]): Promise<void> {
    const context = { turnId: this.turnId, model: this.model };
    for (const call of calls) this.events.emit('tool.execution_start', executionStart(call, context));
    this.events.emit('model.call_final_result', { model: this.model, isByok: true, result: 'success' });
    for (const call of calls) {
      const denied = deniedReason(this.invocation, call);
      this.activity = { kind: 'tool', call, since: Date.now() };
      if (call.name === 'bash' && !denied) this.events.emit('session.background_tasks_changed', {});
      const outcome = await this.runtime.runTool(call.scripted, call.id, denied);
      if (call.name === 'bash' && !denied && outcome.output !== '') {
        const stream = outcome.isError ? 'stderr' : 'stdout';
        this.events.emit('tool.shell_output', { toolCallId: call.id, stream, text: outcome.output, sequence: 0 });
        this.events.emit('tool.execution_partial_result', { toolCallId: call.id, partialOutput: outcome.output });
      }
      const shellId = call.name === 'bash' ? this.shellIds++ : 0;
      this.events.emit(
        'tool.execution_complete',
        executionComplete(call, outcome, { ...context, interactionId: this.interactionId, shellId }),
      );
    }
    this.activity = undefined;
    this.events.emit('assistant.turn_end', { turnId: this.turnId });
    this.turn += 1;
  }

  finishTextTurn(): void {
    this.events.emit('model.call_final_result', { model: this.model, isByok: true, result: 'success' });
    this.events.emit('assistant.turn_end', { turnId: this.turnId });
  }

  /** SIGINT or SIGTERM: the interruption, `abort`, the turn's end; no result line; exit 0. */
  interrupt(): void {
    const activity = this.activity;
    const elapsedMs = Date.now() - (activity?.since ?? this.started);
    if (activity?.kind === 'tool')
      this.events.emit('agent.interrupted', {
        activity: 'tool_call',
        turn: this.turn,
        elapsedMs,
        toolCallIds: [activity.call.id],
        toolNames: [activity.call.name],
        safeToolNames: [activity.call.name],
      });
    else
      this.events.emit('agent.interrupted', {
        activity: 'model_call',
        turn: this.turn,
        elapsedMs,
        model: this.model,
        apiEndpoint: ANTHROPIC_CALL.apiEndpoint,
        transport: ANTHROPIC_CALL.transport,
        reasoningEffort: ANTHROPIC_CALL.reasoningEffort,
        cancelPhase: 'mid_stream',
        outputTtftMs: 12.5,
      });
    // During a tool the turn ends before the abort; during a model call the call is cancelled first.
    if (activity?.kind === 'tool') this.events.emit('assistant.turn_end', { turnId: this.turnId });
    this.events.emit('abort', { reason: 'user_initiated' });
    if (activity?.kind !== 'tool') {
      this.callFinished('cancelled');
      this.events.emit('assistant.turn_end', { turnId: this.turnId });
    }
    this.events.emit('session.background_tasks_changed', {});
    this.events.emit('assistant.idle', { aborted: true });
    this.writeUsage();
    this.runtime.stderr(`${DISPOSAL_MESSAGE}\n`);
    void this.runtime.exit(0);
  }

  private writeUsage(): void {
    writeCopilotUsage(this.invocation.flags['usage-output-file'], this.model, {
      session: this.totals,
      started: this.started,
    });
  }

  /**
   * `/compact` (captures/copilot/7-compact): one summary call kept in copilot's session files and left out of the
   * usage file; stdout shows only its skills and the result. A session without conversation is refused (exit 1).
   */
  compact(): Promise<never> {
    emitSkillsLoaded(this.events);
    if (!this.options.conversation) {
      this.runtime.stderr(`${NOTHING_TO_COMPACT}\n`); // as the differential test met it (stdout not recorded)
      return this.runtime.exit(1);
    }
    this.writeUsage();
    return this.printResult(0);
  }

  /** `assistant.idle`, the usage file and the `result` line; exit with `code`. */
  end(code: number): Promise<never> {
    this.events.emit('assistant.idle', {});
    this.writeUsage();
    return this.printResult(code);
  }

  private printResult(code: number): Promise<never> {
    const result = {
      type: 'result',
      timestamp: new Date().toISOString(),
      sessionId: this.options.sessionId,
      exitCode: code,
      usage: {
        premiumRequests: 0,
        totalApiDurationMs: Date.now() - this.started,
        sessionDurationMs: Date.now() - this.started,
        codeChanges: { linesAdded: 0, linesRemoved: 0, filesModified: [] },
      },
    };
    if (this.invocation.streamJson) this.runtime.line(result);
    else if (code === 0) process.stdout.write(`${this.lastText}\n`);
    return this.runtime.exit(code);
  }
}

export async function runCopilot(
  runtime: CliRuntime,
  invocation: Invocation,
  options: CopilotRunOptions,
): Promise<never> {
  const prompt = invocation.prompt ?? (await promptFromStdin(runtime));
  runtime.log({ event: 'prompt', prompt, source: invocation.prompt === undefined ? 'stdin' : 'argv' });
  const run = new CopilotRun(runtime, invocation, options);
  runtime.onInterrupt(() => run.interrupt());
  if (isCompactPrompt(prompt)) return run.compact();
  run.start(prompt);
  const cursor = new CopilotCursor(runtime.turn.responses);
  for (;;) {
    run.beginCall();
    let response = cursor.next();
    let failure = failureOf(response);
    let retries = 0;
    let waited = 0;
    while (failure) {
      // A stream that broke had delivered its first text chunk (the mock breaks it after that).
      if (failure.kind !== 'http') run.textBeforeBreak(failure.response);
      const retry = retries < retriesAfter(failure);
      const error = run.failedCall(failure, retries, retry);
      if (!retry) return run.fail(error, retries, waited);
      const wait = Math.max(1, failure.kind === 'http' ? (failure.retryAfter ?? 0) : 1);
      await runtime.sleep(wait * 1000);
      waited += wait;
      retries += 1;
      response = cursor.next();
      failure = failureOf(response);
    }
    const scripted = response as ScriptResponse;
    const calls = (scripted.toolCalls ?? []).map((call) =>
      copilotCall(runtime, call, providerToolCallId('anthropic', runtime.state.scenario.id, call.id) ?? call.id),
    );
    if (!(await run.printResponse(scripted, calls))) {
      // A stream held open until the fake's stall bound, with no signal: the connection counts as broken.
      return run.fail(run.failedCall({ kind: 'cut', response: scripted }, 0, false), 0, 0);
    }
    if (calls.length === 0) {
      run.finishTextTurn();
      return run.end(0);
    }
    await run.useTools(calls);
  }
}

/** Without -p, copilot reads its prompt from stdin; with nothing there it says so on stdout and exits 1. */
async function promptFromStdin(runtime: CliRuntime): Promise<string> {
  const text = (await runtime.readStdin(runtime.state.stdinWaitMs ?? 1_000)).trim();
  if (text !== '') return text;
  process.stdout.write(NO_PROMPT);
  return runtime.exit(1);
}
