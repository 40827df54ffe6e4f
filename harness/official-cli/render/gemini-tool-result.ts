// The `tool_result` line Gemini CLI 0.61 prints for one tool call, as in the captures: a command that ran is
// a success whatever its exit code, a read_file's content goes to the model only, an edit's display is a diff.
import type { ToolOutcome } from '../workspace-tools.js';

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
export function geminiToolResultLine(
  toolId: string,
  geminiName: string,
  outcome: ToolOutcome,
): Record<string, unknown> {
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
