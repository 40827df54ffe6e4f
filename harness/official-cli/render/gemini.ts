// The fake `gemini` (Gemini CLI 0.61 headless): `init`, the echoed user `message`, one assistant
// `message` with `delta: true` per streamed chunk, `tool_use` / `tool_result` (all uses of a model message
// before any result; a successful read_file has empty output; a failing shell command is still
// `success`), then `result` with `stats`. HTTP errors end in an error `result` and exit code
// status & 0xff. A signal to the process group ends it at once with exit 0 and no result.
import { randomUUID } from 'node:crypto';
import type { Invocation } from '../args/invocation.js';
import { type CliRuntime, promptSource } from '../runtime.js';
import {
  addUsage,
  dripGapMs,
  httpErrorMessage,
  type ModelFailure,
  ScriptCursor,
  type UsageTotals,
  usageOf,
} from '../script-playback.js';
import type { ScriptResponse, ScriptToolCall } from '../script-types.js';
import { geminiToolCall } from '../tool-mapping.js';
import {
  geminiErrorBody,
  geminiErrorReport,
  geminiExitCode,
  geminiFailureMessage,
  geminiStackTrace,
} from './gemini-errors.js';
import { geminiToolResultLine } from './gemini-tool-result.js';

export const GEMINI_DEFAULT_MODEL = 'gemini-2.5-pro';
/** gemini 0.61's compress command and its aliases (`handleSlashCommand` in non-interactive mode). */
const COMPRESS_COMMAND = /^\/(?:compress|compact|summarize)(?:\s|$)/;
/** The capture settings used maxAttempts 2. */
const MAX_ATTEMPTS = 2;

export interface GeminiRunOptions {
  sessionId: string;
  /** stdin text the CLI read (prepended to the prompt, as gemini does). */
  stdinText: string;
}

/** What gemini writes on stderr as it starts headless (and with --yolo, its warning twice). */
function startupWarnings(runtime: CliRuntime, invocation: Invocation): void {
  runtime.stderr(
    'Warning: 256-color support not detected. Using a terminal with at least 256-color support is recommended for a better visual experience.\n',
  );
  if (invocation.autoApprove)
    runtime.stderr('YOLO mode is enabled. All tool calls will be automatically approved.\n'.repeat(2));
  runtime.stderr('Ripgrep is not available. Falling back to GrepTool.\n');
}

/** One headless gemini run: what it has counted so far and the lines it prints, step by step. */
class GeminiRun {
  private readonly started = Date.now();
  readonly model: string;
  private readonly format: string;
  private readonly totals: UsageTotals = { input: 0, output: 0, cached: 0 };
  private toolCalls = 0;
  private finalText = '';

  constructor(
    private readonly runtime: CliRuntime,
    private readonly invocation: Invocation,
    private readonly sessionId: string,
  ) {
    this.model = invocation.model ?? process.env.GEMINI_MODEL ?? GEMINI_DEFAULT_MODEL;
    this.format = (invocation.flags['output-format'] as string | undefined) ?? 'text';
  }

  readonly emit = (line: Record<string, unknown>): void => {
    if (this.format === 'stream-json') this.runtime.line(line);
  };

  private stats(): Record<string, unknown> {
    const { totals, model } = this;
    const counts = {
      total_tokens: totals.input + totals.output,
      input_tokens: totals.input,
      output_tokens: totals.output,
      cached: totals.cached,
      input: totals.input - totals.cached,
    };
    return {
      ...counts,
      duration_ms: Date.now() - this.started,
      tool_calls: this.toolCalls,
      models: { [model]: counts },
    };
  }

  /** The result in the asked format: a `result` line, a JSON object, or the plain text (or error on stderr). */
  private finish(error?: { type: string; message: string }): void {
    if (this.format === 'stream-json') {
      this.emit({
        type: 'result',
        timestamp: new Date().toISOString(),
        status: error ? 'error' : 'success',
        ...(error ? { error } : {}),
        stats: this.stats(),
      });
    } else if (this.format === 'json') {
      const response = this.finalText;
      this.runtime.line({ session_id: this.sessionId, response, stats: this.stats(), ...(error ? { error } : {}) });
    } else if (error) {
      this.runtime.stderr(`${error.message}\n`);
    } else {
      process.stdout.write(`${this.finalText}\n`);
    }
  }

  /** Calls made beside the prompt's own (the background compression): counted in the stats, nothing printed. */
  countCalls(responses: readonly ScriptResponse[]): void {
    for (const response of responses) addUsage(this.totals, usageOf(response));
  }

  /** The `init` line and the echoed prompt. */
  init(prompt: string): void {
    this.emit({ type: 'init', timestamp: new Date().toISOString(), session_id: this.sessionId, model: this.model });
    this.emit({ type: 'message', timestamp: new Date().toISOString(), role: 'user', content: prompt });
  }

  /** A stderr report per failed attempt that was retried. */
  reportRetries(retried: readonly ModelFailure[]): void {
    retried.forEach((failure, index) => {
      const body = failure.kind === 'http' ? geminiErrorBody(failure) : geminiFailureMessage(failure);
      const status = failure.kind === 'http' ? failure.status : 0;
      this.runtime.stderr(
        `Attempt ${index + 1} failed with status ${status}. Retrying with backoff... _ApiError: ${body}\n${geminiStackTrace()} {\n  status: ${status}\n}\n`,
      );
    });
  }

  /** The model call failed after its retries: what arrived of the stream, the reports, an error result. */
  fail(failure: ModelFailure, retries: number): Promise<never> {
    // The mock breaks a stream right after its first text frame: that chunk arrived, nothing else.
    const delivered = failure.kind === 'http' ? undefined : failure.response.text?.[0];
    if (delivered !== undefined)
      this.emit({
        type: 'message',
        timestamp: new Date().toISOString(),
        role: 'assistant',
        content: delivered,
        delta: true,
      });
    if (failure.kind === 'http' && retries > 0) {
      this.runtime.stderr(
        `Attempt ${retries + 1} failed: ${failure.status === 429 ? httpErrorMessage(429) : geminiErrorBody(failure)}. Max attempts reached\n`,
      );
    }
    this.runtime.stderr(geminiErrorReport(geminiFailureMessage(failure)));
    this.finish({ type: 'unknown', message: geminiFailureMessage(failure) });
    return this.runtime.exit(geminiExitCode(failure));
  }

  /**
   * Prints the response's text; true when the stream stalled and nothing stopped the CLI meanwhile: the
   * connection finally dropped, and the run ends in an error (returned by `failStalled`).
   */
  async printResponse(response: ScriptResponse): Promise<boolean> {
    const stalled = await printText(this.runtime, response, this.emit, (text) => (this.finalText += text));
    if (!stalled) addUsage(this.totals, usageOf(response));
    return stalled;
  }

  failStalled(): Promise<never> {
    this.runtime.stderr(geminiErrorReport('TypeError: terminated'));
    this.finish({ type: 'unknown', message: '[API Error: terminated]' });
    return this.runtime.exit(1);
  }

  /** Prints every tool_use of the message, then runs the calls in order, a tool_result each. */
  async useTools(calls: readonly ScriptToolCall[]): Promise<void> {
    const { runtime } = this;
    const stamp = Date.now();
    const planned = calls.map((scripted, index) => {
      const rendered = geminiToolCall(scripted.name, runtime.inputOf(scripted));
      const callId = `${rendered.name}_${stamp}_${index}`;
      return { scripted, rendered, toolId: `${rendered.name}__${callId}` };
    });
    for (const { rendered, toolId } of planned) {
      this.emit({
        type: 'tool_use',
        timestamp: new Date().toISOString(),
        tool_name: rendered.name,
        tool_id: toolId,
        parameters: rendered.parameters,
      });
    }
    for (const { scripted, rendered, toolId } of planned) {
      this.toolCalls += 1;
      const outcome = await runtime.runTool(
        scripted,
        toolId,
        deniedReason(this.invocation, rendered.name),
        (ran) => geminiToolResultLine(toolId, rendered.name, ran).status === 'error',
      );
      if (outcome.isError && rendered.name !== 'run_shell_command') {
        runtime.stderr(
          `Error executing tool ${rendered.name}: ${outcome.failure === 'not-found' ? 'File not found.' : outcome.output.split('\n')[0]}\n`,
        );
      }
      this.emit(geminiToolResultLine(toolId, rendered.name, outcome));
    }
  }

  /** The success result after the last message; exit 0. */
  succeed(): Promise<never> {
    this.finish();
    return this.runtime.exit(0);
  }
}

export async function runGemini(
  runtime: CliRuntime,
  invocation: Invocation,
  options: GeminiRunOptions,
): Promise<never> {
  const run = new GeminiRun(runtime, invocation, options.sessionId);
  startupWarnings(runtime, invocation);
  // A signal reaching this (worker) process stops it at once: no result line, exit 0.
  runtime.onInterrupt(() => void runtime.exit(0));

  const prompt = [options.stdinText.trim(), invocation.prompt ?? ''].filter((part) => part !== '').join('\n\n');
  if (prompt === '') {
    runtime.stderr(
      'No input provided via stdin. Input can be provided by piping data into gemini or using the --prompt option.\n',
    );
    return runtime.exit(1);
  }
  runtime.log({ event: 'prompt', prompt, source: promptSource(invocation.prompt, options.stdinText) });
  run.init(prompt);

  const compression = backgroundCompression(prompt, runtime.turn.responses);
  run.countCalls(compression.calls);
  const cursor = new ScriptCursor(compression.rest);
  for (;;) {
    const call = cursor.call(MAX_ATTEMPTS);
    run.reportRetries(call.retried);
    if (call.kind === 'failed') return run.fail(call.failure, call.retried.length);
    if (await run.printResponse(call.response)) return run.failStalled();
    const calls = call.response.toolCalls ?? [];
    if (calls.length === 0) return run.succeed();
    await run.useTools(calls);
  }
}

/**
 * `/compress` (or `/compact`) in headless mode (test/fixtures/streams/captures/HOW-CAPTURED.md, "gemini: /compress"):
 * gemini starts a compression in the background, two non-streamed calls (the summary, then its verification),
 * and sends the prompt, command included, to the model as text. Which finishes first is a race; the fake plays the
 * captures' usual outcome, where the answer ends first and the summary is lost, but counts both calls in its stats
 * as gemini does. The turn's summary response answers them; the rest of the script answers the prompt.
 */
function backgroundCompression(
  prompt: string,
  responses: readonly ScriptResponse[],
): { calls: ScriptResponse[]; rest: ScriptResponse[] } {
  const summaryAt = responses.findIndex((response) => response.summary === true);
  if (!COMPRESS_COMMAND.test(prompt.trim()) || summaryAt < 0) return { calls: [], rest: [...responses] };
  const summary = responses[summaryAt]!;
  return { calls: [summary, summary], rest: responses.filter((_, index) => index !== summaryAt) };
}

/** Tools that change things need --yolo (or --allowed-tools / auto_edit) in headless mode. */
function deniedReason(invocation: Invocation, geminiName: string): string | undefined {
  const needsApproval = ['run_shell_command', 'write_file', 'replace'].includes(geminiName);
  if (!needsApproval || invocation.autoApprove || invocation.allowedTools.includes(geminiName)) return undefined;
  return `Tool execution for "${geminiName}" requires user confirmation, which is not supported in non-interactive mode.`;
}

/** What gemini's startup profiler prints when a turn runs long enough (seen in the interrupt captures). */
function startupNoise(runtime: CliRuntime): void {
  runtime.stderr("[STARTUP] Phase 'cleanup_ops' was started but never ended. Skipping metrics.\n");
  runtime.stderr(
    "[STARTUP] Cannot measure phase 'cleanup_ops': start mark 'startup:cleanup_ops:start' not found (likely cleared by reset).\n",
  );
}

/** Prints the response's text chunks as deltas; true when the script stalled the stream and nothing ended the CLI. */
async function printText(
  runtime: CliRuntime,
  response: ScriptResponse,
  emit: (line: Record<string, unknown>) => void,
  collect: (text: string) => void,
): Promise<boolean> {
  const chunks = response.text ?? [];
  const gap = dripGapMs(response);
  for (const [index, chunk] of chunks.entries()) {
    if (gap > 0 && index > 0) await runtime.sleep(gap);
    emit({ type: 'message', timestamp: new Date().toISOString(), role: 'assistant', content: chunk, delta: true });
    collect(chunk);
    if (response.stall === 'after-first-text' && index === 0) {
      startupNoise(runtime);
      await runtime.stall();
      return true;
    }
  }
  if (response.stall === 'after-first-text' && chunks.length === 0) {
    startupNoise(runtime);
    await runtime.stall();
    return true;
  }
  return false;
}

export function newGeminiSessionId(): string {
  return randomUUID();
}
