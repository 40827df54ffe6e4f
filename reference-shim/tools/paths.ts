// Confines tool paths to --cwd (R11): relative paths resolve against it, absolute paths inside it are fine,
// and anything that ends up outside — through `..`, an absolute path or a symlink — is refused.
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative as relativePath, resolve as resolvePath, sep } from 'node:path';
import { type ToolContext, ToolInputError } from './types.js';

export function isInside(root: string, candidate: string): boolean {
  const relative = relativePath(root, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${sep}`) && !isAbsolute(relative));
}

/** The real path of `target`: the deepest existing ancestor resolved through symlinks, plus the rest. */
function realPathOf(target: string): string {
  let existing = target;
  const rest: string[] = [];
  for (;;) {
    try {
      if (lstatSync(existing, { throwIfNoEntry: false })) break;
    } catch {
      // unreadable: treated as missing, like a path that is not there
    }
    const parent = dirname(existing);
    if (parent === existing) return target;
    rest.unshift(basename(existing));
    existing = parent;
  }
  try {
    return join(realpathSync.native(existing), ...rest);
  } catch {
    // A symlink whose target does not exist: we cannot tell where a write would land.
    throw new ToolInputError(`Refused: ${target} is a broken symlink.`);
  }
}

/**
 * Resolves a path given by the model to an absolute OS path inside the working directory, or throws a
 * ToolInputError that names the path and the directory it must stay in.
 */
export function resolveInside(context: ToolContext, requested: string): string {
  // Models trained on POSIX paths send forward slashes on Windows too; path.resolve accepts both there.
  const absolute = resolvePath(context.cwd, requested);
  const refusal = `Refused: ${requested} is outside the working directory ${context.cwd}; tools may only touch files inside it.`;
  if (!isInside(context.cwd, absolute) && !isInside(context.realCwd, absolute)) throw new ToolInputError(refusal);
  const real = realPathOf(absolute);
  if (!isInside(context.realCwd, real)) {
    throw new ToolInputError(
      `Refused: ${requested} resolves through a symlink to ${real}, outside the working directory ${context.cwd}.`,
    );
  }
  return absolute;
}

/** How a path is shown to the model: relative to --cwd with forward slashes, "." for the directory itself. */
export function displayPath(context: ToolContext, absolute: string): string {
  const relative = relativePath(context.cwd, absolute);
  return relative === '' ? '.' : relative.split(sep).join('/');
}
