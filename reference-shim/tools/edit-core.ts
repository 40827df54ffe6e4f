// String replacement shared by Edit and MultiEdit: exact matches only, errors when the text is missing or
// ambiguous, so an edit never lands somewhere the model did not mean.
import { ToolInputError } from './types.js';

export interface EditSpec {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + needle.length)) {
    count += 1;
  }
  return count;
}

/** Applies one edit; returns the new text and the offset of the first change. `label` names it in errors. */
export function applyEdit(text: string, edit: EditSpec, label: string): { text: string; firstChange: number } {
  if (edit.old_string === edit.new_string)
    throw new ToolInputError(`${label}: old_string and new_string are identical; nothing to change.`);
  if (edit.old_string === '')
    throw new ToolInputError(`${label}: old_string is empty; use Write to create or replace a whole file.`);
  const count = countOccurrences(text, edit.old_string);
  if (count === 0)
    throw new ToolInputError(
      `${label}: old_string was not found in the file. Read the file and copy the exact text, including whitespace.`,
    );
  if (count > 1 && !edit.replace_all) {
    throw new ToolInputError(
      `${label}: old_string occurs ${count} times. Add surrounding lines to make it unique, or set replace_all to true.`,
    );
  }
  const firstChange = text.indexOf(edit.old_string);
  const replaced = edit.replace_all
    ? text.split(edit.old_string).join(edit.new_string)
    : text.slice(0, firstChange) + edit.new_string + text.slice(firstChange + edit.old_string.length);
  return { text: replaced, firstChange };
}

/**
 * A few numbered lines around a change. Numbers are followed by `→`, the form the app reads to place the
 * diff of an Edit result at the right line (docs/protocol.md "Tools the app knows").
 */
export function snippetAround(text: string, offset: number, context = 3): string {
  const lines = text.split('\n');
  const changeLine = text.slice(0, offset).split('\n').length;
  const first = Math.max(1, changeLine - context);
  const last = Math.min(lines.length, changeLine + context);
  const out: string[] = [];
  for (let line = first; line <= last; line += 1) out.push(`${String(line).padStart(6)}→${lines[line - 1]}`);
  return out.join('\n');
}

export function readEdit(value: unknown, label: string): EditSpec {
  const edit = value as Partial<EditSpec> | null;
  if (!edit || typeof edit !== 'object' || typeof edit.old_string !== 'string' || typeof edit.new_string !== 'string') {
    throw new ToolInputError(`${label}: needs old_string and new_string (strings).`);
  }
  if (edit.replace_all !== undefined && typeof edit.replace_all !== 'boolean') {
    throw new ToolInputError(`${label}: replace_all must be true or false.`);
  }
  return { old_string: edit.old_string, new_string: edit.new_string, replace_all: edit.replace_all ?? false };
}
