// The `user` envelope Claude Code 2.1 prints for one tool result: the content the model gets (as the real
// tools word it: `cat -n` numbering for Read, "Exit code N" for a failing command, ...) and the
// `tool_use_result` detail and permission decision beside it, as in the captures.
import type { ToolOutcome } from '../workspace-tools.js';

function catN(content: string): string {
  return content
    .split('\n')
    .map((line, index) => `${index + 1}\t${line}`)
    .join('\n');
}

/** The `user` envelope claude prints for one tool result, with its `tool_use_result` detail. */
export function claudeToolResultLine(
  id: string,
  outcome: ToolOutcome,
  { workspace, name, input }: { workspace: string; name: string; input: Record<string, unknown> },
): Record<string, unknown> {
  let content: string;
  let detail: unknown;
  if (outcome.isError) {
    if (outcome.failure === 'not-found' && name === 'Read')
      content = `File does not exist. Note: your current working directory is ${workspace}.`;
    else if (outcome.failure === 'exit-code')
      content = `Exit code ${outcome.exitCode}\n${outcome.output.replace(/\n+$/, '')}`;
    else if (outcome.failure === 'denied' || outcome.failure === 'interrupted') content = outcome.output;
    else content = `<tool_use_error>${outcome.output}</tool_use_error>`;
    detail = `Error: ${content}`;
  } else if (name === 'Read') {
    content = catN(outcome.output);
    const lines = outcome.output.split('\n').length;
    detail = {
      type: 'text',
      file: {
        filePath: outcome.absolutePath,
        content: outcome.output,
        numLines: lines,
        startLine: 1,
        totalLines: lines,
      },
    };
  } else if (name === 'Bash') {
    content = outcome.output.replace(/\n+$/, '');
    detail = { stdout: content, stderr: '', interrupted: false, isImage: false, noOutputExpected: false };
  } else if (name === 'Write') {
    content = outcome.created
      ? `File created successfully at: ${outcome.absolutePath}`
      : `The file ${outcome.absolutePath} has been updated successfully.`;
    detail = {
      type: outcome.created ? 'create' : 'update',
      filePath: outcome.absolutePath,
      content: input.content,
      structuredPatch: [],
    };
  } else if (name === 'Edit') {
    content = `The file ${outcome.absolutePath} has been updated successfully.`;
    detail = {
      filePath: outcome.absolutePath,
      oldString: input.old_string,
      newString: input.new_string,
      structuredPatch: [],
      userModified: false,
      replaceAll: input.replace_all === true,
    };
  } else {
    content = outcome.output === '' ? 'No files found' : outcome.output;
    detail = { output: content };
  }
  const block: Record<string, unknown> = { tool_use_id: id, type: 'tool_result', content };
  if (outcome.isError || name === 'Bash') block.is_error = outcome.isError;
  return {
    type: 'user',
    message: { role: 'user', content: [block] },
    parent_tool_use_id: null,
    timestamp: new Date().toISOString(),
    tool_use_result: detail,
    tool_result_meta: [
      {
        id,
        permission_decision: {
          decision: outcome.failure === 'denied' ? 'deny' : 'accept',
          source: 'config',
          reason_type: 'mode',
        },
      },
    ],
  };
}
