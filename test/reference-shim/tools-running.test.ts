// The running tools' registry: endRunningToolsNow() ends the tree of every tool still tracked, at once, and
// leaves alone a tool that was forgotten once it ended (its pid may be another process's by then).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { endRunningToolsNow, trackToolProcess } from '../../reference-shim/tools/running-tools.js';

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end && !check()) await new Promise((resolve) => setTimeout(resolve, 25));
  return check();
}

const exited = (child: ReturnType<typeof spawn>) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

describe.runIf(process.platform !== 'win32')('endRunningToolsNow', () => {
  it('ends the process group of each tracked tool, and not a forgotten one', async () => {
    // Each tool leads a group of its own, with a child in it, as the Bash tool starts them.
    const tracked = spawn('sh', ['-c', 'sleep 30 & wait'], { detached: true, stdio: 'ignore' });
    const forgotten = spawn('sh', ['-c', 'sleep 30 & wait'], { detached: true, stdio: 'ignore' });
    trackToolProcess(tracked.pid, 'marker-tracked');
    const forget = trackToolProcess(forgotten.pid, 'marker-forgotten');
    forget();
    try {
      endRunningToolsNow();
      await exited(tracked);
      expect(tracked.signalCode).toBe('SIGKILL');
      // Its group went with it (the group's orphaned sleep may linger a moment as a zombie).
      expect(await waitFor(() => !running(-tracked.pid!), 2000)).toBe(true);
      expect(running(forgotten.pid!)).toBe(true);
      // Ended once: a second call has nothing left to end.
      endRunningToolsNow();
      expect(running(forgotten.pid!)).toBe(true);
    } finally {
      for (const child of [forgotten, tracked]) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  });
});
