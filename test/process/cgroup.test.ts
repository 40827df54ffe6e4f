// Nothing a run started outlives it: on Linux with a writable cgroup v2 hierarchy each shim starts in a leaf
// of its own, which catches a fast double fork into a new session with an empty environment; the forced
// fallback (process group, parent chain, run marker) reports such an escape as not verified and leaves it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ISOLATION_VARIABLE, SuiteCgroup } from '../../harness/process/cgroup.js';
import {
  describeFindings,
  fixtureShim,
  processesTagged,
  processesWithArgument,
  rules,
  runFixture,
} from '../runner/helpers/run-fixture.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const linuxRoot = process.platform === 'linux' && process.getuid?.() === 0;

describe('isolation mechanism', () => {
  it('a switch forces the fallback; Windows uses the process tree', () => {
    expect(SuiteCgroup.create('linux', { [ISOLATION_VARIABLE]: 'process-group' })).toEqual({
      mechanism: 'process-group',
      detail: `${ISOLATION_VARIABLE}=process-group`,
    });
    expect(SuiteCgroup.create('win32').mechanism).toBe('process-tree');
    expect(SuiteCgroup.create('darwin').mechanism).toBe('process-group');
  });
});

describe.runIf(linuxRoot)('double fork into a new session with an empty environment', () => {
  it('several suites in one process (the programmatic API) each get a cgroup of their own', () => {
    const first = SuiteCgroup.create('linux', {});
    const second = SuiteCgroup.create('linux', {});
    expect([first.mechanism, second.mechanism]).toEqual(['cgroup-v2', 'cgroup-v2']);
    const made = [first, second].flatMap((created) => ('cgroup' in created ? [created.cgroup] : []));
    expect(new Set(made.map((cgroup) => cgroup.directory)).size).toBe(2);
    for (const cgroup of made) cgroup.close();
  });

  it('an emptied leaf is kept for the next run; a busy one is not handed out; close removes them all', async () => {
    const created = SuiteCgroup.create('linux', {});
    const suiteCgroup = (created as { cgroup: SuiteCgroup }).cgroup;
    try {
      const first = suiteCgroup.leaf()!;
      const busy = suiteCgroup.leaf()!;
      await first.remove();
      expect(existsSync(first.path)).toBe(true);
      expect(suiteCgroup.leaf()!.path).toBe(first.path);
      // A leaf whose run left a process is killed and emptied before it is kept: none is handed out busy.
      const sleeper = spawn('/bin/sh', ['-c', `echo $$ > "${busy.path}/cgroup.procs" && exec sleep 30`], {
        stdio: 'ignore',
      });
      const deadline = Date.now() + 5000;
      while (busy.members().length === 0 && Date.now() < deadline) await sleep(20);
      expect(busy.members()).toEqual([sleeper.pid]);
      await busy.remove();
      expect(busy.members()).toEqual([]);
      expect(suiteCgroup.leaf()!.path).toBe(busy.path);
    } finally {
      suiteCgroup.close();
    }
    expect(existsSync(suiteCgroup.directory)).toBe(false);
  });

  it('a leaf tells the CPU its processes used, a kept leaf only what its new run added', async () => {
    const suiteCgroup = (SuiteCgroup.create('linux', {}) as { cgroup: SuiteCgroup }).cgroup;
    const spin = async (leaf: ReturnType<SuiteCgroup['leaf']> & object, millions: number) => {
      const child = spawn(
        '/bin/sh',
        [
          '-c',
          'echo $$ > "$0/cgroup.procs" && exec "$@"',
          leaf.path,
          process.execPath,
          '-e',
          `let x = 0; for (let i = 0; i < ${millions} * 1e6; i++) x += i; if (x < 0) console.log(x);`,
        ],
        { stdio: 'ignore' },
      );
      await new Promise((resolve) => child.on('exit', resolve));
      return leaf.remove();
    };
    try {
      const leaf = suiteCgroup.leaf()!;
      const first = await spin(leaf, 30);
      // A fixed amount of work (about half a second of a core here, however loaded the machine), not a wall time.
      expect(first).toBeGreaterThan(100);
      expect(first).toBeLessThan(20_000);
      const again = suiteCgroup.leaf()!;
      expect(again.path).toBe(leaf.path);
      expect(await again.remove()).toBeLessThan(first! / 2);
    } finally {
      suiteCgroup.close();
    }
  });

  it('cgroup v2 (this machine can make one, so the test must run): found, reported and ended', async () => {
    const created = SuiteCgroup.create('linux', {});
    expect(created.mechanism, 'detail' in created ? created.detail : '').toBe('cgroup-v2');
    const suiteCgroup = (created as { cgroup: SuiteCgroup }).cgroup;
    try {
      const result = await runFixture(fixtureShim('double-forks-into-new-session.mjs'), 'plain-text', {
        suiteCgroup,
      });
      const finding = result.findings.find((candidate) => candidate.rule === 'process.descendants-gone');
      expect(finding?.message, describeFindings(result)).toMatch(/node \(pid \d+\).*the harness killed them/);
      expect(result.status).toBe('failed');
      expect(processesWithArgument(`escape-${result.tag}`)).toEqual([]);
      expect(processesTagged(result.tag)).toEqual([]);
    } finally {
      suiteCgroup.close();
    }
  });

  it('forced fallback: the escape is reported not verified and not killed by guess', async () => {
    const result = await runFixture(fixtureShim('double-forks-into-new-session.mjs'), 'plain-text', {
      isolation: 'process-group',
    });
    const escaped = processesWithArgument(`escape-${result.tag}`);
    try {
      expect(escaped.length).toBe(1);
      expect(result.notVerified, describeFindings(result)).toEqual([
        {
          rule: 'process.orphaned-tools',
          scope: 'check',
          cause: 'platform',
          reason: expect.stringMatching(
            new RegExp(`process isolation: 1 process\\(es\\) orphaned to init .*pid ${escaped[0]}.*not killed`),
          ),
        },
      ]);
      // plain-text is required, so a run not fully verified fails through scenario.required-verified only.
      expect(rules(result), describeFindings(result)).toEqual(['scenario.required-verified']);
    } finally {
      for (const pid of escaped) process.kill(pid, 'SIGKILL');
      await sleep(100);
    }
    expect(processesWithArgument(`escape-${result.tag}`)).toEqual([]);
  });
});
