// How long a run's processes waited for a CPU (cpu-wait.ts): the two Linux sources, parsed, and a real
// process whose run-queue time grows while busy loops crowd it out of the machine's cores.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { cpuWaitClock, pressureSomeTotalMs, schedstatWaitMs } from '../../harness/process/cpu-wait.js';

describe('cpu wait', () => {
  it('reads the "some" total of a pressure file and the run-queue time of a schedstat line, in ms', () => {
    expect(
      pressureSomeTotalMs(
        'some avg10=1.00 avg60=0.50 avg300=0.10 total=2500000\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=7\n',
      ),
    ).toBe(2500);
    expect(pressureSomeTotalMs('full avg10=0 total=5\n')).toBeUndefined();
    expect(schedstatWaitMs('76904 3000000 12\n')).toBe(3);
    expect(schedstatWaitMs('')).toBeUndefined();
  });

  it('knows nothing off Linux, or without a pid or cgroup', () => {
    expect(cpuWaitClock({ platform: 'darwin', pid: process.pid })()).toBeUndefined();
    expect(cpuWaitClock({ platform: 'linux', pid: undefined })()).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')('sees a process wait while busy loops take every core', async () => {
    const busy = 'const end = Date.now() + 1500; while (Date.now() < end) {}';
    const crowd = Array.from({ length: availableParallelism() * 2 }, () => spawn(process.execPath, ['-e', busy]));
    const target = spawn(process.execPath, ['-e', busy]);
    try {
      const clock = cpuWaitClock({ platform: 'linux', pid: target.pid });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const before = clock();
      await new Promise((resolve) => setTimeout(resolve, 800));
      const after = clock();
      expect(before).toBeDefined();
      // Sharing the cores with twice as many busy loops, it waits for a CPU most of the time.
      expect(after! - before!).toBeGreaterThan(200);
    } finally {
      for (const child of [...crowd, target]) child.kill('SIGKILL');
    }
  });
});
