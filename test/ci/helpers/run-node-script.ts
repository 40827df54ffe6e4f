import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export interface ScriptResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a repository script with this Node, an explicit environment and a deadline. */
export function runNodeScript(
  script: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): ScriptResult {
  // The runner's own GitHub variables must not leak into a test of code that reads them.
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith('GITHUB_') && !key.startsWith('RUNNER_') && !key.startsWith('YUME_CI_'),
    ),
  );
  const result = spawnSync(process.execPath, [script, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...base, ...options.env },
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 30_000,
    killSignal: 'SIGKILL',
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
