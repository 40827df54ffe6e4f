import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
  // The suites tests run watch a "real home" and a "system temp folder" of the tests' own, never the
  // developer's (harness/suite/home-temp-watch.ts): what other tests write meanwhile is no note of theirs.
  const watched = { YUME_CONFORMANCE_REAL_HOME: 'real-home', YUME_CONFORMANCE_SYSTEM_TEMP: 'system-temp' };
  const previousWatched = Object.fromEntries(Object.keys(watched).map((name) => [name, process.env[name]]));
  for (const [name, folder] of Object.entries(watched)) {
    process.env[name] = path.join(scratch, folder);
    mkdirSync(process.env[name]!);
  }
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    for (const [name, value] of Object.entries(previousWatched)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
}
