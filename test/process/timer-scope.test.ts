// withTimeout after a stall of the runner's loop: when the timer and the awaited event are both due, the
// event wins (the harness once read a pipe's close or a shim's exit as too late only because it had stalled).
import { connect, createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { withTimeout } from '../../harness/process/timer-scope.js';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function socketPair(): Promise<{ client: Socket; served: Socket }> {
  const server = createServer();
  const served = new Promise<Socket>((resolve) => server.once('connection', resolve));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const client = connect({ host: '127.0.0.1', port });
  await new Promise((resolve) => client.once('connect', resolve));
  const socket = await served;
  closers.push(() => {
    client.destroy();
    socket.destroy();
    server.close();
  });
  return { client, served: socket };
}

describe('withTimeout', () => {
  it('lets an event that arrived during a stall win over the timer that ran out in it', async () => {
    const { client, served } = await socketPair();
    const arrived = new Promise<string>((resolve) => served.once('data', (data) => resolve(String(data))));
    const raced = withTimeout(arrived, 10, 'timed out');
    client.write('in time');
    const until = performance.now() + 60;
    while (performance.now() < until) {
      // the loop is stalled: the data arrives, the timer runs out
    }
    expect(await raced).toBe('in time');
  });

  it('still times out when nothing came', async () => {
    const { served } = await socketPair();
    const arrived = new Promise<string>((resolve) => served.once('data', (data) => resolve(String(data))));
    expect(await withTimeout(arrived, 10, 'timed out')).toBe('timed out');
  });
});
