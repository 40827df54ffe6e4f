// The one switch onto the macOS paths (R20): YUME_CONFORMANCE_PLATFORM_PATHS=darwin, read by runnerPlatform(), and
// what each platform branch of the runner does with it. The whole suite on those paths runs in
// test/platforms/macos-paths.platforms.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { SuiteCgroup } from '../../harness/process/cgroup.js';
import { cpuWaitClock } from '../../harness/process/cpu-wait.js';
import { hasProcFiles, PLATFORM_PATHS_VARIABLE, runnerPlatform } from '../../harness/process/platform.js';
import {
  LinuxProcessTable,
  PsProcessTable,
  pollIntervalFor,
  processTableFor,
} from '../../harness/process/process-table.js';
import { startedNotBefore } from '../../harness/process/untied-orphans.js';
import { chooseScratchDirectory } from '../../harness/runner/setup/scratch-dir.js';

const saved = { ...process.env };
afterEach(() => {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
});

describe('runnerPlatform', () => {
  it('is the machine’s own platform unless the switch names darwin', () => {
    expect(runnerPlatform({}, 'linux')).toBe('linux');
    expect(runnerPlatform({ [PLATFORM_PATHS_VARIABLE]: '' }, 'linux')).toBe('linux');
    expect(runnerPlatform({ [PLATFORM_PATHS_VARIABLE]: 'darwin' }, 'linux')).toBe('darwin');
    expect(runnerPlatform({ [PLATFORM_PATHS_VARIABLE]: 'darwin' }, 'darwin')).toBe('darwin');
  });

  it('refuses any other value, and darwin on Windows, with one line naming the switch', () => {
    expect(() => runnerPlatform({ [PLATFORM_PATHS_VARIABLE]: 'macos' }, 'linux')).toThrow(
      /^YUME_CONFORMANCE_PLATFORM_PATHS=macos: only "darwin" is supported/,
    );
    expect(() => runnerPlatform({ [PLATFORM_PATHS_VARIABLE]: 'darwin' }, 'win32')).toThrow(/only "darwin"/);
  });
});

describe('the darwin paths', () => {
  it('read the process table through ps, sampled less often, and have no /proc files', () => {
    expect(processTableFor('darwin')).toBeInstanceOf(PsProcessTable);
    expect(processTableFor('linux')).toBeInstanceOf(LinuxProcessTable);
    expect(pollIntervalFor('darwin')).toBe(300);
    expect(hasProcFiles('darwin')).toBe(false);
    expect(hasProcFiles('linux')).toBe(true);
  });

  it('have no cgroup and no CPU-wait clock, even on a Linux machine', () => {
    expect(SuiteCgroup.create('darwin', {})).toEqual({
      mechanism: 'process-group',
      detail: 'cgroups exist only on Linux',
    });
    expect(cpuWaitClock({ platform: 'darwin', pid: process.pid })()).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')('never choose /dev/shm for the run folders', () => {
    delete process.env.TMPDIR;
    delete process.env.YUME_CONFORMANCE_SCRATCH_DIR;
    process.env[PLATFORM_PATHS_VARIABLE] = 'darwin';
    expect(chooseScratchDirectory()).toMatchObject({ reason: 'the system temporary folder' });
  });

  it.runIf(process.platform === 'linux')(
    'the ps table lists this process, and calls made together each get a table',
    async () => {
      const table = new PsProcessTable();
      const [first, second] = await Promise.all([table.snapshot(), table.snapshot()]);
      const own = first.find((info) => info.pid === process.pid);
      expect(own).toMatchObject({ ppid: process.ppid, name: 'node' });
      expect(startedNotBefore(own!.start, own!.start)).toBe(true);
      expect(second.some((info) => info.pid === process.pid)).toBe(true);
    },
  );
});

describe('start times compared by the untied-orphan check', () => {
  it('compares ticks as numbers and ps dates to the second', () => {
    expect(startedNotBefore('1000', '999')).toBe(true);
    expect(startedNotBefore('999', '1000')).toBe(false);
    expect(startedNotBefore('Sat Nov 28 02:13:04 2026', 'Sat Nov 28 02:13:04 2026')).toBe(true);
    expect(startedNotBefore('Sat Nov 28 02:13:05 2026', 'Sat Nov 28 02:13:04 2026')).toBe(true);
    expect(startedNotBefore('Sat Nov 28 02:13:03 2026', 'Sat Nov 28 02:13:04 2026')).toBe(false);
    expect(startedNotBefore('Sun Nov  1 09:00:00 2026', 'Sat Oct 31 23:59:59 2026')).toBe(true);
  });

  it('cannot compare what it cannot read', () => {
    expect(startedNotBefore('t100', 't99')).toBeUndefined();
    expect(startedNotBefore('1000', 'Sat Nov 28 02:13:04 2026')).toBeUndefined();
  });
});
