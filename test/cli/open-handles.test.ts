// What keeps a finished command running is named by owner: the timer with its delay and the code that set it,
// the child process with its pid and command, each of its pipes, servers and sockets with their addresses.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { handleScope, openHandles, watchOpenHandles } from '../../harness/cli/open-handles.js';

watchOpenHandles();

let scopes = 0;
/** Runs `make` in a scope of its own; returns the scope's name. */
function inScope(make: () => void): string {
  scopes += 1;
  const scope = `open-handles-test-${scopes}`;
  handleScope.run(scope, make);
  return scope;
}

const owners = (scope: string) => openHandles(scope).map((handle) => handle.owner);
const settle = async () => {
  for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
};

describe('open handles, by owner', () => {
  it('names a pending timer, its delay, its callback and the code that set it; not once it is cleared', () => {
    let timer: NodeJS.Timeout | undefined;
    const scope = inScope(() => {
      timer = setTimeout(function pollTheLog() {}, 60_000);
    });
    const [owner, ...rest] = owners(scope);
    expect(rest).toEqual([]);
    expect(owner).toMatch(/^a Timeout of 60000 ms calling pollTheLog, made at .*open-handles\.test\.ts:\d+:\d+/);
    clearTimeout(timer);
    expect(owners(scope)).toEqual([]);
  });

  it('names an interval; leaves out a timer that does not keep Node running, and one that fired', async () => {
    let interval: NodeJS.Timeout | undefined;
    const scope = inScope(() => {
      interval = setInterval(() => undefined, 50_000);
      setTimeout(() => undefined, 50_000).unref();
      setTimeout(() => undefined, 1);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(owners(scope)).toEqual([
      expect.stringMatching(/^an interval of 50000 ms, made at .*open-handles\.test\.ts/),
    ]);
    clearInterval(interval);
    expect(owners(scope)).toEqual([]);
  });

  it('keeps promisified setTimeout working', async () => {
    expect(await promisify(setTimeout)(1, 'value')).toBe('value');
  });

  it('names a child process and its pipes, with its pid and command', async () => {
    let child: ReturnType<typeof spawn> | undefined;
    const scope = inScope(() => {
      child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: ['ignore', 'pipe', 'pipe'] });
    });
    const pid = child!.pid!;
    const found = owners(scope);
    expect(found).toHaveLength(3);
    expect(found).toContainEqual(
      expect.stringMatching(new RegExp(`^child pid ${pid} \\(.*setTimeout.*\\), made at .*open-handles\\.test\\.ts`)),
    );
    expect(found).toContainEqual(expect.stringMatching(new RegExp(`^stdout pipe of child pid ${pid} `)));
    expect(found).toContainEqual(expect.stringMatching(new RegExp(`^stderr pipe of child pid ${pid} `)));
    const closed = new Promise((resolve) => child!.once('close', resolve));
    child!.kill('SIGKILL');
    await closed;
    await settle();
    expect(owners(scope)).toEqual([]);
  });

  it.runIf(process.platform !== 'win32')(
    "names the pipe a child's own child holds after the child exited",
    async () => {
      let child: ReturnType<typeof spawn> | undefined;
      // The grandchild keeps the shell's stdout and stderr; the shell exits at once.
      const scope = inScope(() => {
        child = spawn('/bin/sh', ['-c', 'sleep 30 & echo $!'], { stdio: ['ignore', 'pipe', 'pipe'] });
      });
      let grandchild = '';
      child!.stdout!.on('data', (chunk: Buffer) => (grandchild += chunk.toString()));
      await new Promise((resolve) => child!.once('exit', resolve));
      await settle();
      try {
        const found = owners(scope);
        expect(found).toContainEqual(
          expect.stringMatching(
            new RegExp(
              `^stdout pipe of child pid ${child!.pid} \\(/bin/sh -c sleep 30 & echo \\$!\\), which exited \\(0\\): a process it started holds the other end`,
            ),
          ),
        );
        expect(found.some((owner) => owner.startsWith('child pid'))).toBe(false);
      } finally {
        process.kill(Number(grandchild.trim()), 'SIGKILL');
        child!.stdout!.destroy();
        child!.stderr!.destroy();
      }
    },
  );

  it('names a server by its address, and a socket by both ends', async () => {
    let server: net.Server | undefined;
    const scope = inScope(() => {
      server = net.createServer((socket) => socket.on('data', () => undefined)).listen(0, '127.0.0.1');
    });
    await new Promise((resolve) => server!.once('listening', resolve));
    const port = (server!.address() as net.AddressInfo).port;
    expect(owners(scope)).toEqual([
      expect.stringMatching(
        new RegExp(`^server listening on 127\\.0\\.0\\.1:${port}, made at .*open-handles\\.test\\.ts`),
      ),
    ]);
    const client = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => client.once('connect', resolve));
    await settle();
    const found = owners(scope);
    // The accepted socket counts as the server's; the client's was made outside the scope.
    expect(found).toContainEqual(
      expect.stringMatching(new RegExp(`^socket 127\\.0\\.0\\.1:${port} ↔ 127\\.0\\.0\\.1:\\d+, made at`)),
    );
    client.destroy();
    await new Promise((resolve) => server!.close(resolve));
    await settle();
    expect(owners(scope)).toEqual([]);
  });

  it('counts the timers it cannot see (node:timers/promises sets its own)', async () => {
    const unseen = () => {
      const entry = openHandles().find((handle) => /Timeout\(s\) set where the watch cannot see/.test(handle.owner));
      return entry ? Number.parseInt(entry.owner, 10) : 0;
    };
    const before = unseen();
    const stop = new AbortController();
    const waiting = sleep(60_000, undefined, { signal: stop.signal }).catch(() => 'aborted');
    expect(unseen()).toBe(before + 1);
    stop.abort();
    expect(await waiting).toBe('aborted');
    expect(unseen()).toBe(before);
  });
});
