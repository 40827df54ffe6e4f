// A tool's watcher is its starter's own child, in a group of its own, without the tool's command line; it ends
// the tool's group, and the children that left it, when the starter dies (SIGKILL included, R6, R14); and the
// starter's stop() ends it, so that none outlives its tool while the starter lives.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killTree } from '../../reference-shim/tools/process-tree.js';
import {
  GUARD_FD,
  groupLine,
  markedEnv,
  ToolWatchdog,
  WATCHER_NAME,
  watcherCommand,
} from '../../reference-shim/tools/watchdog.js';

const posix = process.platform !== 'win32';
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'watchdog-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); // a zombie is gone
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

/** Every process whose command line names the marker: pid, parent, group and command line. */
function processesOf(marker: string): { pid: number; ppid: number; pgid: number; args: string }[] {
  return execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker))
    .map((line) => {
      const [pid, ppid, pgid, ...args] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), args: args.join(' ') };
    })
    .filter((info) => !info.args.startsWith('ps '));
}

const readPid = (name: string) => Number(readFileSync(path.join(dir, name), 'utf8'));

describe.runIf(posix)("a tool's watchdog", () => {
  it("runs as its starter's child in its own group, named yume-tool-watchdog, and stop() ends it", async () => {
    const marker = `m-${process.pid}-stop`;
    const watchdog = ToolWatchdog.start(spawn, { env: process.env, marker, platform: process.platform });
    const tool = spawn('sleep', ['30'], { env: markedEnv(process.env, marker), detached: true, stdio: 'ignore' });
    watchdog.watch(tool.pid);
    expect(await waitFor(() => processesOf(marker).length === 1)).toBe(true);
    const [watcher] = processesOf(marker);
    expect(watcher?.ppid).toBe(process.pid);
    expect(watcher?.pgid).toBe(watcher?.pid);
    expect(watcher?.args.startsWith(WATCHER_NAME)).toBe(true);
    expect(watcher?.args).not.toContain('sleep');
    killTree(tool.pid, marker);
    await watchdog.stop();
    // Gone the moment stop() returns (reaped, not even a zombie), and it had not ended anything itself.
    expect(processesOf(marker)).toEqual([]);
    expect(alive(watcher!.pid)).toBe(false);
  });

  it('leaves the tool alone while its starter lives', async () => {
    const marker = `m-${process.pid}-alive`;
    const watchdog = ToolWatchdog.start(spawn, { env: process.env, marker, platform: process.platform });
    const tool = spawn('sleep', ['30'], { env: markedEnv(process.env, marker), detached: true, stdio: 'ignore' });
    watchdog.watch(tool.pid);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(alive(tool.pid!)).toBe(true);
    await watchdog.stop(); // killed with SIGKILL: it ends nothing on its way out
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(tool.pid!)).toBe(true);
    killTree(tool.pid, marker);
    expect(await waitFor(() => !alive(tool.pid!))).toBe(true);
  });

  it('ends the tool, its group and (Linux) a child in its own session when its starter is killed with SIGKILL', async () => {
    const marker = `m-${process.pid}-sigkill`;
    const ownSession = process.platform === 'linux' ? 'setsid sleep 30 & echo $! > escaped.pid; ' : '';
    const command = `${ownSession}sleep 30 & echo $! > child.pid; echo $$ > tool.pid; wait`;
    const starter = startStarter(marker, command, { announce: true });
    const files = ['tool.pid', 'child.pid', ...(ownSession ? ['escaped.pid'] : [])];
    expect(await waitFor(() => files.every((name) => existsSync(path.join(dir, name))))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the pid files are written before they are read
    const pids = files.map(readPid);
    expect(pids.every(alive)).toBe(true);
    // Still running a while later: the watcher waits as long as its starter lives.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pids.every(alive)).toBe(true);
    starter.kill('SIGKILL');
    expect(await waitFor(() => pids.every((pid) => !alive(pid)))).toBe(true);
    expect(await waitFor(() => processesOf(marker).length === 0)).toBe(true); // the watcher exited too
  });

  it.runIf(process.platform === 'linux')(
    'ends the tool by its run marker when its starter dies before naming its group',
    async () => {
      const marker = `m-${process.pid}-unnamed`;
      const starter = startStarter(marker, 'echo $$ > tool.pid; sleep 30', { announce: false });
      expect(await waitFor(() => existsSync(path.join(dir, 'tool.pid')))).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const tool = readPid('tool.pid');
      expect(alive(tool)).toBe(true);
      starter.kill('SIGKILL');
      expect(await waitFor(() => !alive(tool))).toBe(true);
    },
  );
});

/**
 * A plain Node process that starts the watcher and then the tool as the shim does, holds the guard, and
 * names the tool's group to the watcher when `announce`; the test kills it.
 */
function startStarter(marker: string, command: string, { announce }: { announce: boolean }) {
  const watcher = watcherCommand({ env: process.env, marker });
  return spawn(
    process.execPath,
    [
      '-e',
      `const { spawn } = require('node:child_process');
       const [watcher, toolEnv, command, line, announce, guardFd] = JSON.parse(process.argv[1]);
       const guarded = spawn(watcher.file, watcher.args, {
         argv0: watcher.argv0, env: watcher.env, detached: true, stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
       });
       const tool = spawn('bash', ['-c', command], { env: toolEnv, detached: true, stdio: 'ignore' });
       if (announce) guarded.stdio[guardFd].write(line.replace('PID', String(tool.pid)));
       setInterval(() => {}, 1000);`,
      JSON.stringify([
        watcher,
        markedEnv(process.env, marker),
        command,
        groupLine(0).replace('0', 'PID'),
        announce,
        GUARD_FD,
      ]),
    ],
    { cwd: dir, stdio: 'ignore' },
  );
}

describe('on Windows', () => {
  it('has no watcher (no process groups to watch): stop() and killNow() do nothing', async () => {
    const spawned: string[] = [];
    const fakeSpawn = ((file: string) => {
      spawned.push(file);
      throw new Error('must not spawn');
    }) as unknown as typeof spawn;
    const watchdog = ToolWatchdog.start(fakeSpawn, { env: {}, marker: 'm', platform: 'win32' });
    watchdog.watch(123);
    watchdog.killNow();
    await watchdog.stop();
    expect(spawned).toEqual([]);
    expect(markedEnv({ A: '1' }, 'm')).toEqual({ A: '1', YUME_SHIM_TOOL_RUN: 'm' });
  });
});
