// Runs one official CLI process to its end within a time bound, in its own process group so that a CLI
// that relaunches itself (gemini) or starts tools is ended as a whole. Used by the differential test,
// the pinned-data recorder and the drift check; the runner's shim processes go through harness/process.
import { spawn } from 'node:child_process';

export interface BoundedRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

export interface BoundedRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Run as this user (the caller must be root). */
  user?: { uid: number; gid: number };
  /** Written to stdin, which is then closed (default: closed at once). */
  stdin?: string;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') process.kill(pid, 'SIGKILL');
    else process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function runBounded(file: string, args: readonly string[], options: BoundedRunOptions): Promise<BoundedRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(file, [...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      if (stdout.length < 4 * 1024 * 1024) stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      if (stderr.length < 4 * 1024 * 1024) stderr += text;
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeoutMs);
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      // Whatever the CLI left behind in its group (a relaunched worker, a tool) ends with it.
      killGroup(child.pid);
      resolve({ exitCode, signal, stdout, stderr, timedOut, durationMs: Date.now() - started });
    };
    child.on('error', (error) => {
      stderr += `${error.message}\n`;
      finish(null, null);
    });
    child.on('close', finish);
  });
}
