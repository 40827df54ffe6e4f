// `--map-tools` (and the real-CLI mode): a scenario scripts the app's tools (`Read`, `Bash`, ...), but an
// official CLI declares its own: gemini `read_file`, `run_shell_command`; codex `exec_command`, `apply_patch`;
// copilot `view`, `create`, `edit`, `bash`. With the mapping on, the mock answers with a tool the request
// declares and matching input fields, as the fake CLIs map them, so every stock scenario plays to a real
// CLI. The mapping is chosen by the tools a request declares, never by the provider it came through (copilot
// speaks to any of them). Tools that take absolute paths (copilot's) resolve the script's relative paths
// against the workspace the CLI works in (`cwd`), which is also where a Write's target is looked up: a Write
// to a file that exists replaces its content (an edit, a patch update or the shell), never `create`, which
// refuses an existing file. Without the mapping, a request that does not declare the scripted names still
// gets the 400 of `requests.tools-declared`. The mock knows nothing of CLIs: the runner and `serve` hand it
// the mapper.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolMapper } from '../mock/mock-types.js';
import { markCustomToolCall } from '../mock/scenario/custom-tool-calls.js';
import type { ScriptToolCall } from '../mock/scenario/scenario-types.js';
import { codexShellCommand, codexShellEdit, copilotToolCall, geminiToolCall } from './tool-mapping.js';

/** What the mapping knows of the client's workspace. */
export interface ToolMappingContext {
  /** The directory the CLI works in: relative paths become absolute against it, and Write targets are looked up in it. */
  cwd?: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const lines = (value: string) => value.replace(/\n$/, '').split('\n');

/** The content of a Write's target as it is now, or undefined when it does not exist (or cannot be known). */
function currentContent(file: string, context: ToolMappingContext): string | undefined {
  if (!file || (!path.isAbsolute(file) && context.cwd === undefined)) return undefined;
  const absolute = path.resolve(context.cwd ?? '/', file);
  if (!existsSync(absolute)) return undefined;
  try {
    return readFileSync(absolute, 'utf8');
  } catch {
    return undefined;
  }
}

/** codex's apply_patch for a Write (a new file, or an existing one replaced whole) or an Edit. */
function applyPatch(call: ScriptToolCall, context: ToolMappingContext): string | undefined {
  const input = (call.input ?? {}) as Record<string, unknown>;
  const file = text(input.file_path);
  if (!file) return undefined;
  const replace = (before: string, after: string) => [
    '*** Begin Patch',
    `*** Update File: ${file}`,
    '@@',
    ...lines(before).map((line) => `-${line}`),
    ...lines(after).map((line) => `+${line}`),
    '*** End Patch',
    '',
  ];
  if (call.name === 'Write') {
    const existing = currentContent(file, context);
    if (existing !== undefined && existing !== '') return replace(existing, text(input.content)).join('\n');
    const body = lines(text(input.content)).map((line) => `+${line}`);
    return ['*** Begin Patch', `*** Add File: ${file}`, ...body, '*** End Patch', ''].join('\n');
  }
  if (call.name === 'Edit') return replace(text(input.old_string), text(input.new_string)).join('\n');
  return undefined;
}

/** gemini's tools: read_file, write_file, replace, run_shell_command, ... */
function geminiCandidate(call: ScriptToolCall): ScriptToolCall {
  const mapped = geminiToolCall(call.name, (call.input ?? {}) as Record<string, unknown>);
  // gemini 0.61's `replace` requires an `instruction` (a note on the change, for its self-correction).
  const parameters =
    mapped.name === 'replace' ? { instruction: 'Make the requested change.', ...mapped.parameters } : mapped.parameters;
  return { ...call, name: mapped.name, input: parameters };
}

/** codex's tools: exec_command for reads and commands, apply_patch (or a shell edit) for writes. */
function codexCandidates(call: ScriptToolCall, context: ToolMappingContext): ScriptToolCall[] {
  const input = (call.input ?? {}) as Record<string, unknown>;
  const command = codexShellCommand(call.name, input);
  if (command !== undefined) return [{ ...call, name: 'exec_command', input: { cmd: command } }];
  const candidates: ScriptToolCall[] = [];
  const patch = applyPatch(call, context);
  if (patch !== undefined)
    candidates.push(markCustomToolCall({ id: call.id, name: 'apply_patch', rawArguments: patch }));
  // Without apply_patch (codex offers it for some models only) a model writes through the shell.
  const edit = codexShellEdit(call.name, input);
  if (edit !== undefined) candidates.push({ ...call, name: 'exec_command', input: { cmd: edit } });
  return candidates;
}

/** copilot's tools: view, create (new files only), edit, bash; file paths absolute. */
function copilotCandidates(call: ScriptToolCall, context: ToolMappingContext): ScriptToolCall[] {
  const input = (call.input ?? {}) as Record<string, unknown>;
  const file = text(input.file_path);
  const known = file !== '' && (path.isAbsolute(file) || context.cwd !== undefined);
  const existing = call.name === 'Write' ? currentContent(file, context) : undefined;
  const mapped = copilotToolCall(call.name, input, { ...context, existing, known });
  const candidates: ScriptToolCall[] = mapped.map((candidate) => ({
    ...call,
    name: candidate.name,
    input: candidate.input,
  }));
  const edit = codexShellEdit(call.name, input);
  if (edit !== undefined)
    candidates.push({ ...call, name: 'bash', input: { command: edit, description: 'Edit file' } });
  return candidates;
}

function mapCall(call: ScriptToolCall, declared: readonly string[], context: ToolMappingContext): ScriptToolCall {
  if (declared.includes(call.name)) return call;
  const candidates = [geminiCandidate(call), ...codexCandidates(call, context), ...copilotCandidates(call, context)];
  return candidates.find((candidate) => declared.includes(candidate.name)) ?? call;
}

/** A mapper that renames a response's tool calls to tools the request declares (the rest unchanged). */
export function declaredToolMapper(context: ToolMappingContext = {}): ToolMapper {
  return (_provider, response, declared) => {
    if (!response.toolCalls?.length) return response;
    return { ...response, toolCalls: response.toolCalls.map((call) => mapCall(call, declared, context)) };
  };
}
