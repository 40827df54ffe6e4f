// Grep {pattern, path?, glob?, output_mode?, -i?, head_limit?}: a JavaScript regular expression over the
// files under path. Default output is `path:line:text`, which carries both the file and the matching line.
// fs.promises is loaded on first use (Node loads it lazily), not at start-up.
import { promises as fsp } from 'node:fs';
import { messageOf } from '../../common/errors.js';
import { ALWAYS_IGNORED, checkPattern, loadGlobber } from './glob.js';
import { capText } from './output-cap.js';
import { displayPath, resolveInside } from './paths.js';
import { splitLines } from './read.js';
import { ok, optionalInteger, optionalString, requireString, type Tool, ToolInputError } from './types.js';

const DEFAULT_MAX_MATCHES = 500;
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MAX_SHOWN_LINE_CHARS = 500;
type OutputMode = 'content' | 'files_with_matches' | 'count';

function isBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, 8000).includes(0);
}

export const grepTool: Tool = {
  spec: {
    name: 'Grep',
    description:
      'Search file contents with a JavaScript regular expression. Returns "path:line:text" for each matching line (output_mode "files_with_matches" or "count" for less).',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Regular expression (JavaScript syntax).' },
        path: { type: 'string', description: 'File or directory to search (default: the working directory).' },
        glob: { type: 'string', description: 'Only search files matching this glob, e.g. "*.ts".' },
        output_mode: { type: 'string', enum: ['content', 'files_with_matches', 'count'] },
        '-i': { type: 'boolean', description: 'Case-insensitive search.' },
        head_limit: { type: 'integer', description: 'Show at most this many result lines.' },
      },
      required: ['pattern'],
    },
  },
  async run(input, context) {
    const source = requireString(input, 'pattern');
    const mode = (optionalString(input, 'output_mode') ?? 'content') as OutputMode;
    if (!['content', 'files_with_matches', 'count'].includes(mode)) {
      throw new ToolInputError('output_mode must be "content", "files_with_matches" or "count".');
    }
    const limit = optionalInteger(input, 'head_limit', 1) ?? DEFAULT_MAX_MATCHES;
    let regex: RegExp;
    try {
      regex = new RegExp(source, input['-i'] === true ? 'i' : '');
    } catch (error) {
      throw new ToolInputError(`Invalid regular expression ${source}: ${messageOf(error)}`, { cause: error });
    }
    const requested = optionalString(input, 'path');
    const target = requested ? resolveInside(context, requested) : context.cwd;
    const info = await fsp.stat(target).catch(() => undefined);
    if (!info) throw new ToolInputError(`Path does not exist: ${requested}`);
    let files: string[];
    if (info.isDirectory()) {
      const filter = optionalString(input, 'glob');
      const pattern = filter ? checkPattern(context, filter.includes('/') ? filter : `**/${filter}`, target) : '**/*';
      const { glob: findFiles } = await loadGlobber();
      files = await findFiles([pattern], {
        cwd: target,
        absolute: true,
        onlyFiles: true,
        dot: true,
        followSymbolicLinks: false,
        ignore: ALWAYS_IGNORED,
        expandDirectories: false,
      });
      files.sort();
    } else {
      files = [target];
    }

    const lines: string[] = [];
    let truncated = false;
    for (const file of files) {
      if (lines.length >= limit) {
        truncated = true;
        break;
      }
      const buffer = await fsp.readFile(file).catch(() => undefined);
      if (!buffer || buffer.length > MAX_FILE_BYTES || isBinary(buffer)) continue;
      const shown = displayPath(context, file);
      let count = 0;
      const fileLines = splitLines(buffer.toString('utf8'));
      for (let index = 0; index < fileLines.length; index += 1) {
        const line = fileLines[index]!;
        if (!regex.test(line)) continue;
        count += 1;
        if (mode !== 'content') continue;
        if (lines.length >= limit) {
          truncated = true;
          break;
        }
        lines.push(
          `${shown}:${index + 1}:${line.length > MAX_SHOWN_LINE_CHARS ? `${line.slice(0, MAX_SHOWN_LINE_CHARS)}…` : line}`,
        );
      }
      if (count > 0 && mode === 'files_with_matches') lines.push(shown);
      if (count > 0 && mode === 'count') lines.push(`${shown}:${count}`);
    }
    if (lines.length === 0) return ok(`No matches found for ${source}`);
    const body = lines.join('\n') + (truncated ? `\n(results limited to ${limit}; narrow the search)` : '');
    return ok(capText(context.redactor.redact(body)));
  },
};
