import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkedProcessList,
  LinuxProcessTable,
  ProcessTableUnreadable,
  PsProcessTable,
  parseProcStat,
  parsePsOutput,
  parseWindowsProcessList,
  pollIntervalFor,
  processTableFor,
  WindowsProcessTable,
} from '../../harness/process/process-table.js';

describe('parseProcStat', () => {
  it('reads pid, state, ppid, pgid and start time, with a command name holding spaces and parentheses', () => {
    const stat = '4242 (my (odd) shim) S 4200 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 3 0 987654 1000 50 0';
    expect(parseProcStat(stat)).toEqual({
      pid: 4242,
      ppid: 4200,
      pgid: 4242,
      state: 'S',
      start: '987654',
      name: 'my (odd) shim',
    });
  });

  it('rejects garbage', () => {
    expect(parseProcStat('nonsense')).toBeUndefined();
  });
});

describe('parsePsOutput', () => {
  it('reads the ps columns, with the five-word start time as identity', () => {
    const text =
      '  501   1   501 Ss   Tue Nov 25 21:56:00 2025     /usr/local/bin/node\n  502 501   501 Z+   Tue Nov 25 21:56:01 2025 (sleep)\n';
    expect(parsePsOutput(text)).toEqual([
      { pid: 501, ppid: 1, pgid: 501, state: 'S', start: 'Tue Nov 25 21:56:00 2025', name: '/usr/local/bin/node' },
      { pid: 502, ppid: 501, pgid: 501, state: 'Z', start: 'Tue Nov 25 21:56:01 2025', name: '(sleep)' },
    ]);
  });
});

describe('parseWindowsProcessList', () => {
  it('reads pid, parent and creation ticks; pgid is the pid (Windows has no groups)', () => {
    const text = '1234 100 638999999999990000 node.exe\r\n5678 1234 639000000000000000 cmd.exe\r\n\r\n';
    expect(parseWindowsProcessList(text)).toEqual([
      { pid: 1234, ppid: 100, pgid: 1234, state: 'R', start: '638999999999990000', name: 'node.exe' },
      { pid: 5678, ppid: 1234, pgid: 5678, state: 'R', start: '639000000000000000', name: 'cmd.exe' },
    ]);
  });
});

describe('processTableFor', () => {
  it('picks /proc on Linux, ps on macOS, CIM on Windows, with matching poll intervals', () => {
    expect(processTableFor('linux')).toBeInstanceOf(LinuxProcessTable);
    expect(processTableFor('darwin')).toBeInstanceOf(PsProcessTable);
    expect(processTableFor('win32')).toBeInstanceOf(WindowsProcessTable);
    expect(pollIntervalFor('linux')).toBeLessThan(pollIntervalFor('darwin'));
    expect(pollIntervalFor('darwin')).toBeLessThan(pollIntervalFor('win32'));
  });

  it.runIf(process.platform === 'linux')('sees the current process in a real /proc snapshot', async () => {
    const snapshot = await new LinuxProcessTable().snapshot();
    const self = snapshot.find((info) => info.pid === process.pid);
    expect(self?.ppid).toBe(process.ppid);
    expect(self?.state).toMatch(/[RS]/);
  });

  it('looks for the run marker in every newer process, or only among the pids it is given', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'yc-proc-'));
    const fakeProcess = (pid: number, environ: string) => {
      mkdirSync(path.join(root, String(pid)));
      writeFileSync(path.join(root, String(pid), 'environ'), environ);
      writeFileSync(
        path.join(root, String(pid), 'stat'),
        `${pid} (node) S 1 ${pid} ${pid} 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0 0`,
      );
    };
    fakeProcess(50, 'RUN=abc\0');
    fakeProcess(200, 'PATH=/bin\0RUN=abc\0');
    fakeProcess(201, 'RUN=abc\0HOME=/h\0');
    fakeProcess(202, 'RUN=abcd\0');
    const table = new LinuxProcessTable(root);
    const pids = async (among?: number[]) =>
      (
        await table.withEnvironmentEntry(
          'RUN=abc',
          100,
          among?.map((pid) => table.info(pid)!),
        )
      )
        .map((info) => info.pid)
        .sort();
    expect(await pids()).toEqual([200, 201]);
    expect(await pids([200, 202])).toEqual([200]);

    // Read once per process (pid and start time): a later look uses what was read, a reused pid is read again.
    writeFileSync(path.join(root, '200', 'environ'), 'PATH=/bin\0');
    expect(await pids([200])).toEqual([200]);
    writeFileSync(path.join(root, '200', 'stat'), '200 (node) S 1 200 200 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 9 0 0 0');
    expect(await pids([200])).toEqual([]);
    rmSync(root, { recursive: true, force: true });
  });
});

describe('checkedProcessList', () => {
  const query = { command: 'powershell.exe Get-CimInstance Win32_Process', selfPid: 7 };
  const listed = parseWindowsProcessList('4 0 100 System\r\n7 4 200 node.exe\r\n');

  it('passes a list that holds the runner itself', () => {
    expect(checkedProcessList(listed, { ...query, exitCode: 0, output: '' })).toBe(listed);
  });

  it('calls a list without the runner unreadable, with what the query printed (a stub powershell prints nothing)', () => {
    expect(() => checkedProcessList([], { ...query, exitCode: 0, output: '' })).toThrow(
      new ProcessTableUnreadable(
        "powershell.exe Get-CimInstance Win32_Process listed 0 process(es), not the runner's own (pid 7) (it printed nothing)",
      ),
    );
  });

  it('calls a failed query unreadable, with its exit code and first lines', () => {
    expect(() =>
      checkedProcessList(listed, { ...query, exitCode: 1, output: 'Access is denied.\r\nmore\r\nand more' }),
    ).toThrow('powershell.exe Get-CimInstance Win32_Process exited with 1 (Access is denied. more)');
  });
});

describe.runIf(process.platform !== 'win32')('a table query that fails', () => {
  /** A `ps` first on PATH that fails its first `failures` calls (counted in a file), then runs the real one. */
  function fakePs(failures: number): { dir: string; calls: () => number } {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'yc-fake-ps-'));
    const counter = path.join(dir, 'calls');
    writeFileSync(counter, '');
    writeFileSync(
      path.join(dir, 'ps'),
      [
        '#!/bin/sh',
        `echo x >> '${counter}'`,
        `if [ "$(wc -l < '${counter}')" -le ${failures} ]; then echo 'ps: cannot read' >&2; exit 1; fi`,
        'PATH=/usr/bin:/bin exec ps "$@"',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    return { dir, calls: () => readFileSync(counter, 'utf8').split('\n').filter(Boolean).length };
  }

  async function withPath<T>(dir: string, run: () => Promise<T>): Promise<T> {
    const saved = process.env.PATH;
    process.env.PATH = `${dir}${path.delimiter}${saved}`;
    try {
      return await run();
    } finally {
      process.env.PATH = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('is tried once more, so one failed start does not make the table unreadable', async () => {
    const ps = fakePs(1);
    const snapshot = await withPath(ps.dir, async () => {
      const list = await new PsProcessTable().snapshot();
      expect(ps.calls()).toBe(2);
      return list;
    });
    expect(snapshot.some((info) => info.pid === process.pid)).toBe(true);
  });

  it('makes the table unreadable when it fails again, naming the query and what it said', async () => {
    const ps = fakePs(2);
    await withPath(ps.dir, async () => {
      await expect(new PsProcessTable().snapshot()).rejects.toThrow(
        new ProcessTableUnreadable('ps -A exited with 1 (ps: cannot read)'),
      );
      expect(ps.calls()).toBe(2);
    });
  });
});
