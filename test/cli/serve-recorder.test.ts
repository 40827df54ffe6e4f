// serve --record: every request lands in PREFIX.requests.jsonl reduced to its shape (system prompt to its size,
// tools to names and parameters, keys redacted, long strings elided), and every byte the mock answered lands in
// PREFIX.provider.sse under its response header, in the captures' layout, which the captures' own reader parses.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordServeTraffic, reduceRequestBody } from '../../harness/cli/serve-recorder.js';
import { DUMMY_CREDENTIALS } from '../../harness/mock/credentials.js';
import { type MockServer, startMockServer } from '../../harness/mock/mock-server.js';
import type { Scenario } from '../../harness/mock/scenario/scenario-types.js';
import { parseProviderSse, parseSse } from '../mock/helpers/capture-files.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const SCENARIO: Scenario = {
  id: 'record',
  title: 'record',
  description: 'one failure, then text',
  spec: 'serve',
  turns: [
    {
      prompt: 'hi',
      responses: [{ fault: { kind: 'http', status: 500 } }, { text: ['Hello ', 'there.'] }],
      expect: { isError: false },
    },
  ],
};

async function post(server: MockServer, body: unknown): Promise<string> {
  const response = await fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
      'x-api-key': DUMMY_CREDENTIALS.anthropicApiKey,
    },
    body: JSON.stringify(body),
  });
  return response.text();
}

describe('serve --record', () => {
  it('writes the requests reduced to their shape and the answers byte for byte', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'yume-serve-record-'));
    const prefix = path.join(dir, 'nested', '1-plain');
    const server = await startMockServer({ scenario: SCENARIO, provider: 'anthropic' });
    servers.push(server);
    recordServeTraffic(server, prefix);
    const body = {
      model: 'claude-sonnet-4-5',
      stream: true,
      system: 'S'.repeat(1000),
      messages: [{ role: 'user', content: `hi ${'x'.repeat(500)}` }],
      tools: [{ name: 'view', description: 'long', input_schema: { properties: { path: {}, view_range: {} } } }],
    };
    const failed = await post(server, body);
    const streamed = await post(server, body);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const lines = readFileSync(`${prefix}.requests.jsonl`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.n, line.kind])).toEqual([
      [1, 'http-fault, turn 1 response 1'],
      [2, 'stream, turn 1 response 2'],
    ]);
    expect(lines[0].headers['x-api-key']).toBe('<redacted>');
    expect(lines[0].body.system).toBe('<1000 chars>');
    expect(lines[0].body.tools).toEqual([{ name: 'view', params: ['path', 'view_range'] }]);
    expect(lines[0].body.messages[0].content).toBe(`hi ${'x'.repeat(297)}...<+203>`);

    const text = readFileSync(`${prefix}.provider.sse`, 'utf8');
    expect(text).toMatch(/^: ==== response #1 to POST \/v1\/messages \(http-fault, turn 1 response 1\)\n: HTTP 500 /);
    const answers = parseProviderSse(text);
    expect(answers[0]).toMatchObject({ kind: 'http', status: 500, body: JSON.parse(failed) });
    expect(answers[1]).toEqual({ kind: 'stream', events: parseSse(streamed) });
  });

  it('reduces Chat and Responses tools, custom ones included, and system or developer messages', () => {
    expect(
      reduceRequestBody({
        messages: [
          { role: 'system', content: 'abc' },
          { role: 'user', content: 'hi' },
        ],
        tools: [
          { type: 'function', function: { name: 'bash', parameters: { properties: { command: {} } } } },
          { type: 'custom', custom: { name: 'apply_patch' } },
        ],
      }),
    ).toEqual({
      messages: [
        { role: 'system', content: '<3 chars>' },
        { role: 'user', content: 'hi' },
      ],
      tools: [
        { type: 'function', name: 'bash', params: ['command'] },
        { type: 'custom', name: 'apply_patch', params: [] },
      ],
    });
  });
});
