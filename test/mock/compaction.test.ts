// The mock's side of compaction (docs/protocol.md#r21-compaction): a context overflow answers with each API's real
// error, seen through the official SDKs; a summary answers one or two summary requests, is never withheld by the
// gate, and a request that already carries it goes on to the next response (the retry after an auto-compaction).
import { describe, expect, test } from 'vitest';
import { contextOverflowMessage } from '../../harness/mock/render/error-bodies.js';
import { MOCK_PROVIDER_IDS, type ModelResponse } from '../../harness/mock/scenario/scenario-types.js';
import { conversationBody, send } from './helpers/conversation-bodies.js';
import { mockServersClosedAfterEach } from './helpers/mock-servers.js';
import { oneTurn } from './helpers/scenario-fixtures.js';
import { driveWithSdk, sdkFailure } from './helpers/sdk-drivers.js';

const start = mockServersClosedAfterEach();
const SUMMARY = 'Summary: the user read hello.txt; its first line is a greeting.';
const summary: ModelResponse = {
  summary: true,
  text: ['Summary: the user read hello.txt; ', 'its first line is a greeting.'],
};
const answer: ModelResponse = { text: ['It was a greeting.'], usage: { input_tokens: 40, output_tokens: 6 } };
const ask = (carriesSummary: boolean) => ({
  turns: [{ prompt: carriesSummary ? `${SUMMARY}\n\nWhat was it?` : 'Summarize the conversation.', exchanges: [] }],
  tools: ['Read'],
  includeUsage: true,
});

describe.each(MOCK_PROVIDER_IDS)('%s', (provider) => {
  test('a context overflow is HTTP 400 with the API’s own words; the SDK does not retry it', async () => {
    const server = await start({ scenario: oneTurn('overflow', [{ fault: { kind: 'context-overflow' } }, answer]) });
    const failure = await sdkFailure(() => driveWithSdk(provider, { baseUrls: server.baseUrls, maxRetries: 2 }));
    expect(failure.status).toBe(400);
    expect(failure.message).toContain(contextOverflowMessage(provider).slice(0, 40));
    if (provider.startsWith('openai')) expect(failure.code).toBe('context_length_exceeded');
    expect(server.requests()).toHaveLength(1);
  });

  test('a summary is streamed whole, never withheld by the gate, and its first chunk is flagged', async () => {
    const server = await start({ scenario: oneTurn('summary', [summary]), gate: true });
    const sent: unknown[] = [];
    server.events.on('first-text-sent', (event) => sent.push(event));
    const got = await driveWithSdk(provider, { baseUrls: server.baseUrls, includeUsage: true });
    expect(got.text).toBe(SUMMARY);
    expect(sent).toEqual([{ index: 0, turn: 0, summary: true }]);
  });

  test('a summary answers a second summary request, and a request carrying it goes on to the next response', async () => {
    const server = await start({ scenario: oneTurn('twice', [summary, answer]) });
    for (const carries of [false, false, true]) {
      const reply = await send(provider, server.url, conversationBody(provider, ask(carries)));
      expect(reply.status).toBe(200);
    }
    expect(server.requests().map((request) => request.responseIndex)).toEqual([0, 0, 1]);
  });

  test('a request carrying the summary after one summary request gets the next response', async () => {
    const server = await start({ scenario: oneTurn('retry', [summary, answer]) });
    for (const carries of [false, true]) await send(provider, server.url, conversationBody(provider, ask(carries)));
    expect(server.requests().map((request) => request.responseIndex)).toEqual([0, 1]);
  });

  test('a third summary request is unscripted', async () => {
    const server = await start({ scenario: oneTurn('thrice', [summary]) });
    for (let n = 0; n < 3; n += 1) await send(provider, server.url, conversationBody(provider, ask(false)));
    expect(server.requests().map((request) => request.outcome)).toEqual(['stream', 'stream', 'unscripted']);
  });
});
