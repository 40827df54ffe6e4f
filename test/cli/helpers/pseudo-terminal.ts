// Runs a command under a pseudo-terminal, so that its stdout and stderr are TTYs, with no native module:
// util-linux's `script`, or python3's `pty` module where `script` is missing. The whole process group is
// killed at the timeout.
import { spawn, spawnSync } from 'node:child_process';

/** How this machine can give a command a terminal, or undefined when it cannot. */
export function pseudoTerminalCommand(argv: readonly string[]): string[] | undefined {
  const quoted = argv.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  if (spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0)
    return ['script', '-qfec', quoted, '/dev/null'];
  if (spawnSync('python3', ['-c', 'import pty'], { stdio: 'ignore' }).status === 0)
    return ['python3', '-c', 'import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)', ...argv];
  return undefined;
}

/** Everything the terminal showed (stdout and stderr together, as a terminal does) and the exit code. */
export function runInPseudoTerminal(
  argv: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs: number },
): Promise<{ code: number | null; output: string }> {
  const command = pseudoTerminalCommand(argv);
  if (!command) return Promise.reject(new Error('neither `script` (util-linux) nor python3 is installed'));
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
      reject(new Error(`timed out after ${options.timeoutMs} ms; the terminal showed:\n${output}`));
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
