// What the real-CLI wrapper can see of the stdin a shim gave a real codex (which, like the fake, reads stdin
// to EOF whenever it is not a terminal, and waits for ever when the shim leaves it open). `cat` reads it
// with a time limit: a blocking reader that leaves the file description's flags alone (a Node stream would
// make the pipe non-blocking for the CLI that inherits it). What was read is handed on to the CLI from a file.
import { spawnSync } from 'node:child_process';
import { isatty } from 'node:tty';

export type StdinProbe =
  /** Not read: a terminal (the CLI would not read it either), or `cat` could not run (the CLI gets it as it is). */
  | { kind: 'terminal' }
  | { kind: 'unread'; reason: string }
  /** EOF came within the limit, after these bytes. */
  | { kind: 'closed'; data: Buffer }
  /** Still open when the limit passed. */
  | { kind: 'open'; waitedMs: number };

/** Up to this much of stdin is handed on to the CLI (a prompt piped in; the rest would be a flood). */
const MAX_STDIN_BYTES = 64 * 1024 * 1024;

export function probeStdin(limitMs: number): StdinProbe {
  if (isatty(0)) return { kind: 'terminal' };
  const started = Date.now();
  const read = spawnSync('cat', [], {
    stdio: [0, 'pipe', 'ignore'],
    timeout: limitMs,
    killSignal: 'SIGKILL',
    maxBuffer: MAX_STDIN_BYTES,
  });
  const data = read.stdout ?? Buffer.alloc(0);
  const code = (read.error as NodeJS.ErrnoException | undefined)?.code;
  // Bytes read before the limit are not handed on: a shim that writes without ending stdin fails the rule anyway.
  if (code === 'ETIMEDOUT') return { kind: 'open', waitedMs: Date.now() - started };
  if (read.error || read.status !== 0)
    return { kind: 'unread', reason: read.error?.message ?? `cat exited ${read.status}` };
  return { kind: 'closed', data };
}
