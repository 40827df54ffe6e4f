// Runs one child process with a deadline and, when the deadline passes or this process is told to stop,
// ends the child's whole process tree: a process group on POSIX, `taskkill /T` on Windows (no signals there).
// Plain Node only: this file ships in the GitHub action, which runs before any dependency is installed.
import { spawn, spawnSync } from 'node:child_process';

/**
 * @param {string} command executable (an absolute path or a name on PATH; never a shell string)
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs: number,
 *           onStdout?: (chunk: Buffer) => void, onStderr?: (chunk: Buffer) => void }} options
 * @returns {Promise<{ exitCode: number | null, signal: string | null, timedOut: boolean, error?: Error }>}
 */
export function runWithTimeout(command, args, options) {
  const isWindows = process.platform === 'win32';
  const capture = Boolean(options.onStdout || options.onStderr);
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(command, args, {
        cwd: options.cwd,
        env: options.env ?? process.env,
        // Own process group on POSIX so the whole tree can be signalled at once.
        detached: !isWindows,
        windowsHide: true,
        stdio: capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
      });
    } catch (error) {
      resolve({ exitCode: null, signal: null, timedOut: false, error: /** @type {Error} */ (error) });
      return;
    }
    if (capture) {
      child.stdout?.on('data', (chunk) => options.onStdout?.(chunk));
      child.stderr?.on('data', (chunk) => options.onStderr?.(chunk));
    }

    let timedOut = false;
    let settled = false;
    const killTree = () => {
      if (child.pid === undefined) return;
      if (isWindows) {
        spawnSync('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      } else {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // The group is already gone.
        }
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killTree();
    }, options.timeoutMs);
    // A cancelled CI job sends SIGTERM/SIGINT to this process; take the child's tree down with it.
    const onStop = () => {
      killTree();
      process.exit(130);
    };
    process.once('SIGINT', onStop);
    process.once('SIGTERM', onStop);
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      process.removeListener('SIGINT', onStop);
      process.removeListener('SIGTERM', onStop);
      resolve(result);
    };
    // Grandchildren may outlive a child that exited on its own and keep its pipes open; they belong to the
    // same tree, so end the group as soon as the child itself is gone.
    child.on('exit', () => {
      if (!isWindows) killTree();
    });
    child.on('error', (error) => finish({ exitCode: null, signal: null, timedOut, error }));
    child.on('close', (exitCode, signal) => finish({ exitCode, signal, timedOut }));
  });
}
