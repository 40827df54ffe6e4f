// Write {file_path, content}: creates or replaces a file, atomically (temp file + rename).
import { writeFileAtomic } from './atomic-write.js';
import { resolveInside } from './paths.js';
import { statIfExists } from './regular-file.js';
import { ok, requireString, type Tool, ToolInputError } from './types.js';

export const writeTool: Tool = {
  spec: {
    name: 'Write',
    description:
      'Create a file or replace its whole content. Parent directories are created. The path must be inside the working directory.',
    parameters: {
      type: 'object',
      properties: {
        file_path: {
          type: 'string',
          description: 'Path of the file, relative to the working directory or absolute inside it.',
        },
        content: { type: 'string', description: 'The complete new content of the file.' },
      },
      required: ['file_path', 'content'],
    },
  },
  async run(input, context) {
    const requested = requireString(input, 'file_path');
    const content = requireString(input, 'content', { allowEmpty: true });
    const file = resolveInside(context, requested);
    const existing = statIfExists(file);
    if (existing?.isDirectory()) throw new ToolInputError(`${requested} is a directory.`);
    await writeFileAtomic(file, content);
    const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
    return ok(
      `${existing ? 'Updated' : 'Created'} ${requested} (${lines} lines, ${Buffer.byteLength(content)} bytes).`,
    );
  },
};
