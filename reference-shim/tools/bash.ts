// Bash {command, timeout?}: `bash -c command` in --cwd, as the leader of its own process group, with a
// timeout, an output cap (head and tail kept, R9), and the whole tree killed on timeout, on interrupt and
// when the command returns (so background children never outlive the call, R6), and by its watchdog when the
// shim dies without a chance to do it (SIGKILL, watchdog.ts).

import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { randomHex } from '../output/ids.js';
import { CappedOutput } from './output-cap.js';
import { killTree } from './process-tree.js';
import { trackToolProcess } from './running-tools.js';
import { optionalInteger, requireString, type Tool, type ToolOutcome } from './types.js';
import { markedEnv, ToolWatchdog } from './watchdog.js';

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;
/** After bash exits, how long its pipes may stay open (held by a background child) before we cut them. */
const PIPE_GRACE_MS = 100;

/** Finds `bash` on PATH without spawning anything (R11: Bash is only offered where bash exists). */
export function findBash(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const names = process.platform === 'win32' ? ['bash.exe'] : ['bash'];
  const pathVariable = env.PATH ?? env.Path ?? '';
  for (const directory of pathVariable.split(delimiter)) {
    if (!directory) continue;
    for (const name of names) {
      const candidate = join(directory, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

export const bashTool: Tool = {
  spec: {
    name: 'Bash',
    description:
      'Run a shell command with bash in the working directory and return its combined stdout and stderr and exit code. Long output is capped. timeout is in milliseconds (default 120000, at most 600000).',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command line to run.' },
        timeout: { type: 'integer', description: 'Timeout in milliseconds.' },
        description: { type: 'string', description: 'A few words on what the command does.' },
      },
      required: ['command'],
    },
  },
  async run(input, context) {
    const command = requireString(input, 'command');
    // Loaded on first use: child_process is not needed by turns without Bash (start-up time).
    const { spawn } = await import('node:child_process');
    const timeoutMs = Math.min(optionalInteger(input, 'timeout', 1) ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
    const marker = `${process.pid}-${randomHex(12)}`;
    return new Promise<ToolOutcome>((resolve) => {
      const output = new CappedOutput();
      let ending: string | undefined;
      let settled = false;
      // The watcher first: until it learns the command's group, it finds the command by its run marker (Linux).
      const watchdog = ToolWatchdog.start(spawn, { env: context.env, marker, platform: process.platform });
      const child = spawn('bash', ['-c', command], {
        cwd: context.cwd,
        env: markedEnv(context.env, marker),
        detached: process.platform !== 'win32',
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
      watchdog.watch(child.pid);
      const untrack = trackToolProcess(child.pid, marker);
      const { stdout, stderr } = child;
      stdout.on('data', (chunk: Buffer) => output.push(chunk));
      stderr.on('data', (chunk: Buffer) => output.push(chunk));

      const stop = (reason: string): void => {
        ending ??= reason;
        killTree(child.pid, marker); // its exit then ends the watcher, below
      };
      const timer = setTimeout(
        () => stop(`[timed out after ${timeoutMs} ms; the command and its children were killed]`),
        timeoutMs,
      );
      const onAbort = (): void => stop('[interrupted: the command and its children were killed]');
      context.signal.addEventListener('abort', onAbort, { once: true });
      if (context.signal.aborted) onAbort();

      // The command is finished once its watcher is gone too: none outlives its tool while the shim lives.
      const finish = async (code: number | null, signal: NodeJS.Signals | null, spawnError?: Error): Promise<void> => {
        if (settled) return;
        settled = true;
        untrack();
        clearTimeout(timer);
        context.signal.removeEventListener('abort', onAbort);
        await watchdog.stop();
        let text = context.redactor.redact(output.text());
        if (spawnError) text = `Could not run bash: ${spawnError.message}`;
        const notes: string[] = [];
        if (ending) notes.push(ending);
        else if (code !== null && code !== 0) notes.push(`[exit code ${code}]`);
        else if (signal) notes.push(`[killed by ${signal}]`);
        const content = [text.replace(/\n+$/, ''), ...notes].filter((part) => part !== '').join('\n');
        resolve({ content: content || '(no output)', isError: Boolean(spawnError || ending || code !== 0 || signal) });
      };

      child.on('error', (error) => void finish(null, null, error));
      child.on('exit', (code, signal) => {
        // Background children of the command die with it; give the pipes a moment to drain first.
        const streamsClosed = Promise.all([onceClosed(stdout), onceClosed(stderr)]);
        const grace = new Promise((done) => setTimeout(done, PIPE_GRACE_MS));
        void Promise.race([streamsClosed, grace]).then(() => {
          killTree(child.pid, marker);
          stdout.destroy();
          stderr.destroy();
          void finish(code, signal);
        });
      });
    });
  },
};

function onceClosed(stream: NodeJS.ReadableStream & { closed?: boolean }): Promise<void> {
  if (stream.closed) return Promise.resolve();
  return new Promise((resolve) => stream.once('close', () => resolve()));
}
