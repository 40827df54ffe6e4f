import { describe, expect, it } from 'vitest';
import { deliverInterrupt, interruptMethodFor } from '../../harness/process/interrupt.js';
import { spawnShim } from '../../harness/process/spawn-shim.js';
import { baseEnv, fixtureShim, posix, runs } from './helpers/fixture-processes.js';

const run = (shim: string, extra: Partial<Parameters<typeof spawnShim>[0]> = {}) =>
  spawnShim({ shim, args: [], cwd: process.cwd(), env: baseEnv(), stdin: 'closed', timeoutMs: 10_000, ...extra });

describe('spawnShim: output', () => {
  it('keeps stdout byte for byte: CRLF, invalid UTF-8, a BOM and no final newline', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"type":"text","content":"a"}\r\n'),
      Buffer.from([0xff, 0xfe, 0x0a]),
      Buffer.from('{"type":"result","is_error":false}'),
    ]);
    const exit = await run(fixtureShim('prints-raw-bytes.mjs'), { args: [bytes.toString('hex')] }).done;
    expect(exit.stdout.equals(bytes)).toBe(true);
    expect(exit.stdoutBytes).toBe(bytes.length);
    expect(exit.exitCode).toBe(0);
    expect(exit.stdoutChunks.at(-1)?.end).toBe(bytes.length);
    // two writes 50 ms apart arrive as separate chunks with increasing times
    expect(exit.stdoutChunks.length).toBeGreaterThanOrEqual(2);
    expect(exit.stdoutChunks[1]!.atMs).toBeGreaterThan(exit.stdoutChunks[0]!.atMs);
  });

  it('reports a shim that exits without output with its exit code and stderr', async () => {
    const exit = await run(fixtureShim('exits-without-output.mjs')).done;
    expect(exit.stdout.length).toBe(0);
    expect(exit.exitCode).toBe(3);
    expect(exit.stderr.toString()).toContain('giving up');
    expect(exit.killedByHarness).toBe(false);
    expect(exit.timedOut).toBe(false);
  });

  it('passes a closed stdin (EOF at once) to spawn-per-turn runs and a pipe to persistent ones', async () => {
    const echo = [
      '-e',
      'let d="";process.stdin.on("data",c=>d+=c).on("end",()=>process.stdout.write(JSON.stringify(d)))',
    ];
    const closed = await run(process.execPath, { args: echo }).done;
    expect(closed.stdout.toString()).toBe('""');
    const piped = run(process.execPath, { args: echo, stdin: 'pipe' });
    expect(piped.write('{"type":"user","content":"hi"}\n')).toBe(true);
    piped.closeStdin();
    expect((await piped.done).stdout.toString()).toBe(JSON.stringify('{"type":"user","content":"hi"}\n'));
  });

  it('measures how long the runner waited in the spawn call, and nothing when nothing was spawned', async () => {
    const exit = await run(process.execPath, { args: ['-e', '0'] }).done;
    expect(exit.spawnMs).toBeGreaterThan(0);
    expect(exit.spawnMs!).toBeLessThanOrEqual(exit.endedAtMs);
    const refused = await run(process.execPath, { args: ['-e', 'x\u0000y'] }).done;
    expect(refused.spawnMs).toBeUndefined();
  });

  it('explains a shim that cannot be started', async () => {
    const missing = await run('/nonexistent/dir/shim').done;
    expect(missing.spawnError).toMatch(/no such file/);
    expect(missing.pid).toBeUndefined();
    // Refused by Node before anything starts: a run result, not a throw.
    const refused = await run(process.execPath, { args: ['-e', 'x\u0000y'] }).done;
    expect(refused.spawnError).toMatch(/null bytes/);
    expect(refused.pid).toBeUndefined();
    if (posix) {
      const notExecutable = await run(fixtureShim('../../process/helpers/fixture-processes.ts')).done;
      expect(notExecutable.spawnError).toMatch(/permission denied.*chmod \+x/);
    }
  });
});

describe.runIf(posix)('spawnShim: misbehaving shims end within the timeout + 5 s, with nothing left', () => {
  it('kills a shim that hangs and ignores SIGTERM', async () => {
    const exit = await run(fixtureShim('hangs-forever.mjs'), { timeoutMs: 1000 }).done;
    expect(exit.timedOut).toBe(true);
    expect(exit.killedByHarness).toBe(true);
    expect(exit.stdout.toString()).toContain('"init"');
    expect(exit.endedAtMs).toBeLessThan(1000 + 5000);
    expect(await runs(exit.pid!)).toBe(false);
  });

  it('caps a shim that floods stdout and kills it', async () => {
    const cap = 8 * 1024 * 1024;
    const exit = await run(fixtureShim('floods-stdout.mjs'), { maxStdoutBytes: cap }).done;
    expect(exit.flooded).toBe(true);
    expect(exit.stdout.length).toBe(cap);
    expect(exit.stdoutBytes).toBeGreaterThan(cap);
    expect(exit.timedOut).toBe(false);
    expect(exit.endedAtMs).toBeLessThan(10_000);
    expect(await runs(exit.pid!)).toBe(false);
  });

  it('notices a grandchild that keeps stdout open after the shim exited, and ends it', async () => {
    const exit = await run(fixtureShim('grandchild-holds-stdout.mjs'), { stdioGraceMs: 500 }).done;
    expect(exit.exitCode).toBe(0);
    expect(exit.exitedAtMs).toBeDefined();
    expect(exit.stdioHeldOpen).toBe(true);
    expect(exit.descendantsLeft).toHaveLength(1);
    expect(exit.descendantsKilled.map((info) => info.pid)).toEqual(exit.descendantsLeft.map((info) => info.pid));
    expect(exit.stdout.toString()).toContain('"result"');
    expect(exit.endedAtMs).toBeLessThan(10_000 + 5000);
    expect(await runs(exit.descendantsLeft[0]!.pid)).toBe(false);
  });

  it('interrupts spawn-per-turn shims with SIGINT on the whole group; leftovers are found and killed', async () => {
    let printed = '';
    const shim = run(fixtureShim('reports-sigint.mjs'), { onStdout: (chunk) => (printed += chunk.toString()) });
    await waitFor(() => printed.includes('\n'));
    await new Promise((resolve) => setTimeout(resolve, 300)); // let the tracker sample the children
    const method = interruptMethodFor(process.platform, 'spawn-per-turn');
    expect(method).toBe('sigint-group');
    expect(deliverInterrupt(shim, method!)).toBe(true);
    const exit = await shim.done;
    const lines = exit.stdout
      .toString()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const pids = lines.find((line) => line.type === 'pids');
    expect(lines.at(-1)).toEqual({ type: 'got', signal: 'SIGINT' });
    expect(exit.exitCode).toBe(130);
    // both children ignore SIGINT and survive the shim: the tracker saw them (one only via the parent chain)
    expect(exit.descendantsLeft.map((info) => info.pid).sort()).toEqual([pids.inGroup, pids.ownGroup].sort());
    expect(exit.killedByHarness).toBe(true);
    for (const pid of [pids.inGroup, pids.ownGroup]) expect(await runs(pid)).toBe(false);
  });
});

describe('interruptMethodFor', () => {
  it('uses SIGINT on POSIX spawn-per-turn, the stdin frame in persistent mode, nothing on Windows spawn-per-turn', () => {
    expect(interruptMethodFor('linux', 'spawn-per-turn')).toBe('sigint-group');
    expect(interruptMethodFor('darwin', 'persistent')).toBe('interrupt-frame');
    expect(interruptMethodFor('win32', 'persistent')).toBe('interrupt-frame');
    expect(interruptMethodFor('win32', 'spawn-per-turn')).toBeUndefined();
  });
});

async function waitFor(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 20));
}
