// The fake copilot's tools: a scripted app tool call (Read, Write, Edit, Bash, ...) becomes the call copilot's
// model makes (view, create, edit, bash with absolute paths: tool-mapping.ts, the same mapping `serve --map-tools`
// answers a real copilot with), runs in the workspace, and is reported as copilot reports it: a read of a missing
// file fails ("Path does not exist"); a shell command succeeds whatever its exit code, which it names in
// `shellExecution.exitCode` and a `<shellId: N completed with exit code X>` line; without --allow-all-tools a write
// and a command that is not read-only are denied, and the turn goes on.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Invocation } from '../args/invocation.js';
import type { CliRuntime } from '../runtime.js';
import type { ScriptToolCall } from '../script-types.js';
import { copilotToolCall } from '../tool-mapping.js';
import type { ToolOutcome } from '../workspace-tools.js';
import { DENIED_MESSAGE } from './copilot-events.js';

/** A scripted call as copilot's model makes it. */
export interface CopilotCall {
  scripted: ScriptToolCall;
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

const TITLES: Record<string, string> = {
  view: 'Viewing file',
  create: 'Creating file',
  edit: 'Editing file',
  bash: 'Running command',
  glob: 'Finding files',
  grep: 'Searching files',
};
/** Commands copilot runs without asking in -p mode (checked with `cat`, `echo`, `pwd`, `wc`, `ls`). */
const READ_ONLY_COMMANDS = new Set(['cat', 'echo', 'pwd', 'wc', 'ls', 'head', 'tail', 'grep', 'find', 'stat', 'true']);
const WRITE_TOOLS = new Set(['create', 'edit']);
const TELEMETRY_LIMITS = { context_token_limit: 128_000, context_current_tokens: 11_638 };

/** The call copilot's model makes for a scripted one, given the workspace as it is now. */
export function copilotCall(runtime: CliRuntime, scripted: ScriptToolCall, id: string): CopilotCall {
  const input = runtime.inputOf(scripted);
  const file = typeof input.file_path === 'string' ? path.resolve(runtime.workspace, input.file_path) : '';
  const existing = scripted.name === 'Write' && file && existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  const [mapped] = copilotToolCall(scripted.name, input, { cwd: runtime.workspace, existing, known: true });
  const shell =
    scripted.name === 'Write' ? { name: 'bash', input: { command: `cat > ${file}`, description: 'Write' } } : undefined;
  const chosen = mapped ?? shell ?? { name: scripted.name, input };
  return { scripted, id, name: chosen.name, arguments: chosen.input };
}

/** The words of a command line that name files: what copilot lists as the command's possible paths. */
function possiblePaths(command: string): string[] {
  return command
    .split(/[;&|]+/)
    .flatMap((part) => part.trim().split(/\s+/).slice(1))
    .filter((word) => /[./]/.test(word) && !word.startsWith('-') && !/^\d+$/.test(word));
}

export function toolRequest(call: CopilotCall): Record<string, unknown> {
  const target = typeof call.arguments.path === 'string' ? call.arguments.path : '';
  const summary =
    call.name === 'bash'
      ? String(call.arguments.description ?? call.arguments.command)
      : `${call.name} the file at ${target}.`;
  return {
    toolCallId: call.id,
    name: call.name,
    arguments: call.arguments,
    type: 'function',
    intentionSummary: summary,
    toolTitle: TITLES[call.name] ?? call.name,
  };
}

export function executionStart(call: CopilotCall, context: { turnId: string; model: string }): Record<string, unknown> {
  const command = String(call.arguments.command ?? '');
  return {
    toolCallId: call.id,
    toolName: call.name,
    arguments: call.arguments,
    turnId: context.turnId,
    model: context.model,
    toolTitle: TITLES[call.name] ?? call.name,
    ...(call.name === 'bash'
      ? {
          shellToolInfo: {
            possiblePaths: possiblePaths(command),
            hasWriteFileRedirection: /[^>]>[^&]|^>/.test(command),
          },
        }
      : {}),
  };
}

/** Why copilot would not run the call in -p mode (writes and commands that change things need an approval). */
export function deniedReason(invocation: Invocation, call: CopilotCall): string | undefined {
  if (invocation.autoApprove) return undefined;
  if (
    invocation.allowedTools.some((entry) => entry === call.name || (entry.startsWith(`shell(`) && call.name === 'bash'))
  )
    return undefined;
  if (WRITE_TOOLS.has(call.name)) return DENIED_MESSAGE;
  if (call.name !== 'bash') return undefined;
  const command = String(call.arguments.command ?? '');
  const readOnly =
    !/>/.test(command) &&
    command
      .split(/&&|\|\||;|\|/)
      .map((part) => part.trim().split(/\s+/)[0] ?? '')
      .every((word) => READ_ONLY_COMMANDS.has(word));
  return readOnly ? undefined : DENIED_MESSAGE;
}

/** view's `detailedContent`: the file as a diff against itself. */
function viewDiff(file: string, content: string): string {
  const relative = file.replace(/^\//, '');
  const lines = content.split('\n');
  return `\ndiff --git a/${relative} b/${relative}\nindex 0000000..0000000 100644\n--- a/${relative}\n+++ b/${relative}\n@@ -1,${lines.length} +1,${lines.length} @@\n${lines.map((line) => ` ${line}`).join('\n')}\n`;
}

function fileTelemetry(call: CopilotCall, found: boolean): Record<string, unknown> {
  const file = String(call.arguments.path ?? '');
  return {
    command: call.name,
    options: JSON.stringify({ truncateBasedOn: 'tokenCount', truncateStyle: 'middle' }),
    inputs: JSON.stringify([...Object.keys(call.arguments), 'command']),
    resolvedPathAgainstCwd: 'false',
    fileExtension: JSON.stringify([path.extname(file)]),
    ...(call.name === 'view' ? { viewType: found ? 'file' : 'unknown' } : {}),
  };
}

/** `tool.execution_complete`'s data for a call that ran (or was denied), as copilot reports its outcome. */
export function executionComplete(
  call: CopilotCall,
  outcome: ToolOutcome,
  context: { turnId: string; model: string; interactionId: string; shellId: number },
): Record<string, unknown> {
  const base = {
    toolCallId: call.id,
    model: context.model,
    interactionId: context.interactionId,
    turnId: context.turnId,
    rte: false,
  };
  const limits = { ...TELEMETRY_LIMITS, large_output_threshold_bytes: 20_480 };
  if (call.name === 'bash' && outcome.failure !== 'denied') {
    const exitCode = outcome.exitCode ?? (outcome.isError ? 1 : 0);
    const content = `${outcome.output}<shellId: ${context.shellId} completed with exit code ${exitCode}>`;
    return {
      ...base,
      shellExecution: { exitCode },
      success: true,
      result: { content, detailedContent: content },
      toolTelemetry: {
        properties: {
          customTimeout: 'false',
          executionMode: 'sync',
          detached: 'false',
          sandboxApplied: 'false',
          sandboxOptOutRequested: 'false',
          ...(exitCode === 0 ? {} : { shell_error_category: 'command_nonzero_exit' }),
        },
        metrics: {
          commandTimeout: 30_000,
          ...(exitCode === 0 ? {} : { exit_code: exitCode }),
          ...limits,
          result_token_count: Math.ceil(content.length / 4),
        },
      },
    };
  }
  if (outcome.isError) {
    const denied = outcome.failure === 'denied';
    const error = denied
      ? { message: DENIED_MESSAGE, code: 'denied' }
      : { message: 'Path does not exist', code: 'failure' };
    const telemetry =
      call.name === 'bash'
        ? { properties: { shell_error_category: 'permission_denied' }, metrics: limits }
        : {
            properties: fileTelemetry(call, false),
            restrictedProperties: {},
            metrics: { resultLength: error.message.length, resultForLlmLength: error.message.length, ...limits },
          };
    return { ...base, success: false, error, toolTelemetry: telemetry };
  }
  const file = String(call.arguments.path ?? '');
  const content =
    call.name === 'view' ? outcome.output : `${call.name === 'create' ? 'Created' : 'Edited'} file ${file}`;
  return {
    ...base,
    success: true,
    result: { content, detailedContent: call.name === 'view' ? viewDiff(file, content) : content },
    toolTelemetry: {
      properties: fileTelemetry(call, true),
      restrictedProperties: {},
      metrics: {
        resultLength: content.length,
        resultForLlmLength: content.length,
        ...TELEMETRY_LIMITS,
        result_token_count: Math.ceil(content.length / 4),
      },
    },
  };
}
