// `--map-tools` (and the real-CLI mode): a scenario scripts the app's tools (`Read`, `Bash`, ...), but an
// official CLI declares its own (gemini `read_file`, `run_shell_command`; codex `exec_command`,
// `apply_patch`). With the mapping on, the mock answers with the CLI's tool and matching input fields, in
// the same way the fake CLIs map them, so every stock scenario plays to a real CLI. Without it, a request
// that does not declare the scripted names still gets the 400 of `requests.tools-declared`. The mock knows
// nothing of CLIs: the runner and `serve` hand it this mapper.

import type { ToolMapper } from '../mock/mock-types.js';
import { markCustomToolCall } from '../mock/scenario/custom-tool-calls.js';
import type { MockProviderId, ScriptToolCall } from '../mock/scenario/scenario-types.js';
import { codexShellCommand, codexShellEdit, geminiToolCall } from './tool-mapping.js';

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const lines = (value: string) => value.replace(/\n$/, '').split('\n');

/** codex's apply_patch for a Write (a new file; an existing one is replaced whole) or an Edit. */
function applyPatch(call: ScriptToolCall): string | undefined {
  const input = (call.input ?? {}) as Record<string, unknown>;
  const file = text(input.file_path);
  if (!file) return undefined;
  if (call.name === 'Write') {
    const body = lines(text(input.content)).map((line) => `+${line}`);
    return ['*** Begin Patch', `*** Add File: ${file}`, ...body, '*** End Patch', ''].join('\n');
  }
  if (call.name === 'Edit') {
    return [
      '*** Begin Patch',
      `*** Update File: ${file}`,
      '@@',
      ...lines(text(input.old_string)).map((line) => `-${line}`),
      ...lines(text(input.new_string)).map((line) => `+${line}`),
      '*** End Patch',
      '',
    ].join('\n');
  }
  return undefined;
}

function mapCall(provider: MockProviderId, call: ScriptToolCall, declared: readonly string[]): ScriptToolCall {
  if (declared.includes(call.name)) return call;
  const input = (call.input ?? {}) as Record<string, unknown>;
  if (provider === 'gemini') {
    const mapped = geminiToolCall(call.name, input);
    if (!declared.includes(mapped.name)) return call;
    // gemini 0.61's `replace` requires an `instruction` (a note on the change, for its self-correction).
    const parameters =
      mapped.name === 'replace'
        ? { instruction: 'Make the requested change.', ...mapped.parameters }
        : mapped.parameters;
    return { ...call, name: mapped.name, input: parameters };
  }
  if (provider === 'openai-responses') {
    const command = codexShellCommand(call.name, input);
    if (command !== undefined && declared.includes('exec_command'))
      return { ...call, name: 'exec_command', input: { cmd: command } };
    const patch = applyPatch(call);
    if (patch !== undefined && declared.includes('apply_patch')) {
      return markCustomToolCall({ id: call.id, name: 'apply_patch', rawArguments: patch });
    }
    // Without apply_patch (codex offers it for some models only) a model writes through the shell.
    const edit = codexShellEdit(call.name, input);
    if (edit !== undefined && declared.includes('exec_command'))
      return { ...call, name: 'exec_command', input: { cmd: edit } };
  }
  return call;
}

/** The response with its tool calls renamed to the tools the request declares (the rest unchanged). */
export const mapToolsToDeclared: ToolMapper = (provider, response, declared) => {
  if (!response.toolCalls?.length) return response;
  return { ...response, toolCalls: response.toolCalls.map((call) => mapCall(provider, call, declared)) };
};
