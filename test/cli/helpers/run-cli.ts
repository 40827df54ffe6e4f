// Runs the built `yume-conformance` bin (dist/cli.js, built by the global setup) as a user does.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.join(import.meta.dirname, '..', '..', '..');
const cli = path.join(root, 'dist', 'cli.js');

/** Runs the built bin (asynchronously, so the tests of this file run concurrently) with a 30 s timeout. */
export function runCli(
  args: string[],
  options: { input?: Buffer | string; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...options.env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env,
      cwd: options.cwd ?? root,
      timeout: 30_000,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
