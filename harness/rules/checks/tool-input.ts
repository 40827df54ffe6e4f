// The input of one tool call, checked where the app reads it: the file tools' file_path, Bash's command, and
// every tool with an input schema in schemas/ against it.
import { validatorFor } from '../../protocol/schemas.js';
import { brief, type CheckContext } from './context.js';

const FILE_TOOLS = new Set(['Read', 'Write', 'Edit', 'MultiEdit']);
/** Tools with an input schema in schemas/ (tool-input-<lower-case name>.schema.json). */
const TOOLS_WITH_SCHEMA = new Set([
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'Glob',
  'Grep',
  'LS',
  'Bash',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'Task',
  'TaskOutput',
  'NotebookEdit',
]);

/** A tool call's input against what the app reads and its schema in schemas/ (tool.file-path, app.bash-command, tool.input-schema). */
export function checkToolInput(ctx: CheckContext, name: string, input: Record<string, unknown>, line: number): void {
  if (FILE_TOOLS.has(name) && typeof input.file_path !== 'string') {
    const hint = typeof input.path === 'string' ? ' (it has `path`; the app reads `file_path`)' : '';
    ctx.report('tool.file-path', line, `${name} input has no string file_path${hint}`);
    return;
  }
  if (name === 'Bash' && (typeof input.command !== 'string' || input.command === '')) {
    ctx.report('app.bash-command', line, `Bash input has no non-empty command (${brief(input)})`);
  }
  if (TOOLS_WITH_SCHEMA.has(name)) {
    const validate = validatorFor(`tool-input-${name.toLowerCase()}.schema.json`);
    if (!validate(input)) {
      const first = validate.errors?.[0];
      const detail = first ? `${first.instancePath || '(input)'} ${first.message ?? ''}`.trim() : 'does not match';
      ctx.report('tool.input-schema', line, `${name} input: ${detail}`);
    }
  }
}
