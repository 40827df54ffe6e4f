// Writes a file atomically: a temporary file in the same directory, then rename over the target, so a
// reader (or a crash) never sees half a file. An existing file keeps its permission bits.
import { randomHex } from '../output/ids.js';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writeFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
  const directory = path.dirname(target);
  await mkdir(directory, { recursive: true });
  let mode: number | undefined;
  try {
    mode = (await stat(target)).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  const temporary = path.join(directory, `.${path.basename(target)}.${process.pid}.${randomHex(8)}.tmp`);
  try {
    await writeFile(temporary, data, mode === undefined ? {} : { mode });
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
