// Edit {file_path, old_string, new_string, replace_all?}.
import { writeFileAtomic } from './atomic-write.js';
import { applyEdit, readEdit, snippetAround } from './edit-core.js';
import { resolveInside } from './paths.js';
import { readRegularFile } from './regular-file.js';
import { ok, requireString, type Tool } from './types.js';

export const editTool: Tool = {
  spec: {
    name: 'Edit',
    description:
      'Replace exact text in a file. old_string must occur exactly once unless replace_all is true. Read the file first to copy the text exactly.',
    parameters: {
      type: 'object',
      properties: {
        file_path: { type: 'string', description: 'Path of the file to change.' },
        old_string: { type: 'string', description: 'The exact text to replace.' },
        new_string: { type: 'string', description: 'The replacement text.' },
        replace_all: { type: 'boolean', description: 'Replace every occurrence (default false).' },
      },
      required: ['file_path', 'old_string', 'new_string'],
    },
  },
  async run(input, context) {
    const requested = requireString(input, 'file_path');
    const edit = readEdit(input, 'Edit');
    const file = resolveInside(context, requested);
    const original = readRegularFile(file, requested).toString('utf8');
    const { text, firstChange } = applyEdit(original, edit, 'Edit');
    await writeFileAtomic(file, text);
    return ok(
      `The file ${requested} has been updated. Here's a snippet of the edited file:\n${context.redactor.redact(snippetAround(text, firstChange))}`,
    );
  },
};
