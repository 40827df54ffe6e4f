// How the file tools read: synchronously, since they work on one file at a time and a synchronous read
// avoids a thread-pool round trip per call (open, stat, read, close: about 1 ms on a one-turn process that
// otherwise never starts the pool); and only regular files, because a synchronous read of a FIFO or a device
// could block the whole process, and with it interrupts (R6).
import { readFileSync, type Stats, statSync } from 'node:fs';
import { ToolInputError } from './types.js';

export const MAX_FILE_BYTES = 50 * 1024 * 1024;

/** The file's stats, or undefined when nothing is there. */
export function statIfExists(file: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The content of a regular file of at most 50 MB; a ToolInputError naming `requested` otherwise. */
export function readRegularFile(file: string, requested: string): Buffer {
  const info = statIfExists(file);
  if (!info) throw new ToolInputError(`File does not exist: ${requested}`);
  if (info.isDirectory()) throw new ToolInputError(`${requested} is a directory; use LS to list it.`);
  if (!info.isFile())
    throw new ToolInputError(`${requested} is not a regular file (a pipe, socket or device); it was not read.`);
  if (info.size > MAX_FILE_BYTES)
    throw new ToolInputError(`${requested} is larger than 50 MB; read a part with Bash instead.`);
  try {
    return readFileSync(file);
  } catch (error) {
    throw new ToolInputError(
      `Cannot read ${requested}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}
