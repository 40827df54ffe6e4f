// Request checks proven both ways: a correct request history passes, each broken one fails with its rule id.
import path from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { type MockServer, startMockServer } from '../../harness/mock/mock-server.js';
import { type CheckedRequest, checkProviderRequests, type Finding } from '../../harness/mock/request-checks.js';
import { loadScenario } from '../../harness/mock/scenario/scenario-loader.js';
import { MOCK_PROVIDER_IDS, type MockProviderId, type Scenario } from '../../harness/mock/scenario/scenario-types.js';
import { toolCallIdMap } from '../../harness/mock/scenario/tool-call-ids.js';
import { REQUEST_RULES } from '../../harness/rules/request-rules.js';
import { RULE_PROOFS } from '../rules/helpers/rule-proofs.js';
import {
  type Conversation,
  conversationBody,
  type SentCall,
  type SentResult,
  send,
} from './helpers/conversation-bodies.js';

const transcripts = path.resolve(import.meta.dirname, '../../transcripts');
const parallel = loadScenario(path.join(transcripts, 'parallel-tools'));
const toolError = loadScenario(path.join(transcripts, 'tool-error'));
const HELLO_OUTPUT = '     1\tHello from the fixture file.\n     2\tSecond line.\n';
const NOTES_OUTPUT = 'Meeting notes\nStatus: draft\nOwner: conformance suite\n';

/** Every rule id some test below saw fail; compared with the catalog at the end. */
const provenFailing = new Set<string>();
const rules = (findings: Finding[]): string[] => {
  for (const finding of findings) provenFailing.add(finding.rule);
  return [...new Set(findings.map((finding) => finding.rule))].sort();
};

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function sentCalls(scenario: Scenario, provider: MockProviderId, turn = 0, response = 0): SentCall[] {
  const ids = toolCallIdMap(scenario, provider);
  return scenario.turns[turn]!.responses[response]!.toolCalls!.map((call) => ({
    id: ids.get(call.id)!.providerId,
    name: call.name,
    input: call.input!,
    thoughtSignature: ids.get(call.id)!.thoughtSignature,
  }));
}

/** Runs the two requests of a one-turn, one-tool-round scenario and returns the findings. */
async function runTurn(
  scenario: Scenario,
  provider: MockProviderId,
  exchange: { calls: SentCall[]; results: SentResult[] },
  extra: Partial<Conversation> = {},
): Promise<Finding[]> {
  const server = await startMockServer({ scenario, provider });
  servers.push(server);
  const prompt = scenario.turns[0]!.prompt;
  const tools = extra.tools ?? ['Read', 'Bash', 'Write', 'Edit'];
  await send(
    provider,
    server.url,
    conversationBody(provider, { turns: [{ prompt, exchanges: [] }], tools, includeUsage: extra.includeUsage }),
  );
  await send(
    provider,
    server.url,
    conversationBody(provider, {
      turns: [{ prompt, exchanges: [{ assistantText: 'Reading.', ...exchange }] }],
      tools,
      includeUsage: extra.includeUsage,
    }),
  );
  return checkProviderRequests(scenario, provider, server.requests());
}

function parallelResults(provider: MockProviderId): SentResult[] {
  const ids = toolCallIdMap(parallel, provider);
  return [
    { id: ids.get('read-hello-p')!.providerId, name: 'Read', content: HELLO_OUTPUT },
    { id: ids.get('read-notes-p')!.providerId, name: 'Read', content: NOTES_OUTPUT },
  ];
}

describe.each(MOCK_PROVIDER_IDS)('%s', (provider) => {
  test('a correct request history passes', async () => {
    const findings = await runTurn(parallel, provider, {
      calls: sentCalls(parallel, provider),
      results: parallelResults(provider),
    });
    expect(findings).toEqual([]);
  });

  test('a wrong or missing tool result id fails requests.tool-result-id', async () => {
    const results = parallelResults(provider);
    // Gemini has no ids: dropping one functionResponse breaks the name/order match.
    const broken =
      provider === 'gemini'
        ? results.slice(0, 1)
        : [{ ...results[0]!, id: 'call_not_issued_by_the_mock' }, results[1]!];
    const findings = await runTurn(parallel, provider, { calls: sentCalls(parallel, provider), results: broken });
    expect(rules(findings)).toEqual(['requests.tool-result-id']);
    expect(findings[0]!.severity).toBe('MUST');
  });

  test('a result without the tool output fails requests.tool-result-content', async () => {
    const results = parallelResults(provider);
    const findings = await runTurn(parallel, provider, {
      calls: sentCalls(parallel, provider),
      results: [{ ...results[0]!, content: 'done' }, results[1]!],
    });
    expect(rules(findings)).toEqual(['requests.tool-result-content']);
    expect(findings[0]!.message).toContain('Hello from the fixture file.');
  });

  test('a request that does not declare the called tool fails requests.tools-declared', async () => {
    const findings = await runTurn(
      parallel,
      provider,
      { calls: sentCalls(parallel, provider), results: parallelResults(provider) },
      { tools: ['read_file'] },
    );
    expect(rules(findings)).toContain('requests.tools-declared');
    expect(findings.find((finding) => finding.rule === 'requests.tools-declared')!.message).toContain('Read');
  });
});

describe('provider-specific rules', () => {
  test('gemini: a functionCall replayed without (or with another) thoughtSignature fails requests.thought-signature-echoed', async () => {
    for (const signature of [undefined, 'c2lnLTE=']) {
      const calls = sentCalls(parallel, 'gemini').map((call) => ({ ...call, thoughtSignature: signature }));
      const findings = await runTurn(parallel, 'gemini', { calls, results: parallelResults('gemini') });
      expect(rules(findings)).toEqual(['requests.thought-signature-echoed']);
    }
  });

  test('openai-chat: streaming without include_usage fails requests.usage-requested (SHOULD)', async () => {
    const findings = await runTurn(
      parallel,
      'openai-chat',
      { calls: sentCalls(parallel, 'openai-chat'), results: parallelResults('openai-chat') },
      { includeUsage: false },
    );
    expect(rules(findings)).toEqual(['requests.usage-requested']);
    expect(findings[0]!.severity).toBe('SHOULD');
  });

  test('anthropic: a failing tool sent back without is_error fails requests.tool-result-error-flag', async () => {
    const calls = sentCalls(toolError, 'anthropic');
    const result = (isError?: boolean): SentResult[] => [
      { id: calls[0]!.id, name: 'Read', content: 'File does not exist.', isError },
    ];
    expect(await runTurn(toolError, 'anthropic', { calls, results: result(true) })).toEqual([]);
    expect(rules(await runTurn(toolError, 'anthropic', { calls, results: result(undefined) }))).toEqual([
      'requests.tool-result-error-flag',
    ]);
  });
});

describe('history on resume', () => {
  const resumed: Scenario = {
    id: 'resume-check',
    title: 't',
    description: 'd',
    spec: 'R8',
    turns: [
      {
        prompt: 'Read hello.txt.',
        responses: [
          { text: ['Reading.'], toolCalls: [{ id: 'first-read', name: 'Read', input: { file_path: 'hello.txt' } }] },
          { text: ['It greets you.'] },
        ],
        expect: {
          isError: false,
          toolResults: [{ id: 'first-read', isError: false, contains: ['Hello from the fixture file.'] }],
        },
      },
      {
        prompt: 'And what was the second line?',
        resume: true,
        responses: [{ text: ['Second line.'] }],
        expect: { isError: false },
      },
    ],
  };

  test.each(MOCK_PROVIDER_IDS)('%s: the whole first turn must come back in the resumed turn', async (provider) => {
    const calls = sentCalls(resumed, provider);
    const firstTurn = {
      prompt: 'Read hello.txt.',
      exchanges: [
        { assistantText: 'Reading.', calls, results: [{ id: calls[0]!.id, name: 'Read', content: HELLO_OUTPUT }] },
      ],
      answer: 'It greets you.',
    };
    const tools = ['Read'];
    const play = async (secondTurnHistory: Conversation['turns']): Promise<Finding[]> => {
      const server = await startMockServer({ scenario: resumed, provider });
      servers.push(server);
      await send(
        provider,
        server.url,
        conversationBody(provider, { turns: [{ prompt: firstTurn.prompt, exchanges: [] }], tools }),
      );
      await send(
        provider,
        server.url,
        conversationBody(provider, { turns: [{ ...firstTurn, answer: undefined }], tools }),
      );
      server.setTurn(1);
      await send(provider, server.url, conversationBody(provider, { turns: secondTurnHistory, tools }));
      return checkProviderRequests(resumed, provider, server.requests());
    };
    expect(await play([firstTurn, { prompt: 'And what was the second line?', exchanges: [] }])).toEqual([]);
    const forgotten = await play([{ prompt: 'And what was the second line?', exchanges: [] }]);
    expect(rules(forgotten)).toEqual(['requests.history-on-resume']);
    expect(forgotten.map((finding) => finding.message).join('\n')).toContain('Read hello.txt.');
    // The answer alone: found whatever its spacing, missed when another answer stands in its place.
    const second = { prompt: 'And what was the second line?', exchanges: [] };
    expect(await play([{ ...firstTurn, answer: ' It  greets\nyou. ' }, second])).toEqual([]);
    const otherAnswer = await play([{ ...firstTurn, answer: 'It says goodbye.' }, second]);
    expect(otherAnswer.map((finding) => [finding.rule, finding.message])).toEqual([
      [
        'requests.history-on-resume',
        expect.stringContaining('the answer of turn 1 ("It greets you.") is not in the history'),
      ],
    ]);
  });
});

// R8: an interrupted turn belongs to the history a later turn sends (its prompt; its cut-off answer may be left
// out); a turn the app's SIGKILL ended may be there or not. docs/writing-a-shim.md#an-interrupted-turn-in-the-resumed-history
describe('an interrupted or killed turn in the history of the next', () => {
  const stopped = (stop: 'interrupt' | 'kill'): Scenario => ({
    id: `history-after-${stop}`,
    title: 't',
    description: 'd',
    spec: 'R8',
    turns: [
      {
        prompt: 'Tell me a long story.',
        ...(stop === 'interrupt' ? { interrupt: 'after-first-text' as const } : { kill: 'after-first-text' as const }),
        responses: [{ text: ['Once upon ', 'a time.'], stall: 'after-first-text' }],
        expect: { isError: true },
      },
      { prompt: 'A short one, please.', resume: true, responses: [{ text: ['Fine.'] }], expect: { isError: false } },
    ],
  });
  const nextTurn = async (stop: 'interrupt' | 'kill', history: Conversation['turns']): Promise<string[]> => {
    const scenario = stopped(stop);
    const server = await startMockServer({ scenario, provider: 'openai-chat' });
    servers.push(server);
    server.setTurn(1);
    await send('openai-chat', server.url, conversationBody('openai-chat', { turns: history, tools: [] }));
    return rules(checkProviderRequests(scenario, 'openai-chat', server.requests()));
  };
  const next = { prompt: 'A short one, please.', exchanges: [] };

  test('an interrupted turn: its prompt is owed, its cut-off answer is not', async () => {
    const withPrompt = [{ prompt: 'Tell me a long story.', exchanges: [] }, next];
    const withPartial = [{ prompt: 'Tell me a long story.', exchanges: [], answer: 'Once upon ' }, next];
    expect(await nextTurn('interrupt', withPrompt)).toEqual([]);
    expect(await nextTurn('interrupt', withPartial)).toEqual([]);
    expect(await nextTurn('interrupt', [next])).toEqual(['requests.history-on-resume']);
  });

  test('a killed turn may be in the history or not', async () => {
    expect(await nextTurn('kill', [next])).toEqual([]);
    expect(await nextTurn('kill', [{ prompt: 'Tell me a long story.', exchanges: [] }, next])).toEqual([]);
  });
});

describe('checks on recorded timing and outcomes (hand-made records)', () => {
  const record = (fields: Partial<CheckedRequest> & Pick<CheckedRequest, 'index'>): CheckedRequest => ({
    provider: 'openai-chat',
    path: '/v1/chat/completions',
    query: '',
    turn: 0,
    outcome: 'stream',
    elapsedMs: 0,
    closedByClient: false,
    body: { model: 'm', stream: true, stream_options: { include_usage: true }, messages: [] },
    ...fields,
  });
  const retryAfter = loadScenario(path.join(transcripts, 'fault-429-retry-after'));
  const interrupt = loadScenario(path.join(transcripts, 'interrupt'));
  const fault401 = loadScenario(path.join(transcripts, 'fault-401'));
  const plain = loadScenario(path.join(transcripts, 'plain-text'));

  test('requests.retry-after-honoured: a retry 300 ms after retry-after: 1 fails, one after 1 s passes', () => {
    const requests = (gap: number): CheckedRequest[] => [
      record({ index: 0, responseIndex: 0, outcome: 'http-fault', status: 429 }),
      record({ index: 1, responseIndex: 1, elapsedMs: gap }),
    ];
    expect(rules(checkProviderRequests(retryAfter, 'openai-chat', requests(300)))).toEqual([
      'requests.retry-after-honoured',
    ]);
    expect(checkProviderRequests(retryAfter, 'openai-chat', requests(1005))).toEqual([]);
  });

  test('requests.connection-closed-on-interrupt: the stalled stream must be closed by the client', () => {
    expect(
      rules(
        checkProviderRequests(interrupt, 'openai-chat', [
          record({ index: 0, responseIndex: 0, closedByClient: false }),
        ]),
      ),
    ).toEqual(['requests.connection-closed-on-interrupt']);
    expect(
      checkProviderRequests(interrupt, 'openai-chat', [record({ index: 0, responseIndex: 0, closedByClient: true })]),
    ).toEqual([]);
  });

  test('requests.no-retry-after-fatal: a second request after 401', () => {
    const first = record({ index: 0, responseIndex: 0, outcome: 'http-fault', status: 401 });
    expect(checkProviderRequests(fault401, 'openai-chat', [first])).toEqual([]);
    expect(
      rules(
        checkProviderRequests(fault401, 'openai-chat', [
          first,
          record({ index: 1, outcome: 'unscripted', status: 400, elapsedMs: 5 }),
        ]),
      ),
    ).toEqual(['requests.no-retry-after-fatal']);
  });

  test('requests.unscripted, requests.auth, requests.endpoint, requests.body-json, requests.streaming', () => {
    const ok = record({ index: 0, responseIndex: 0 });
    expect(checkProviderRequests(plain, 'openai-chat', [ok])).toEqual([]);
    expect(
      rules(
        checkProviderRequests(plain, 'openai-chat', [ok, record({ index: 1, outcome: 'unscripted', status: 400 })]),
      ),
    ).toEqual(['requests.unscripted']);
    expect(
      rules(
        checkProviderRequests(plain, 'openai-chat', [
          record({ index: 0, outcome: 'auth-rejected', status: 401 }),
          record({ index: 1, responseIndex: 0 }),
        ]),
      ),
    ).toEqual(['requests.auth']);
    expect(
      rules(
        checkProviderRequests(plain, 'openai-chat', [
          record({ index: 0, provider: undefined, path: '/v1/models', outcome: 'no-route' }),
          record({ index: 1, responseIndex: 0 }),
        ]),
      ),
    ).toEqual(['requests.endpoint']);
    expect(
      rules(
        checkProviderRequests(plain, 'openai-chat', [
          record({ index: 0, outcome: 'bad-body', status: 400, body: undefined }),
          record({ index: 1, responseIndex: 0 }),
        ]),
      ),
    ).toEqual(['requests.body-json']);
    expect(
      rules(
        checkProviderRequests(plain, 'openai-chat', [
          record({
            index: 0,
            responseIndex: 0,
            outcome: 'json',
            body: { model: 'm', stream_options: { include_usage: true }, messages: [] },
          }),
        ]),
      ),
    ).toEqual(['requests.streaming']);
  });
});

describe('catalog', () => {
  test('every catalog entry is complete and ids are unique, dotted kebab-case', () => {
    expect(new Set(REQUEST_RULES.map((rule) => rule.id)).size).toBe(REQUEST_RULES.length);
    for (const rule of REQUEST_RULES) {
      expect(rule.id).toMatch(/^requests\.[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(['MUST', 'SHOULD', 'INFO']).toContain(rule.severity);
      expect(rule.source.length).toBeGreaterThan(0);
      expect(rule.title.length).toBeGreaterThan(0);
      expect(rule.fix.length).toBeGreaterThan(0);
    }
  });
});

afterAll(() => {
  // Every request rule was seen failing by some test in this file (proven both ways), except those the proof
  // table proves with a whole run (test/rules/helpers/rule-proofs.ts, e.g. a body over the mock's size limit).
  const elsewhere = new Set(RULE_PROOFS.map((proof) => proof.rule));
  expect([...provenFailing].sort()).toEqual(
    REQUEST_RULES.map((rule) => rule.id)
      .filter((id) => !elsewhere.has(id) || provenFailing.has(id))
      .sort(),
  );
});
