// Read {file_path, offset?, limit?}: the file's lines numbered like `cat -n` (R10 compares substance only).
import { capText } from './output-cap.js';
import { resolveInside } from './paths.js';
import { readRegularFile } from './regular-file.js';
import { ok, optionalInteger, requireString, type Tool, ToolInputError } from './types.js';

const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;

export function numberLines(lines: readonly string[], firstLineNumber: number): string {
  return lines
    .map((line, index) => {
      const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}[... line truncated]` : line;
      return `${String(firstLineNumber + index).padStart(6)}\t${shown}`;
    })
    .join('\n');
}

/** Splits text into lines the way `cat -n` counts them: a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

export const readTool: Tool = {
  spec: {
    name: 'Read',
    description:
      'Read a text file inside the working directory. Returns its lines numbered like `cat -n`. Use offset (1-based first line) and limit (number of lines) for large files.',
    parameters: {
      type: 'object',
      properties: {
        file_path: {
          type: 'string',
          description: 'Path of the file, relative to the working directory or absolute inside it.',
        },
        offset: { type: 'integer', description: 'Line number to start reading from (1-based).' },
        limit: { type: 'integer', description: 'Number of lines to read.' },
      },
      required: ['file_path'],
    },
  },
  async run(input, context) {
    const requested = requireString(input, 'file_path');
    const offset = optionalInteger(input, 'offset', 0) ?? 1;
    const limit = optionalInteger(input, 'limit', 1) ?? DEFAULT_LIMIT;
    const file = resolveInside(context, requested);
    const lines = splitLines(readRegularFile(file, requested).toString('utf8'));
    if (lines.length === 0) return ok(`(${requested} is empty)`);
    const first = Math.max(1, offset);
    if (first > lines.length)
      throw new ToolInputError(`${requested} has ${lines.length} lines; offset ${first} is past the end.`);
    const shown = lines.slice(first - 1, first - 1 + limit);
    let content = numberLines(shown, first);
    const last = first + shown.length - 1;
    if (first > 1 || last < lines.length) {
      content += `\n(showing lines ${first}-${last} of ${lines.length}; use offset and limit to read more)`;
    }
    return ok(capText(context.redactor.redact(content)));
  },
};
