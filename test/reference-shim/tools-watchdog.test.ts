// A tool started under its watchdog runs as if started directly (pid, group, output, exit status), and dies
// when the process that started it dies, SIGKILL included (R6, R14), with the children that left its group.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GUARD_FD, releaseGuard, watchedSpawn } from '../../reference-shim/tools/watchdog.js';

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

const readPid = (name: string) => Number(readFileSync(path.join(dir, name), 'utf8'));
const bash = (command: string) =>
  watchedSpawn('bash', ['-c', command], { env: process.env, marker: 'm-test', platform: process.platform });

describe.runIf(posix)('a tool under its watchdog', () => {
  it('keeps its pid as the group leader, its output, its exit status and its run marker', async () => {
    const watched = bash('echo "$$ $(ps -o pgid= -p $$) $YUME_SHIM_TOOL_RUN"; echo oops >&2; exit 7');
    expect(watched.guarded).toBe(true);
    const child = spawn(watched.file, watched.args, {
      env: watched.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    releaseGuard(child);
    await new Promise((resolve) => child.on('close', resolve));
    const [pid, group, marker] = stdout.trim().split(/\s+/);
    expect(Number(pid)).toBe(child.pid);
    expect(Number(group)).toBe(child.pid);
    expect(marker).toBe('m-test');
    expect(stderr).toBe('oops\n');
    expect(code).toBe(7);
  });

  it.runIf(process.platform === 'linux')("hides the tool's command line from the watcher", async () => {
    const watched = bash('sleep 30');
    const child = spawn(watched.file, watched.args, {
      env: watched.env,
      detached: true,
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    });
    // The watcher is the process of the tool's group that is not the tool.
    const others = () =>
      execFileSync('ps', ['-o', 'pid=,args=', '-g', String(child.pid)], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .filter((line) => Number(line.trim().split(/\s+/)[0]) !== child.pid);
    expect(await waitFor(() => existsSync(`/proc/${child.pid}`))).toBe(true);
    let lines: string[] = [];
    for (let attempt = 0; attempt < 40 && !lines.some((line) => line.includes('yume-tool-watchdog')); attempt += 1) {
      lines = others();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(lines.join('\n')).toContain('yume-tool-watchdog');
    expect(lines.join('\n')).not.toContain('sleep 30');
    releaseGuard(child);
    expect(await waitFor(() => !alive(child.pid!))).toBe(true);
  });

  it('dies, with its group and (Linux) a child in its own session, when its starter is killed with SIGKILL', async () => {
    const ownSession = process.platform === 'linux' ? 'setsid sleep 30 & echo $! > escaped.pid; ' : '';
    const watched = bash(`${ownSession}sleep 30 & echo $! > child.pid; echo $$ > tool.pid; wait`);
    // The starter is a plain Node process that holds the guard, as the shim does; the test kills it.
    const starter = spawn(
      process.execPath,
      [
        '-e',
        `const { spawn } = require('node:child_process');
         const [file, args, env] = JSON.parse(process.argv[1]);
         spawn(file, args, { env, cwd: process.argv[2], detached: true, stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
         setInterval(() => {}, 1000);`,
        JSON.stringify([watched.file, watched.args, watched.env]),
        dir,
      ],
      { stdio: 'ignore' },
    );
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
  });
});

describe('on Windows', () => {
  it('starts the tool as it is, with its run marker (no process groups to watch)', () => {
    const watched = watchedSpawn('bash.exe', ['-c', 'x'], { env: { A: '1' }, marker: 'm', platform: 'win32' });
    expect(watched).toEqual({
      file: 'bash.exe',
      args: ['-c', 'x'],
      env: { A: '1', YUME_SHIM_TOOL_RUN: 'm' },
      guarded: false,
    });
    expect(GUARD_FD).toBe(3);
  });
});
