// The fake `codex exec --json` (codex-cli 0.169): `thread.started`, `turn.started`, whole
// `agent_message` items (never deltas), `command_execution` items (started, then completed with
// aggregated_output / exit_code / status), `file_change` items for edits, `turn.completed` with usage.
// Errors: `error` lines ("Reconnecting..." per retry, then the final one) and `turn.failed`, exit 1. A
// signal ends it at once with exit 1 and nothing more on stdout. It reads stdin to EOF when stdin is
// not a terminal, so a shim that leaves stdin open makes it wait (the real one waits for ever).
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Invocation } from '../args/invocation.js';
import { type CliRuntime, promptSource } from '../runtime.js';
import {
  addUsage,
  dripGapMs,
  httpReason,
  type ModelFailure,
  providerErrorMessage,
  ScriptCursor,
  type UsageTotals,
  usageOf,
} from '../script-playback.js';
import type { ScriptResponse, ScriptToolCall } from '../script-types.js';
import { codexDisplayedCommand, codexShellCommand } from '../tool-mapping.js';

const MAX_ATTEMPTS = 2;
/**
 * What codex 0.169 says when the Responses API answers `context_length_exceeded` (captures/codex/8-overflow): it
 * does not compact then, the turn fails.
 */
const CONTEXT_WINDOW_EXCEEDED =
  "Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying.";

function failureMessage(failure: ModelFailure): string {
  if (failure.kind === 'http') {
    if (failure.overflow) return CONTEXT_WINDOW_EXCEEDED;
    if (failure.status === 429) return 'exceeded retry limit, last status: 429 Too Many Requests';
    if (failure.status >= 500) return 'We’re currently experiencing high demand, which may cause temporary errors.';
    return `unexpected status ${failure.status} ${httpReason(failure.status)}: ${providerErrorMessage(failure, 'openai-responses')}`;
  }
  if (failure.kind === 'malformed') return 'stream disconnected before completion: failed to parse SSE event';
  if (failure.kind === 'mid-stream-error')
    return 'stream disconnected before completion: response.failed event received';
  return 'stream disconnected before completion: error decoding response body';
}

function insideGitRepository(directory: string): boolean {
  let current = path.resolve(directory);
  for (;;) {
    if (existsSync(path.join(current, '.git'))) return true;
    const parent = path.dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}

function withoutMalformedFault(response: ScriptResponse): ScriptResponse {
  if (response.fault?.kind !== 'malformed') return response;
  const { fault: _dropped, ...rest } = response;
  return rest;
}

export interface CodexRunOptions {
  threadId: string;
  /**
   * What the thread's earlier completed turns used: codex 0.169 reports a resumed thread's running total in
   * `turn.completed` (turn 2 of a thread shows turn 1's tokens plus its own), so a translator must subtract.
   */
  priorUsage?: UsageTotals;
}

/** What running one tool call needs: the runtime, the invocation's sandbox and where lines go. */
interface CodexToolContext {
  runtime: CliRuntime;
  invocation: Invocation;
  emit: (line: Record<string, unknown>) => void;
}

/** What codex prints on stderr before it starts when CODEX_HOME is under the temporary directory. */
function warnAboutTemporaryHome(runtime: CliRuntime): void {
  const codexHome = process.env.CODEX_HOME ?? path.join(os.homedir(), '.codex');
  if (path.resolve(codexHome).startsWith(path.resolve(os.tmpdir()) + path.sep)) {
    runtime.stderr(
      `WARNING: proceeding, even though we could not create PATH aliases: Refusing to create helper binaries under temporary dir "${os.tmpdir()}" (codex_home: AbsolutePathBuf("${codexHome}"))\n`,
    );
  }
}

/**
 * The prompt: argv's, then stdin's (read to EOF when stdin is not a terminal); undefined after codex's
 * refusal when there is none, or when the workspace is not a git repository and the check is not skipped.
 */
async function readPrompt(runtime: CliRuntime, invocation: Invocation): Promise<string | undefined> {
  let stdinText = '';
  if (!process.stdin.isTTY) {
    runtime.stderr('Reading additional input from stdin...\n');
    stdinText = await runtime.readStdin();
  }
  const prompt = [invocation.prompt ?? '', stdinText.trim()].filter((part) => part !== '').join('\n\n');
  if (prompt === '') {
    runtime.stderr('No prompt provided. Either specify one as an argument or pipe the prompt into stdin.\n');
    return undefined;
  }
  runtime.log({ event: 'prompt', prompt, source: promptSource(invocation.prompt, stdinText) });
  if (invocation.flags['skip-git-repo-check'] !== true && !insideGitRepository(runtime.workspace)) {
    runtime.stderr('Not inside a trusted directory and --skip-git-repo-check was not specified.\n');
    return undefined;
  }
  return prompt;
}

/** The `turn.completed` line: the thread's running usage. */
function turnCompletedLine(totals: UsageTotals): Record<string, unknown> {
  return {
    type: 'turn.completed',
    usage: {
      input_tokens: totals.input,
      cached_input_tokens: totals.cached,
      cache_write_input_tokens: 0,
      output_tokens: totals.output,
      reasoning_output_tokens: 0,
    },
  };
}

/**
 * Prints a model response's reasoning and whole message; true when the script stalled the stream (a held
 * stream shows nothing at all: messages are printed only when complete).
 */
async function printResponse(
  runtime: CliRuntime,
  response: ScriptResponse,
  json: boolean,
  nextItemId: () => string,
): Promise<boolean> {
  const emit = (line: Record<string, unknown>) => {
    if (json) runtime.line(line);
  };
  if (response.thinking && response.thinking.length > 0) {
    emit({ type: 'item.completed', item: { id: nextItemId(), type: 'reasoning', text: response.thinking.join('') } });
  }
  const chunks = response.text ?? [];
  if (response.stall === 'after-first-text') {
    await runtime.stall();
    return true;
  }
  const gap = dripGapMs(response);
  if (gap > 0 && chunks.length > 1) await runtime.sleep(gap * (chunks.length - 1));
  if (chunks.length > 0) {
    const text = chunks.join('');
    emit({ type: 'item.completed', item: { id: nextItemId(), type: 'agent_message', text } });
    if (!json) process.stdout.write(`${text}\n`);
  }
  return false;
}

export async function runCodex(runtime: CliRuntime, invocation: Invocation, options: CodexRunOptions): Promise<never> {
  warnAboutTemporaryHome(runtime);
  runtime.onInterrupt(() => void runtime.exit(1));
  if ((await readPrompt(runtime, invocation)) === undefined) return runtime.exit(1);

  const json = invocation.streamJson;
  const emit = (line: Record<string, unknown>) => {
    if (json) runtime.line(line);
  };
  let itemNumber = 0;
  const nextItemId = () => `item_${itemNumber++}`;
  const totals: UsageTotals = { ...(options.priorUsage ?? { input: 0, output: 0, cached: 0 }) };

  const fail = (failure: ModelFailure): Promise<never> => {
    const message = failureMessage(failure);
    emit({ type: 'error', message });
    emit({ type: 'turn.failed', error: { message } });
    if (!json) runtime.stderr(`ERROR: ${message}\n`);
    return runtime.exit(1);
  };

  emit({ type: 'thread.started', thread_id: options.threadId });
  emit({ type: 'turn.started' });
  // Like the real one, codex drops a stream event it cannot parse and goes on: a malformed chunk is no fault.
  const cursor = new ScriptCursor(runtime.turn.responses.map(withoutMalformedFault));
  for (;;) {
    const call = cursor.call(MAX_ATTEMPTS);
    for (const failure of call.retried) {
      emit({ type: 'error', message: `Reconnecting... 1/${MAX_ATTEMPTS - 1} (${failureMessage(failure)})` });
    }
    if (call.kind === 'failed') return fail(call.failure);
    const response = call.response;
    if (await printResponse(runtime, response, json, nextItemId)) return fail({ kind: 'cut', response });
    addUsage(totals, usageOf(response));
    const calls = response.toolCalls ?? [];
    if (calls.length === 0) break;
    for (const scripted of calls) await runTool({ runtime, invocation, emit }, scripted, nextItemId());
  }
  emit(turnCompletedLine(totals));
  return runtime.exit(0);
}

async function runTool(
  { runtime, invocation, emit }: CodexToolContext,
  scripted: ScriptToolCall,
  itemId: string,
): Promise<void> {
  const input = runtime.inputOf(scripted);
  const command = codexShellCommand(scripted.name, input);
  if (command === undefined) {
    // An edit: codex applies a patch and reports only the paths it changed.
    const absolute = path.resolve(runtime.workspace, String(input.file_path ?? ''));
    const existed = existsSync(absolute);
    const denied = invocation.readOnly ? 'patch rejected: writing is blocked by read-only sandbox' : undefined;
    const outcome = await runtime.runTool(scripted, itemId, denied);
    emit({
      type: 'item.completed',
      item: {
        id: itemId,
        type: 'file_change',
        changes: [{ path: absolute, kind: existed ? 'update' : 'add' }],
        status: outcome.isError ? 'failed' : 'completed',
      },
    });
    return;
  }
  const displayed = codexDisplayedCommand(command);
  emit({
    type: 'item.started',
    item: {
      id: itemId,
      type: 'command_execution',
      command: displayed,
      aggregated_output: '',
      exit_code: null,
      status: 'in_progress',
    },
  });
  const outcome = await runtime.runTool(scripted, itemId);
  let output = outcome.output;
  let exitCode = outcome.exitCode ?? (outcome.isError ? 1 : 0);
  if (scripted.name === 'Read') {
    // Run as `cat`: the content, or cat's own complaint.
    if (outcome.isError) output = `cat: ${String(input.file_path)}: No such file or directory\n`;
    else output = readFileSync(outcome.absolutePath!, 'utf8');
  } else if (scripted.name !== 'Bash' && output !== '' && !output.endsWith('\n')) {
    output += '\n';
  }
  if (outcome.isError && scripted.name !== 'Bash' && scripted.name !== 'Read') exitCode = 1;
  emit({
    type: 'item.completed',
    item: {
      id: itemId,
      type: 'command_execution',
      command: displayed,
      aggregated_output: output,
      exit_code: exitCode,
      status: exitCode === 0 ? 'completed' : 'failed',
    },
  });
}

/** codex thread ids are UUIDv7 (time ordered). */
export function newCodexThreadId(): string {
  const hex = Date.now().toString(16).padStart(12, '0');
  const random = Array.from({ length: 20 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${random.slice(0, 3)}-${((parseInt(random[3]!, 16) & 0x3) | 0x8).toString(16)}${random.slice(4, 7)}-${random.slice(7, 19)}`;
}
