// The loopback server itself: 127.0.0.1 only, clean close (also with a stalled stream), per-run isolation,
// turn selection, and the recorded request fields.
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { DUMMY_CREDENTIALS } from '../../harness/mock/credentials.js';
import { type MockServerOptions, startMockServer } from '../../harness/mock/mock-server.js';
import type { Scenario } from '../../harness/mock/scenario/scenario-types.js';
import { mockServersClosedAfterEach } from './helpers/mock-servers.js';
import { oneTurn } from './helpers/scenario-fixtures.js';
import { driveWithSdk } from './helpers/sdk-drivers.js';

const start = mockServersClosedAfterEach();

function tryConnect(host: string, port: number): Promise<'connected' | string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

const twoTurns: Scenario = {
  id: 'two-turns',
  title: 't',
  description: 'd',
  spec: 's',
  turns: [
    { prompt: 'one', responses: [{ text: ['First turn.'] }], expect: { isError: false } },
    { prompt: 'two', resume: true, responses: [{ text: ['Second turn.'] }], expect: { isError: false } },
  ],
};

describe('listening', () => {
  test('listens on 127.0.0.1 with a random port, and nowhere else', async () => {
    const server = await start({ scenario: oneTurn('addr', [{ text: ['x'] }]) });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).toBeGreaterThan(0);
    expect(server.baseUrls).toEqual({ openai: `${server.url}/v1`, anthropic: server.url, gemini: server.url });
    expect(await tryConnect('127.0.0.1', server.port)).toBe('connected');
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((info) => info && !info.internal)
      .map((info) => info!.address);
    for (const host of ['::1', ...others]) expect(await tryConnect(host, server.port)).not.toBe('connected');
  });

  test('close() ends a stalled stream and frees the port; later connections are refused', async () => {
    const server = await startMockServer({
      scenario: oneTurn('close', [{ text: ['a', 'b'], stall: 'after-first-text' }]),
    });
    const firstText = new Promise((resolve) => server.events.once('first-text-sent', resolve));
    const pending = driveWithSdk('anthropic', { baseUrls: server.baseUrls }).then(
      () => 'finished',
      () => 'failed',
    );
    await firstText;
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await pending).toMatch(/finished|failed/);
    expect(await tryConnect('127.0.0.1', server.port)).toBe('ECONNREFUSED');
    // The server closed it, so the client did not.
    expect(server.requests()[0]).toMatchObject({ closedByClient: false, completed: false });
  });

  describe('leaves no stall timer running once closed (one held the runner open for the 120 s stall limit)', () => {
    const STALL_LIMIT_MS = 90_000;
    /** The stall-limit timers the mock set, and whether each was cleared or fired. */
    function watchStallTimers() {
      const set = new Set<unknown>();
      const realSet = globalThis.setTimeout;
      const realClear = globalThis.clearTimeout;
      vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number) => {
        const timer = realSet(() => {
          set.delete(timer);
          callback();
        }, ms);
        if (ms === STALL_LIMIT_MS) set.add(timer);
        return timer;
      }) as typeof setTimeout);
      vi.spyOn(globalThis, 'clearTimeout').mockImplementation(((timer: Parameters<typeof clearTimeout>[0]) => {
        set.delete(timer);
        realClear(timer);
      }) as typeof clearTimeout);
      return set;
    }
    afterEach(() => vi.restoreAllMocks());

    test('a stall released by close()', async () => {
      const running = watchStallTimers();
      const server = await startMockServer({
        scenario: oneTurn('close', [{ text: ['a', 'b'], stall: 'after-first-text' }]),
        stallTimeoutMs: STALL_LIMIT_MS,
      });
      const firstText = new Promise((resolve) => server.events.once('first-text-sent', resolve));
      const pending = driveWithSdk('openai-chat', { baseUrls: server.baseUrls }).catch(() => undefined);
      await firstText;
      await new Promise((resolve) => setImmediate(resolve));
      expect(running.size).toBe(1);
      await server.close();
      await pending;
      expect(running.size).toBe(0);
    });
  });

  test("two servers in parallel never see each other's requests", async () => {
    const [a, b] = await Promise.all([
      start({ scenario: oneTurn('iso-a', [{ text: ['from A'] }, { text: ['again A'] }]) }),
      start({ scenario: oneTurn('iso-b', [{ text: ['from B'] }]) }),
    ]);
    expect(a.port).not.toBe(b.port);
    const [fromA, fromB, againA] = await Promise.all([
      driveWithSdk('openai-chat', { baseUrls: a.baseUrls }),
      driveWithSdk('gemini', { baseUrls: b.baseUrls }),
      driveWithSdk('anthropic', { baseUrls: a.baseUrls }),
    ]);
    expect([fromA.text, againA.text].sort()).toEqual(['again A', 'from A']);
    expect(fromB.text).toBe('from B');
    expect(
      a
        .requests()
        .map((request) => request.provider)
        .sort(),
    ).toEqual(['anthropic', 'openai-chat']);
    expect(b.requests().map((request) => request.provider)).toEqual(['gemini']);
  });
  test('serves every provider whichever one is under test (its handler is only tried first)', async () => {
    const server = await start({
      scenario: oneTurn('any', [{ text: ['one'] }, { text: ['two'] }]),
      provider: 'gemini',
    });
    expect((await driveWithSdk('anthropic', { baseUrls: server.baseUrls })).text).toBe('one');
    expect((await driveWithSdk('gemini', { baseUrls: server.baseUrls })).text).toBe('two');
    expect(server.requests().map((request) => request.provider)).toEqual(['anthropic', 'gemini']);
  });
});

describe('turns and recording', () => {
  test('setTurn selects the turn; requests are recorded with their turn, path, query, headers and body', async () => {
    const server = await start({ scenario: twoTurns });
    expect((await driveWithSdk('gemini', { baseUrls: server.baseUrls })).text).toBe('First turn.');
    server.setTurn(1);
    expect((await driveWithSdk('gemini', { baseUrls: server.baseUrls })).text).toBe('Second turn.');
    const [first, second] = server.requests();
    expect(first).toMatchObject({
      index: 0,
      turn: 0,
      responseIndex: 0,
      attempt: 0,
      method: 'POST',
      path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent',
      query: '?alt=sse',
      provider: 'gemini',
    });
    expect(first!.headers['x-goog-api-key']).toBe(DUMMY_CREDENTIALS.geminiApiKey);
    expect((first!.body as { contents: unknown[] }).contents).toBeDefined();
    expect(first!.time).toBeGreaterThan(Date.now() - 60_000);
    expect(second).toMatchObject({ index: 1, turn: 1, responseIndex: 0 });
    expect(second!.elapsedMs).toBeGreaterThanOrEqual(first!.elapsedMs);
    expect(() => server.setTurn(2)).toThrow(/turns 0\.\.1/);
  });

  test('without setTurn a used-up turn is not advanced; with autoAdvance it is', async () => {
    const fixed = await start({ scenario: twoTurns });
    await driveWithSdk('openai-chat', { baseUrls: fixed.baseUrls });
    await expect(driveWithSdk('openai-chat', { baseUrls: fixed.baseUrls })).rejects.toThrow(/all were used/);
    const advancing = await start({ scenario: twoTurns, autoAdvance: true });
    await driveWithSdk('openai-chat', { baseUrls: advancing.baseUrls });
    expect((await driveWithSdk('openai-chat', { baseUrls: advancing.baseUrls })).text).toBe('Second turn.');
    expect(advancing.currentTurn()).toBe(1);
  });

  test('an unknown path is answered 404 with a JSON body naming the served endpoints, and recorded', async () => {
    const server = await start({ scenario: twoTurns });
    const response = await fetch(`${server.url}/v1/models`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('/v1/chat/completions');
    expect(server.requests()[0]).toMatchObject({ outcome: 'no-route', provider: undefined, method: 'GET' });
  });

  test('chunking: frames end on event boundaries; a seed splits inside events, deterministically', async () => {
    const chunkEnds = async (options: Partial<MockServerOptions>): Promise<boolean[]> => {
      const server = await start({
        scenario: oneTurn('chunks', [{ text: ['Hello ', 'world, ', 'split ✓ me.'] }]),
        ...options,
      });
      const response = await fetch(`${server.baseUrls.openai}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DUMMY_CREDENTIALS.openaiApiKey}` },
        body: JSON.stringify({ model: 'm', stream: true, messages: [] }),
      });
      const reader = response.body!.getReader();
      const ends: boolean[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        ends.push(value[value.length - 1] === 0x0a && value[value.length - 2] === 0x0a);
      }
      return ends;
    };
    expect((await chunkEnds({})).every(Boolean)).toBe(true);
    expect((await chunkEnds({ seed: 5 })).some((onBoundary) => !onBoundary)).toBe(true);
    expect((await chunkEnds({ chunking: 'every-offset' })).length).toBeGreaterThan(10);
  });
});
