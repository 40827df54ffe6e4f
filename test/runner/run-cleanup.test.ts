// A run whose folders cannot be removed (R20): what the run left is ended and the removal tried again; if it still
// fails, the run gets a process.descendants-gone finding naming its processes still alive (or an unknown process),
// never a harness error. Windows refuses to remove a folder a live process works in (EBUSY); Linux does not, so
// the remover here refuses the same way, while a real process of the run has its working folder inside.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LinuxProcessTable, type ProcessInfo } from '../../harness/process/process-table.js';
import type { RunResult } from '../../harness/runner/results/run-types.js';
import { cleanupFinding, removeRunFolders, withCleanupFinding } from '../../harness/runner/run-cleanup.js';
import { type RunDirectories, removeRunDirectories } from '../../harness/runner/setup/workspace.js';
import { describeFindings, fixtureShim, processesWithArgument, runFixture } from './helpers/run-fixture.js';

const linux = process.platform === 'linux';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Pids of live processes whose working folder is inside `root` (Linux /proc/<pid>/cwd). */
function workingInside(root: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      if (cwd === root || cwd.startsWith(`${root}/`)) found.push(Number(entry));
    } catch {
      // gone, or a kernel thread
    }
  }
  return found;
}

/** Removes as Windows does: EBUSY while a live process works inside the folder. */
async function removeLikeWindows(directories: RunDirectories): Promise<void> {
  const holders = workingInside(directories.root);
  if (holders.length > 0)
    throw Object.assign(new Error(`EBUSY: resource busy or locked, rmdir '${directories.root}' (pids ${holders})`), {
      code: 'EBUSY',
    });
  await removeRunDirectories(directories);
}

function runFolder(): RunDirectories {
  const root = mkdtempSync(path.join(os.tmpdir(), 'run-cleanup-'));
  const workspace = path.join(root, 'workspace');
  mkdirSync(workspace);
  return { root, workspace, home: root, bin: root, state: root, temp: root };
}

/** A real process working in the run's workspace, as a tool the shim left would. */
async function toolIn(directories: RunDirectories): Promise<ProcessInfo> {
  const child = spawn('sleep', ['30'], { cwd: directories.workspace, stdio: 'ignore' });
  const table = new LinuxProcessTable();
  for (let tries = 0; tries < 100; tries += 1) {
    const info = table.info(child.pid!);
    if (info?.name === 'sleep') return info;
    await sleep(20);
  }
  throw new Error('sleep did not start');
}

const executedWith = (descendants: ProcessInfo[]) => [{ exit: { descendantsSeen: descendants } }];
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.runIf(linux)('a run folder that cannot be removed', () => {
  it('is removed once the run’s leftover process is ended: no finding', async () => {
    const directories = runFolder();
    const tool = await toolIn(directories);
    const failure = await removeRunFolders(directories, {
      platform: 'linux',
      processes: executedWith([tool]),
      remove: removeLikeWindows,
    });
    expect(failure).toBeUndefined();
    expect(existsSync(directories.root)).toBe(false);
    expect(alive(tool.pid)).toBe(false);
  });

  it('names the process still alive when it cannot be ended (as taskkill denied): a failing finding', async () => {
    const directories = runFolder();
    const tool = await toolIn(directories);
    try {
      const failure = await removeRunFolders(directories, {
        platform: 'linux',
        processes: executedWith([tool]),
        remove: removeLikeWindows,
        end: async () => undefined,
      });
      expect(failure?.error).toMatch(/^EBUSY: /);
      expect(failure?.alive.map((info) => info.pid)).toEqual([tool.pid]);
      const finding = cleanupFinding(failure!, directories.root);
      expect(finding).toMatchObject({ rule: 'process.descendants-gone', severity: 'MUST' });
      expect(finding.message).toContain(`could not be removed (EBUSY: `);
      expect(finding.message).toContain(`still alive after the harness ended them: sleep (pid ${tool.pid})`);
      const passed = { status: 'passed', findings: [] } as unknown as RunResult;
      expect(withCleanupFinding(passed, failure!, directories.root).status).toBe('failed');
    } finally {
      process.kill(tool.pid, 'SIGKILL');
      rmSync(directories.root, { recursive: true, force: true });
    }
  });

  it('says "an unknown process" when none of the run’s processes is alive', async () => {
    const directories = runFolder();
    try {
      const failure = await removeRunFolders(directories, {
        platform: 'linux',
        processes: executedWith([]),
        remove: async () => {
          throw Object.assign(new Error('ENOTEMPTY: directory not empty'), { code: 'ENOTEMPTY' });
        },
      });
      expect(cleanupFinding(failure!, directories.root).message).toMatch(
        /could not be removed \(ENOTEMPTY: directory not empty\); it is held by an unknown process/,
      );
    } finally {
      rmSync(directories.root, { recursive: true, force: true });
    }
  });

  it('end to end: a process the shim left in the workspace is named on a failed run, not a harness error', async () => {
    // Without a cgroup the double fork's escape is tied to the run by nothing (never killed by guess), and it
    // keeps working in the run's workspace.
    let root: string | undefined;
    const result = await runFixture(fixtureShim('double-forks-into-new-session.mjs'), 'plain-text', {
      isolation: 'process-group',
      removeDirectories: async (directories) => {
        root = directories.root;
        await removeLikeWindows(directories);
      },
    });
    const escaped = processesWithArgument(`escape-${result.tag}`);
    try {
      expect(escaped.length).toBe(1);
      expect(result.status, describeFindings(result)).toBe('failed');
      expect(result.error).toBeUndefined();
      const finding = result.findings.find((candidate) => candidate.message.includes('could not be removed'));
      expect(finding?.rule, describeFindings(result)).toBe('process.descendants-gone');
      expect(finding?.message).toContain(`(EBUSY: `);
      expect(finding?.message).toContain(`node (pid ${escaped[0]})`);
    } finally {
      for (const pid of escaped) process.kill(pid, 'SIGKILL');
      await sleep(100);
      if (root) rmSync(root, { recursive: true, force: true });
    }
  });
});
