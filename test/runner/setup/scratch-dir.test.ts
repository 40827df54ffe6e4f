import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chooseScratchDirectory,
  MIN_FREE_BYTES,
  SCRATCH_DIR_VARIABLE,
  type ScratchProbe,
  suiteScratchDirectory,
  tmpfsMountOptions,
} from '../../../harness/runner/setup/scratch-dir.js';
import { createRunDirectories, removeRunDirectories } from '../../../harness/runner/setup/workspace.js';

const MOUNTINFO = [
  '22 1 252:0 / / rw,relatime shared:1 - ext4 /dev/vda rw',
  '25 22 0:21 / /dev/shm rw,nosuid,nodev shared:3 - tmpfs tmpfs rw,size=24684084k',
  '30 22 0:25 / /run rw,nosuid,nodev,noexec shared:5 - tmpfs tmpfs rw,mode=755',
].join('\n');

function probe(overrides: Partial<ScratchProbe> = {}): ScratchProbe {
  return {
    platform: 'linux',
    env: {},
    tmpfsOptions: (dir) => tmpfsMountOptions(MOUNTINFO, dir),
    freeBytes: () => 10 * MIN_FREE_BYTES,
    writable: () => true,
    tmpdir: () => '/tmp',
    ...overrides,
  };
}

describe('scratch directory', () => {
  it('reads a mount point’s options only when it is a tmpfs, the last mount winning', () => {
    expect(tmpfsMountOptions(MOUNTINFO, '/dev/shm')).toEqual(['rw', 'nosuid', 'nodev']);
    expect(tmpfsMountOptions(MOUNTINFO, '/run')).toContain('noexec');
    expect(tmpfsMountOptions(MOUNTINFO, '/')).toBeUndefined();
    expect(tmpfsMountOptions(MOUNTINFO, '/nowhere')).toBeUndefined();
    const remounted = `${MOUNTINFO}\n40 22 0:30 / /dev/shm rw shared:9 - ext4 /dev/vdb rw`;
    expect(tmpfsMountOptions(remounted, '/dev/shm')).toBeUndefined();
  });

  it('uses /dev/shm on Linux when it is a writable tmpfs that runs programs and has room', () => {
    expect(chooseScratchDirectory(probe())).toEqual({ directory: '/dev/shm', reason: 'tmpfs, in memory' });
  });

  it('stays in the temporary folder when /dev/shm does not qualify', () => {
    const noexec = `${MOUNTINFO.replace('rw,nosuid,nodev shared:3', 'rw,nosuid,nodev,noexec shared:3')}`;
    for (const unusable of [
      probe({ tmpfsOptions: (dir) => tmpfsMountOptions(noexec, dir) }),
      probe({ freeBytes: () => 64 * 1024 * 1024 }), // Docker's default size
      probe({ freeBytes: () => undefined }),
      probe({ writable: () => false }),
      probe({ tmpfsOptions: () => undefined }),
      probe({ platform: 'darwin' }),
    ]) {
      expect(chooseScratchDirectory(unusable).directory).toBe('/tmp');
    }
  });

  it('keeps a TMPDIR the user set, and takes YUME_CONFORMANCE_SCRATCH_DIR first', () => {
    expect(chooseScratchDirectory(probe({ env: { TMPDIR: '/var/tmp/mine' }, tmpdir: () => '/var/tmp/mine' }))).toEqual({
      directory: '/var/tmp/mine',
      reason: 'the temporary folder TMPDIR names',
    });
    const chosen = mkdtempSync(path.join(os.tmpdir(), 'scratch-choice-'));
    try {
      const wanted = path.join(chosen, 'made-if-missing');
      expect(
        chooseScratchDirectory(probe({ env: { TMPDIR: '/var/tmp/mine', [SCRATCH_DIR_VARIABLE]: wanted } })).directory,
      ).toBe(wanted);
    } finally {
      rmSync(chosen, { recursive: true, force: true });
    }
    expect(() => chooseScratchDirectory(probe({ env: { [SCRATCH_DIR_VARIABLE]: 'relative/dir' } }))).toThrow(
      /YUME_CONFORMANCE_SCRATCH_DIR=relative\/dir: give an absolute folder/,
    );
  });

  it('keeps real official CLIs in the system temporary folder unless the variable says otherwise', () => {
    expect(suiteScratchDirectory('real', {}).directory).toBe(os.tmpdir());
  });

  it('puts run folders in the base they are given', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'scratch-base-'));
    try {
      const made = await createRunDirectories('scratch-test', undefined, { base });
      expect(path.dirname(made.root)).toBe(base);
      await removeRunDirectories(made);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
