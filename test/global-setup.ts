import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds dist/ (the bins the harness spawns) before any test file runs, and gives the whole test run one
 * scratch folder as its temporary directory (TMPDIR, which the test workers and every process they start
 * inherit), removed at the end: the temporary folders of tests, fake CLIs and runs do not pile up in /tmp.
 * It is world-writable with the sticky bit, as /tmp is, for the tests that run programs as another user.
 */
export default function setup(): () => void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'yume-tests-'));
  chmodSync(scratch, 0o1777);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
}
