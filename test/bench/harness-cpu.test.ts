// The bench's harness CPU, measured in the suite run itself: the runner's own CPU plus its helpers (its
// children's CPU beyond the shims' cgroup leaves), and when it cannot be measured.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { clockTicks, cpuNow, harnessCpu, median } from '../../bench/harness-cpu.mjs';

const ran = (shimCpuMs?: number) => ({ processes: [{}], ...(shimCpuMs === undefined ? {} : { shimCpuMs }) });

describe('harnessCpu', () => {
  it("is the runner's own CPU plus its children's beyond the shims' leaves, runs without a process left out", () => {
    const cpu = harnessCpu({
      ownCpuMs: 1500,
      childrenCpuMs: 10_400,
      results: [ran(4000), ran(6000), { processes: [] }],
    });
    expect(cpu).toEqual({
      measured: true,
      spawned: 2,
      unmeasured: 0,
      shimCpuMs: 10_000,
      ownCpuMs: 1500,
      helpersCpuMs: 400,
      harnessCpuMs: 1900,
    });
  });

  it('never counts helpers below zero (orphans a shim left are counted in its leaf, not in the children)', () => {
    expect(harnessCpu({ ownCpuMs: 100, childrenCpuMs: 900, results: [ran(1000)] }).harnessCpuMs).toBe(100);
  });

  it('is not measured when a run that spawned a shim has no leaf CPU, or no run spawned one', () => {
    const partly = harnessCpu({ ownCpuMs: 100, childrenCpuMs: 900, results: [ran(500), ran()] });
    expect(partly.measured).toBe(false);
    expect(partly.unmeasured).toBe(1);
    expect(harnessCpu({ ownCpuMs: 100, childrenCpuMs: 0, results: [{ processes: [] }] }).measured).toBe(false);
  });

  it('judges on the middle sample', () => {
    expect(median([0.35, 0.18, 0.2])).toBe(0.2);
    expect(median([3, 1, 2, 4])).toBe(3);
  });

  it("reads this process's CPU, and the CPU of the children it waited for where /proc has it", () => {
    const ticks = clockTicks();
    expect(ticks).toBeGreaterThan(0);
    const ms = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
    const ownBefore = ms(process.cpuUsage());
    const before = cpuNow(ticks);
    // A child that burns 200 ms of CPU however long the machine makes it wait for a core.
    const burn = 'const t = process.cpuUsage(); while (process.cpuUsage(t).user < 200_000);';
    expect(spawnSync(process.execPath, ['-e', burn]).status).toBe(0);
    const after = cpuNow(ticks);
    expect(before.own).toBeGreaterThanOrEqual(ownBefore);
    expect(after.own).toBeLessThanOrEqual(ms(process.cpuUsage()));
    if (process.platform !== 'linux') {
      expect(after.children).toBeUndefined();
      return;
    }
    expect(after.children! - before.children!).toBeGreaterThanOrEqual(190);
  });
});
