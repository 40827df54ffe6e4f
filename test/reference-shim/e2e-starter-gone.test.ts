// The reference shim ends, its tools with it, when the process that started it is gone (common/starter-watch.ts,
// cli/run.ts): on Windows a `.cmd` launcher's cmd.exe that the app's stop killed; here, on POSIX, a shell that
// started the shim without exec and is killed with SIGKILL while the shim's Bash command runs. Without the watch
// the shim waits for its command (30 s) with nobody left to read it.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../../harness/mock/mock-server.js';
import type { Scenario } from '../../harness/mock/scenario/scenario-types.js';
import { NO_HOME, removeDir, shimEnv, tempDir } from './helpers/feature-setup.js';
import { SHIM_BIN, toolUses } from './helpers/shim-process.js';

const scenario: Scenario = {
  id: 'starter-gone',
  title: 't',
  description: 'd',
  spec: 'R6; R14',
  turns: [
    {
      prompt: 'Wait with the shell.',
      responses: [
        { toolCalls: [{ id: 'b1', name: 'Bash', input: { command: 'echo $$ > bash.pid; sleep 30' } }] },
        { text: ['Done.'] },
      ],
      expect: { isError: true },
    },
  ],
};

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); // a zombie is gone
  } catch {
    return process.platform !== 'linux';
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

describe.runIf(process.platform !== 'win32')('the process that started the shim is gone', () => {
  it('ends its Bash command and exits within a second, printing nothing more', async () => {
    const mock = await startMockServer({ scenario, provider: 'openai-chat' });
    const workspace = tempDir('yume-shim-ws-');
    // `; exit $?` keeps the shell from replacing itself with the shim: it stays the shim's starter.
    const starter = spawn(
      '/bin/sh',
      [
        '-c',
        '"$0" "$@"; exit $?',
        process.execPath,
        SHIM_BIN,
        ...['--provider', 'openai', '--cwd', workspace, '--prompt', 'Wait with the shell.'],
      ],
      { env: shimEnv(NO_HOME, mock.baseUrls), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    starter.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const closed = new Promise<void>((resolve) => starter.stdout.on('close', () => resolve()));
    const pidFile = path.join(workspace, 'bash.pid');
    try {
      expect(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 15_000)).toBe(
        true,
      );
      const bash = Number(readFileSync(pidFile, 'utf8'));
      const printedBefore = stdout;
      starter.kill('SIGKILL');
      const killedAt = Date.now();
      // Only the shim holds the pipe now (its Bash command has pipes of its own): its end closes it.
      const shimExited = await Promise.race([closed.then(() => true), sleep(10_000).then(() => false)]);
      expect(shimExited, 'the shim still runs 10 s after its starter was killed').toBe(true);
      expect(Date.now() - killedAt).toBeLessThan(1500);
      expect(await waitFor(() => !running(bash), 1000), `its Bash command (pid ${bash}) still runs`).toBe(true);
      expect(stdout).toBe(printedBefore);
      const lines = parseLines(stdout);
      expect(toolUses(lines).map((use) => use.name)).toEqual(['Bash']);
      expect(lines.filter((line) => line.type === 'tool_result' || line.type === 'result')).toEqual([]);
    } finally {
      starter.kill('SIGKILL');
      await mock.close();
      removeDir(workspace);
    }
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function parseLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
