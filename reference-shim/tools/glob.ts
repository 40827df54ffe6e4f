// Glob {pattern, path?}: matching files, relative to --cwd, sorted by path so runs are reproducible.

// fs.promises is loaded on first use (Node loads it lazily), not at start-up.
import { promises as fsp } from 'node:fs';
import { isAbsolute, normalize, relative as relativePath, resolve as resolvePath, sep } from 'node:path';
import { capText } from './output-cap.js';
import { displayPath, isInside, resolveInside } from './paths.js';
import { ok, optionalString, requireString, type Tool, type ToolContext, ToolInputError } from './types.js';

const MAX_RESULTS = 1000;
export const ALWAYS_IGNORED = ['**/node_modules/**', '**/.git/**'];

/** tinyglobby (and picomatch) are loaded on first use: most turns never glob (start-up time). */
export function loadGlobber(): Promise<typeof import('tinyglobby')> {
  return import('tinyglobby');
}

/** A pattern that climbs out (`../x`) or starts at an absolute root is refused before globbing (R11). */
export function checkPattern(context: ToolContext, pattern: string, base: string): string {
  let relative = pattern;
  if (isAbsolute(pattern) || /^[A-Za-z]:[\\/]/.test(pattern)) {
    const absolute = resolvePath(pattern);
    if (!isInside(base, absolute))
      throw new ToolInputError(`Refused: pattern ${pattern} is outside the working directory ${context.cwd}.`);
    relative = relativePath(base, absolute).split(sep).join('/') || '.';
  }
  if (relative.split(/[\\/]/).includes('..'))
    throw new ToolInputError(`Refused: pattern ${pattern} climbs out of the search directory with "..".`);
  return relative;
}

export async function searchBase(context: ToolContext, requested: string | undefined): Promise<string> {
  const base = requested ? resolveInside(context, requested) : context.cwd;
  const info = await fsp.stat(base).catch(() => undefined);
  if (!info) throw new ToolInputError(`Path does not exist: ${requested}`);
  if (!info.isDirectory()) throw new ToolInputError(`${requested} is not a directory.`);
  return base;
}

export const globTool: Tool = {
  spec: {
    name: 'Glob',
    description:
      'Find files by glob pattern (e.g. "**/*.ts", "src/*.json") inside the working directory. Returns matching paths, one per line.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Glob pattern, relative to path.' },
        path: { type: 'string', description: 'Directory to search in (default: the working directory).' },
      },
      required: ['pattern'],
    },
  },
  async run(input, context) {
    const pattern = requireString(input, 'pattern');
    const base = await searchBase(context, optionalString(input, 'path'));
    const relativePattern = checkPattern(context, pattern, base);
    const { glob } = await loadGlobber();
    const found = await glob([relativePattern], {
      cwd: base,
      absolute: true,
      onlyFiles: true,
      dot: true,
      followSymbolicLinks: false,
      ignore: ALWAYS_IGNORED,
      expandDirectories: false,
    });
    const inside = found.map((file) => normalize(file)).filter((file) => isInside(context.cwd, file));
    if (inside.length === 0) return ok(`No files found for ${pattern}`);
    const shown = inside.map((file) => displayPath(context, file)).sort();
    const listed = shown.slice(0, MAX_RESULTS).join('\n');
    return ok(
      capText(
        shown.length > MAX_RESULTS
          ? `${listed}\n(${shown.length - MAX_RESULTS} more files not shown; narrow the pattern)`
          : listed,
      ),
    );
  },
};
