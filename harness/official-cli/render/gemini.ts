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
import type { ScriptResponse } from '../script-types.js';
import { geminiToolCall } from '../tool-mapping.js';
import type { ToolOutcome } from '../workspace-tools.js';

export const GEMINI_DEFAULT_MODEL = 'gemini-2.5-pro';
/** The capture settings used maxAttempts 2. */
const MAX_ATTEMPTS = 2;
const FAKE_BUNDLE = 'file:///usr/lib/node_modules/@google/gemini-cli/bundle/chunk-FAKE.js';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

function errorBody(status: number): string {
  return JSON.stringify({
    error: { code: status, message: httpErrorMessage(status), status: STATUS_NAMES[status] ?? 'UNKNOWN' },
  });
}

function stackTrace(): string {
  return [
    `    at throwErrorIfNotOK (${FAKE_BUNDLE}:267833:24)`,
    '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
    `    at async retryWithBackoff (${FAKE_BUNDLE}:308039:23)`,
    `    at async Turn.run (${FAKE_BUNDLE}:333001:24)`,
  ].join('\n');
}

/** The `[API Error: ...]` text gemini puts in its error result. */
function failureMessage(failure: ModelFailure): string {
  if (failure.kind === 'http') {
    if (failure.status === 429) {
      return `[API Error: ${httpErrorMessage(429)}]\nPlease wait and try again later. To increase your limits, request a quota increase through AI Studio, or switch to another /auth method`;
    }
    return `[API Error: ${errorBody(failure.status)}]`;
  }
  if (failure.kind === 'malformed') return '[API Error: Incomplete JSON segment at the end]';
  return '[API Error: terminated]';
}

function exitCodeFor(failure: ModelFailure): number {
  if (failure.kind !== 'http') return 1;
  if (failure.status === 401 || failure.status === 403) return 41; // FatalAuthenticationError
  return failure.status & 0xff; // headless stream-json calls process.exit(<http status>)
}

const FAILURE_TYPES: Record<string, string> = {
  'not-found': 'file_not_found',
  'outside-workspace': 'path_not_in_workspace',
  'no-match': 'edit_no_occurrence_found',
  'bad-input': 'invalid_tool_params',
  denied: 'execution_denied',
  'not-a-file': 'target_is_directory',
  'exit-code': 'shell_execute_error',
  interrupted: 'shell_execute_error',
};

/** The tool_result line gemini prints: `output` is the tool's display string (absent for diff displays). */
function toolResultLine(toolId: string, geminiName: string, outcome: ToolOutcome): Record<string, unknown> {
  const base = { type: 'tool_result', timestamp: new Date().toISOString(), tool_id: toolId };
  if (geminiName === 'run_shell_command' && outcome.failure !== 'bad-input' && outcome.failure !== 'denied') {
    // A command that ran is a success whatever its exit code; the output is trimmed.
    return { ...base, status: 'success', output: outcome.output.replace(/\n+$/, '') };
  }
  if (outcome.isError) {
    const display = outcome.failure === 'not-found' ? 'File not found.' : outcome.output.split('\n')[0];
    return {
      ...base,
      status: 'error',
      output: display,
      error: { type: FAILURE_TYPES[outcome.failure ?? 'bad-input'], message: outcome.output },
    };
  }
  switch (geminiName) {
    case 'read_file':
      return { ...base, status: 'success', output: '' }; // the content goes to the model only
    case 'write_file':
    case 'replace':
      return { ...base, status: 'success' }; // the display is a diff object, not a string
    case 'list_directory': {
      const count = outcome.output === '' ? 0 : outcome.output.split('\n').length;
      return { ...base, status: 'success', output: `Listed ${count} item(s).` };
    }
    case 'glob': {
      const count = outcome.output === '' ? 0 : outcome.output.split('\n').length;
      return { ...base, status: 'success', output: `Found ${count} matching file(s)` };
    }
    case 'grep_search': {
      const count = outcome.output === '' ? 0 : outcome.output.split('\n').length;
      return { ...base, status: 'success', output: `Found ${count} match(es)` };
    }
    default:
      return { ...base, status: 'success', output: outcome.output };
  }
}

export interface GeminiRunOptions {
  sessionId: string;
  /** stdin text the CLI read (prepended to the prompt, as gemini does). */
  stdinText: string;
}

export async function runGemini(
  runtime: CliRuntime,
  invocation: Invocation,
  options: GeminiRunOptions,
): Promise<never> {
  const started = Date.now();
  const model = invocation.model ?? process.env.GEMINI_MODEL ?? GEMINI_DEFAULT_MODEL;
  const format = (invocation.flags['output-format'] as string | undefined) ?? 'text';
  runtime.stderr(
    'Warning: 256-color support not detected. Using a terminal with at least 256-color support is recommended for a better visual experience.\n',
  );
  if (invocation.autoApprove)
    runtime.stderr('YOLO mode is enabled. All tool calls will be automatically approved.\n'.repeat(2));
  runtime.stderr('Ripgrep is not available. Falling back to GrepTool.\n');
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

  const totals: UsageTotals = { input: 0, output: 0, cached: 0 };
  let toolCalls = 0;
  let finalText = '';
  const emit = (line: Record<string, unknown>) => {
    if (format === 'stream-json') runtime.line(line);
  };
  const stats = () => {
    const counts = {
      total_tokens: totals.input + totals.output,
      input_tokens: totals.input,
      output_tokens: totals.output,
      cached: totals.cached,
      input: totals.input - totals.cached,
    };
    return { ...counts, duration_ms: Date.now() - started, tool_calls: toolCalls, models: { [model]: counts } };
  };
  const finish = (error?: { type: string; message: string }): void => {
    if (format === 'stream-json') {
      emit({
        type: 'result',
        timestamp: new Date().toISOString(),
        status: error ? 'error' : 'success',
        ...(error ? { error } : {}),
        stats: stats(),
      });
    } else if (format === 'json') {
      runtime.line({ session_id: options.sessionId, response: finalText, stats: stats(), ...(error ? { error } : {}) });
    } else if (error) {
      runtime.stderr(`${error.message}\n`);
    } else {
      process.stdout.write(`${finalText}\n`);
    }
  };

  emit({ type: 'init', timestamp: new Date().toISOString(), session_id: options.sessionId, model });
  emit({ type: 'message', timestamp: new Date().toISOString(), role: 'user', content: prompt });

  const cursor = new ScriptCursor(runtime.turn.responses);
  for (;;) {
    const call = cursor.call(MAX_ATTEMPTS);
    call.retried.forEach((failure, index) => {
      const body = failure.kind === 'http' ? errorBody(failure.status) : failureMessage(failure);
      const status = failure.kind === 'http' ? failure.status : 0;
      runtime.stderr(
        `Attempt ${index + 1} failed with status ${status}. Retrying with backoff... _ApiError: ${body}\n${stackTrace()} {\n  status: ${status}\n}\n`,
      );
    });
    if (call.kind === 'failed') {
      const { failure } = call;
      // The mock breaks a stream right after its first text frame: that chunk arrived, nothing else.
      const delivered = failure.kind === 'http' ? undefined : failure.response.text?.[0];
      if (delivered !== undefined)
        emit({
          type: 'message',
          timestamp: new Date().toISOString(),
          role: 'assistant',
          content: delivered,
          delta: true,
        });
      if (failure.kind === 'http' && call.retried.length > 0) {
        runtime.stderr(
          `Attempt ${call.retried.length + 1} failed: ${failure.status === 429 ? httpErrorMessage(429) : errorBody(failure.status)}. Max attempts reached\n`,
        );
      }
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      runtime.stderr(
        `Error when talking to Gemini API Full report available at: /var/tmp/gemini-client-error-Turn.run-sendMessageStream-${stamp}.json ${failureMessage(failure)}\n${stackTrace()}\n`,
      );
      finish({ type: 'unknown', message: failureMessage(failure) });
      return runtime.exit(exitCodeFor(failure));
    }

    const response = call.response;
    const stalled = await printText(runtime, response, emit, (text) => (finalText += text));
    if (stalled) {
      // Nothing stopped the CLI while the provider held the stream: the connection finally dropped.
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      runtime.stderr(
        `Error when talking to Gemini API Full report available at: /var/tmp/gemini-client-error-Turn.run-sendMessageStream-${stamp}.json TypeError: terminated\n${stackTrace()}\n`,
      );
      finish({ type: 'unknown', message: '[API Error: terminated]' });
      return runtime.exit(1);
    }
    addUsage(totals, usageOf(response));
    const calls = response.toolCalls ?? [];
    if (calls.length === 0) break;

    const stamp = Date.now();
    const planned = calls.map((scripted, index) => {
      const rendered = geminiToolCall(scripted.name, runtime.inputOf(scripted));
      const callId = `${rendered.name}_${stamp}_${index}`;
      return { scripted, rendered, toolId: `${rendered.name}__${callId}` };
    });
    for (const { rendered, toolId } of planned) {
      emit({
        type: 'tool_use',
        timestamp: new Date().toISOString(),
        tool_name: rendered.name,
        tool_id: toolId,
        parameters: rendered.parameters,
      });
    }
    for (const { scripted, rendered, toolId } of planned) {
      toolCalls += 1;
      const outcome = await runtime.runTool(
        scripted,
        toolId,
        deniedReason(invocation, rendered.name),
        (ran) => toolResultLine(toolId, rendered.name, ran).status === 'error',
      );
      if (outcome.isError && rendered.name !== 'run_shell_command') {
        runtime.stderr(
          `Error executing tool ${rendered.name}: ${outcome.failure === 'not-found' ? 'File not found.' : outcome.output.split('\n')[0]}\n`,
        );
      }
      emit(toolResultLine(toolId, rendered.name, outcome));
    }
  }
  finish();
  return runtime.exit(0);
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
