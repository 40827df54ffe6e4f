import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { posix, runs } from './helpers/fixture-processes.js';

const moduleFile = fileURLToPath(new URL('../../harness/process/active-shims.ts', import.meta.url));
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

const spawnShimFile = fileURLToPath(new URL('../../harness/process/spawn-shim.ts', import.meta.url));

/**
 * A runner stand-in that exits at once with `sleep 30` running in its own group: started by spawnShim, or (when
 * `forget`) tracked by hand and forgotten again, so the exit hook has nothing to end.
 */
async function runnerThatExits(forget: boolean): Promise<number> {
  const entry = path.join(scratch, `runner-${forget}.ts`);
  writeFileSync(
    entry,
    forget
      ? `import { spawn } from 'node:child_process';
import { trackShim } from ${JSON.stringify(moduleFile)};
const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
const forget = trackShim({ kill: () => undefined, endAtExit: () => process.kill(-child.pid, 'SIGKILL') });
forget();
process.stdout.write(String(child.pid));
process.exit(0);
`
      : `import { spawnShim } from ${JSON.stringify(spawnShimFile)};
const shim = spawnShim({ shim: 'sleep', args: ['30'], cwd: process.cwd(), env: { PATH: process.env.PATH }, stdin: 'closed', timeoutMs: 60_000 });
process.stdout.write(String(shim.pid));
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
    // The bundled packages' own require() of Node's modules, in an ES module.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
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
