// Realism: the official SDKs (openai 6, @google/genai 2, @anthropic-ai/sdk 1) assemble exactly what the script
// says — text, thinking, tool calls (name, id, parsed arguments), usage — with natural and re-chunked streams.

import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { DUMMY_CREDENTIALS } from '../../harness/mock/credentials.js';
import { rechunkSeeds } from '../../harness/mock/render/rechunk.js';
import { MOCK_PROVIDER_IDS, type MockProviderId } from '../../harness/mock/scenario/scenario-types.js';
import { providerToolCallId } from '../../harness/mock/scenario/tool-call-ids.js';
import { mockServersClosedAfterEach } from './helpers/mock-servers.js';
import { oneTurn, richResponse } from './helpers/scenario-fixtures.js';
import { driveWithSdk } from './helpers/sdk-drivers.js';

const start = mockServersClosedAfterEach();

const STOP: Record<MockProviderId, string> = {
  'openai-chat': 'tool_calls',
  'openai-responses': 'completed',
  gemini: 'STOP',
  anthropic: 'tool_use',
};
const SEEDS = rechunkSeeds(20261125, 3);
const scenario = oneTurn('sdk-rich', [richResponse]);

describe.each(MOCK_PROVIDER_IDS)('%s with its official SDK', (provider) => {
  test.each([undefined, ...SEEDS])('assembles the script exactly (seed %s)', async (seed) => {
    const server = await start({ scenario, provider, seed });
    const got = await driveWithSdk(provider, { baseUrls: server.baseUrls });
    expect(got.text).toBe(richResponse.text!.join(''));
    expect(got.thinking).toBe(provider === 'openai-chat' ? '' : richResponse.thinking!.join(''));
    expect(got.toolCalls.map(({ id, name, args }) => ({ id, name, args }))).toEqual(
      richResponse.toolCalls!.map((call) => ({
        id: providerToolCallId(provider, scenario.id, call.id),
        name: call.name,
        args: call.input,
      })),
    );
    expect(got.usage).toEqual({ input: 42, output: 17 });
    expect(got.stop).toBe(STOP[provider]);
    const [request] = server.requests();
    expect(request).toMatchObject({
      provider,
      outcome: 'stream',
      status: 200,
      completed: true,
      closedByClient: false,
      turn: 0,
      responseIndex: 0,
    });
  });
});

describe('details of single providers', () => {
  test('openai-chat sends no usage unless stream_options.include_usage is set', async () => {
    const server = await start({
      scenario: oneTurn('no-usage', [{ text: ['Hi'], usage: { input_tokens: 5, output_tokens: 1 } }]),
    });
    const got = await driveWithSdk('openai-chat', { baseUrls: server.baseUrls, includeUsage: false });
    expect(got.text).toBe('Hi');
    expect(got.usage).toBeUndefined();
    const withUsage = await start({
      scenario: oneTurn('usage', [{ text: ['Hi'], usage: { input_tokens: 5, output_tokens: 1 } }]),
    });
    expect((await driveWithSdk('openai-chat', { baseUrls: withUsage.baseUrls })).usage).toEqual({
      input: 5,
      output: 1,
    });
  });

  test.each(['openai-chat', 'openai-responses'] as const)(
    '%s passes invalid JSON arguments through verbatim',
    async (provider) => {
      const raw = '{"file_path": hello.txt}';
      const server = await start({
        scenario: oneTurn('raw-args', [{ toolCalls: [{ id: 'bad', name: 'Read', rawArguments: raw }] }]),
        seed: SEEDS[0],
      });
      const got = await driveWithSdk(provider, { baseUrls: server.baseUrls });
      expect(got.toolCalls).toEqual([
        { id: providerToolCallId(provider, 'raw-args', 'bad'), name: 'Read', args: { invalid: raw }, rawArgs: raw },
      ]);
    },
  );

  test('every-offset chunking (one byte per write) still assembles the same message', async () => {
    const server = await start({ scenario, chunking: 'every-offset' });
    const got = await driveWithSdk('anthropic', { baseUrls: server.baseUrls });
    expect(got.text).toBe(richResponse.text!.join(''));
    expect(got.toolCalls.map((call) => call.args)).toEqual(richResponse.toolCalls!.map((call) => call.input));
  });

  test('gemini without alt=sse streams one JSON array of the same chunks', async () => {
    const server = await start({ scenario });
    const url = `${server.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent`;
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'go' }] }],
      tools: [{ functionDeclarations: [{ name: 'Read' }, { name: 'Bash' }] }],
    };
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'x-goog-api-key': DUMMY_CREDENTIALS.geminiApiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.headers.get('content-type')).toBe('application/json');
    const chunks = JSON.parse(await response.text()) as {
      candidates: { content: { parts: Record<string, unknown>[] } }[];
    }[];
    const parts = chunks.flatMap((chunk) => chunk.candidates[0]!.content.parts);
    expect(
      parts
        .filter((part) => part.text && !part.thought)
        .map((part) => part.text)
        .join(''),
    ).toBe(richResponse.text!.join(''));
    expect(parts.filter((part) => part.functionCall).map((part) => part.functionCall)).toEqual(
      richResponse.toolCalls!.map((call) => ({ name: call.name, args: call.input })),
    );
  });

  test('non-streaming requests get one complete JSON answer', async () => {
    const server = await start({ scenario: oneTurn('json', [richResponse, richResponse]) });
    const openai = new OpenAI({
      apiKey: DUMMY_CREDENTIALS.openaiApiKey,
      baseURL: server.baseUrls.openai,
      maxRetries: 0,
    });
    const completion = await openai.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'go' }],
      tools: [
        { type: 'function', function: { name: 'Read' } },
        { type: 'function', function: { name: 'Bash' } },
      ],
    });
    expect(completion.choices[0]!.message.content).toBe(richResponse.text!.join(''));
    expect(completion.usage).toMatchObject({ prompt_tokens: 42, completion_tokens: 17 });
    const anthropic = new Anthropic({
      apiKey: DUMMY_CREDENTIALS.anthropicApiKey,
      baseURL: server.baseUrls.anthropic,
      maxRetries: 0,
    });
    const message = await anthropic.messages.create({
      model: 'claude-mock-model',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'go' }],
      tools: [
        { name: 'Read', input_schema: { type: 'object' } },
        { name: 'Bash', input_schema: { type: 'object' } },
      ],
    });
    expect(
      message.content.filter((block) => block.type === 'tool_use').map((block) => (block as { input: unknown }).input),
    ).toEqual(richResponse.toolCalls!.map((call) => call.input));
    expect(server.requests().map((request) => request.outcome)).toEqual(['json', 'json']);
  });
});
