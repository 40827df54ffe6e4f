// Mock servers a test file starts are all closed after each test, so a failing test leaks no listening port.
import { afterEach } from 'vitest';
import { type MockServer, type MockServerOptions, startMockServer } from '../../../harness/mock/mock-server.js';

/** Call once at the top of a test file; the returned function starts a server that is closed after the test. */
export function mockServersClosedAfterEach(): (options: MockServerOptions) => Promise<MockServer> {
  const servers: MockServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (options) => {
    const server = await startMockServer(options);
    servers.push(server);
    return server;
  };
}
