// Writes a file atomically: a temporary file in the same directory, then rename over the target, so a
// reader (or a crash) never sees half a file. An existing file keeps its permission bits.
// The calls are synchronous: one file at a time (a tool's or the session's), where each asynchronous call
// would cost a thread-pool round trip (see regular-file.ts). The function stays async for its callers.
import { mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomHex } from '../output/ids.js';

export async function writeFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
  const directory = dirname(target);
  mkdirSync(directory, { recursive: true });
  let mode: number | undefined;
  try {
    // No exception (and its stack trace) for the usual case of a new file.
    const existing = statSync(target, { throwIfNoEntry: false });
    mode = existing ? existing.mode & 0o7777 : undefined;
  } catch {
    mode = undefined;
  }
  const temporary = join(directory, `.${basename(target)}.${process.pid}.${randomHex(8)}.tmp`);
  try {
    writeFileSync(temporary, data, mode === undefined ? {} : { mode });
    renameSync(temporary, target);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // never created
    }
    throw error;
  }
}
