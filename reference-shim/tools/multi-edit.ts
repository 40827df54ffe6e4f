// MultiEdit {file_path, edits: [{old_string, new_string, replace_all?}]}: all edits or none.
import { writeFileAtomic } from './atomic-write.js';
import { applyEdit, readEdit, snippetAround } from './edit-core.js';
import { resolveInside } from './paths.js';
import { readRegularFile } from './regular-file.js';
import { ok, requireString, type Tool, ToolInputError } from './types.js';

export const multiEditTool: Tool = {
  spec: {
    name: 'MultiEdit',
    description:
      'Apply several exact-text replacements to one file, in order. Either every edit applies or the file is left unchanged.',
    parameters: {
      type: 'object',
      properties: {
        file_path: { type: 'string', description: 'Path of the file to change.' },
        edits: {
          type: 'array',
          description: 'Edits applied one after another to the result of the previous one.',
          items: {
            type: 'object',
            properties: {
              old_string: { type: 'string' },
              new_string: { type: 'string' },
              replace_all: { type: 'boolean' },
            },
            required: ['old_string', 'new_string'],
          },
        },
      },
      required: ['file_path', 'edits'],
    },
  },
  async run(input, context) {
    const requested = requireString(input, 'file_path');
    if (!Array.isArray(input.edits) || input.edits.length === 0) {
      throw new ToolInputError('Missing required field "edits" (a non-empty array of {old_string, new_string}).');
    }
    const edits = input.edits.map((edit, index) => readEdit(edit, `Edit ${index + 1}`));
    const file = resolveInside(context, requested);
    let text = readRegularFile(file, requested).toString('utf8');
    let firstChange = Number.POSITIVE_INFINITY;
    edits.forEach((edit, index) => {
      const applied = applyEdit(text, edit, `Edit ${index + 1} of ${edits.length}`);
      text = applied.text;
      firstChange = Math.min(firstChange, applied.firstChange);
    });
    await writeFileAtomic(file, text);
    return ok(
      `Applied ${edits.length} edits to ${requested}. Here's a snippet of the edited file:\n${context.redactor.redact(snippetAround(text, firstChange))}`,
    );
  },
};
