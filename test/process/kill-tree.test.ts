import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DescendantTracker } from '../../harness/process/descendants.js';
import { killTree, taskkillCommand } from '../../harness/process/kill-tree.js';
import { processTableFor } from '../../harness/process/process-table.js';
import { posix, runs } from './helpers/fixture-processes.js';

describe('taskkillCommand', () => {
  it('ends a pid with its child tree, by force', () => {
    expect(taskkillCommand(4321)).toEqual({ file: 'taskkill', args: ['/pid', '4321', '/T', '/F'] });
  });
});

describe.runIf(posix)('killTree (POSIX)', () => {
  it('ends a group that ignores SIGTERM with SIGKILL, and a descendant in a group of its own', async () => {
    // A leader that ignores SIGTERM, with one child in its group and one detached into its own group.
    const script = `
      const { spawn } = require('node:child_process');
      process.on('SIGTERM', () => {});
      const keep = ['-e', 'process.on("SIGTERM",()=>{});setTimeout(()=>{},30000)'];
      const a = spawn(process.execPath, keep, { stdio: 'ignore' });
      const b = spawn(process.execPath, keep, { stdio: 'ignore', detached: true });
      console.log(JSON.stringify([a.pid, b.pid]));
      setInterval(() => {}, 1000);`;
    const leader = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const pids: number[] = await new Promise((resolve) =>
      leader.stdout.once('data', (data) => resolve(JSON.parse(String(data)))),
    );
    const tracker = new DescendantTracker({
      rootPid: leader.pid!,
      table: processTableFor(process.platform),
      intervalMs: 50,
      processGroup: true,
    });
    await tracker.poll();
    expect(
      tracker
        .seen()
        .map((info) => info.pid)
        .sort(),
    ).toEqual([...pids].sort());
    const started = Date.now();
    const killed = await killTree({
      platform: process.platform,
      rootPid: leader.pid,
      processGroup: true,
      alive: () => tracker.alive(),
      graceMs: 300,
    });
    expect(killed.snapshot.map((info) => info.pid).sort()).toEqual([...pids].sort());
    expect(killed.survivors).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const pid of [leader.pid!, ...pids]) expect(await runs(pid)).toBe(false);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
