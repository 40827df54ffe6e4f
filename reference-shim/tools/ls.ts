// LS {path?}: the entries of one directory, directories marked with a trailing "/".
// fs.promises is loaded on first use (Node loads it lazily), not at start-up.
import { promises as fsp } from 'node:fs';
import { capText } from './output-cap.js';
import { resolveInside } from './paths.js';
import { ok, optionalString, type Tool, ToolInputError } from './types.js';

export const lsTool: Tool = {
  spec: {
    name: 'LS',
    description:
      'List the files and directories in a directory inside the working directory (default: the working directory).',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'Directory to list.' } },
    },
  },
  async run(input, context) {
    const requested = optionalString(input, 'path');
    const directory = requested ? resolveInside(context, requested) : context.cwd;
    const info = await fsp.stat(directory).catch(() => undefined);
    if (!info) throw new ToolInputError(`Path does not exist: ${requested}`);
    if (!info.isDirectory()) throw new ToolInputError(`${requested} is not a directory; use Read for files.`);
    const entries = await fsp.readdir(directory, { withFileTypes: true });
    if (entries.length === 0) return ok(`(${requested ?? '.'} is empty)`);
    const names = entries
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.isSymbolicLink() ? `${entry.name}@` : entry.name))
      .sort((a, b) => a.localeCompare(b, 'en'));
    return ok(capText(names.join('\n')));
  },
};
