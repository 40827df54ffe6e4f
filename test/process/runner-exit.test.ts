import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { posix, runs } from './helpers/fixture-processes.js';

const moduleFile = fileURLToPath(new URL('../../harness/process/runner-exit.ts', import.meta.url));
const scratch = mkdtempSync(path.join(os.tmpdir(), 'runner-exit-'));
const leftovers: number[] = [];
afterAll(() => {
  for (const pid of leftovers) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** A runner stand-in: starts `sleep 30` in its own group, registers it (then forgets it, if asked), exits at once. */
async function runnerThatExits(forget: boolean): Promise<number> {
  const entry = path.join(scratch, `runner-${forget}.ts`);
  writeFileSync(
    entry,
    `import { spawn } from 'node:child_process';
import { endOnRunnerExit } from ${JSON.stringify(moduleFile)};
const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
const forget = endOnRunnerExit(child, true);
${forget ? 'forget();' : ''}
process.stdout.write(String(child.pid));
process.exit(0);
`,
  );
  const bundled = path.join(scratch, `runner-${forget}.mjs`);
  await build({
    entryPoints: [entry],
    outfile: bundled,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
  });
  const pid = Number(execFileSync(process.execPath, [bundled], { encoding: 'utf8', timeout: 10_000 }));
  leftovers.push(pid);
  return pid;
}

async function gone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    if (!(await runs(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe.runIf(posix)('a runner that exits with shims still running', () => {
  it('ends them, with their groups', async () => {
    expect(await gone(await runnerThatExits(false))).toBe(true);
  });

  it('leaves alone a process it was told is over (so the check above is not vacuous)', async () => {
    expect(await gone(await runnerThatExits(true))).toBe(false);
  });
});
