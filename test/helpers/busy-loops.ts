// Busy loops beside a test: child processes that each spin on a core, so what runs meanwhile shares an
// oversubscribed machine (R19's proof runs the suite beside twice as many loops as cores). Each loop ends itself
// after `maxMs`, so none outlives a test worker that was killed; stop() ends the ones still spinning by their pid
// and waits for them, and the caller calls it in a `finally`, so a failing or timed-out test ends them too.
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** One loop: spins until its own deadline, then exits 0. */
const SPIN = 'const end = Date.now() + Number(process.argv[1]); while (Date.now() < end) {}';
/** How long stop() waits for a killed loop to be reaped. */
const REAP_MS = 5000;

export interface BusyLoops {
  /** How many loops were started. */
  count: number;
  /** Loops still spinning right now (a loop that ended early left the machine less busy than promised). */
  spinning(): number;
  /** Ends every loop still running (SIGKILL by pid) and waits until each has exited. */
  stop(): Promise<void>;
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

function exited(child: ChildProcess): Promise<void> {
  if (!running(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, REAP_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Starts `perCore` busy loops per core (default 2), each bounded by `maxMs` of wall time. */
export function startBusyLoops(options: { maxMs: number; perCore?: number }): BusyLoops {
  const count = availableParallelism() * (options.perCore ?? 2);
  const loops = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', SPIN, String(options.maxMs)], { stdio: 'ignore' }),
  );
  return {
    count,
    spinning: () => loops.filter(running).length,
    async stop() {
      for (const loop of loops) {
        if (running(loop) && loop.pid !== undefined) {
          try {
            process.kill(loop.pid, 'SIGKILL');
          } catch {
            // ended by itself meanwhile
          }
        }
      }
      await Promise.all(loops.map(exited));
    },
  };
}
