// Helpers shared by the process-layer tests.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processTableFor } from '../../../harness/process/process-table.js';

export const shimsDir = fileURLToPath(new URL('../../fixtures/shims/', import.meta.url));
export const fixtureShim = (name: string) => path.join(shimsDir, name);

export const baseEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? '/usr/bin:/bin' });

export const posix = process.platform !== 'win32';

/** Whether a pid runs (a zombie counts as gone), from the platform's process table. */
export async function runs(pid: number): Promise<boolean> {
  const snapshot = await processTableFor(process.platform).snapshot();
  const info = snapshot.find((entry) => entry.pid === pid);
  return info !== undefined && info.state !== 'Z' && info.state !== 'X';
}
