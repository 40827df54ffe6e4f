// The real CLIs' requests (captures/*/*.requests.jsonl) are accepted by the mocks, and the mocks answer with
// the same event types and fields as the captured streams the CLIs accepted (*.provider.sse). Shapes, not ids.
import { afterEach, describe, expect, test } from 'vitest';
import { DUMMY_CREDENTIALS } from '../../harness/mock/credentials.js';
import { type MockServer, startMockServer } from '../../harness/mock/mock-server.js';
import { requestView } from '../../harness/mock/request-views.js';
import type { MockProviderId, Scenario } from '../../harness/mock/scenario/scenario-types.js';
import {
  type CapturedResponse,
  CLI_PROVIDER,
  capturedRequests,
  capturedResponses,
  captureNames,
  eventName,
  fieldPaths,
  parseSse,
  scriptFromCapture,
} from './helpers/capture-files.js';
import { scriptedResponses } from './helpers/scenario-fixtures.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const AUTH: Record<MockProviderId, Record<string, string>> = {
  anthropic: { 'x-api-key': DUMMY_CREDENTIALS.anthropicApiKey },
  gemini: { 'x-goog-api-key': DUMMY_CREDENTIALS.geminiApiKey },
  'openai-responses': { authorization: `Bearer ${DUMMY_CREDENTIALS.openaiApiKey}` },
  'openai-chat': { authorization: `Bearer ${DUMMY_CREDENTIALS.openaiApiKey}` },
};
/** Headers replayed as the CLI sent them, minus the ones fetch sets itself and the redacted credentials. */
const DROPPED = new Set([
  'host',
  'content-length',
  'connection',
  'accept-encoding',
  'x-api-key',
  'x-goog-api-key',
  'authorization',
]);

/** Union of event names and, per event name, of field paths over a list of responses. */
function shapes(responses: CapturedResponse[]): Map<string, Set<string>> {
  const byName = new Map<string, Set<string>>();
  for (const response of responses) {
    const events =
      response.kind === 'stream'
        ? response.events
        : response.kind === 'json'
          ? [{ event: 'json', data: response.body }]
          : [{ event: `http-${response.status}`, data: response.body }];
    for (const event of events) {
      const name = eventName(event);
      const paths = byName.get(name) ?? new Set<string>();
      fieldPaths(event.data, '', paths);
      byName.set(name, paths);
    }
  }
  return byName;
}

const cases = Object.keys(CLI_PROVIDER).flatMap((cli) => captureNames(cli).map((name) => [cli, name] as const));

describe.each(cases)('%s/%s', (cli, name) => {
  const provider = CLI_PROVIDER[cli]!;
  const captured = capturedResponses(cli, name);
  const requests = capturedRequests(cli, name);

  test('the captured requests are accepted and answered like the capture; the answer has the captured shape', async () => {
    const scenario: Scenario = {
      id: `capture-${cli}-${name}`,
      title: name,
      description: 'replay',
      spec: 'captures',
      turns: [
        {
          prompt: 'replay',
          responses: scriptedResponses(
            captured.map((response) => scriptFromCapture(provider, response)),
            `${cli}/${name}`,
          ),
          expect: { isError: false },
        },
      ],
    };
    const server = await startMockServer({ scenario, provider });
    servers.push(server);
    const answers: CapturedResponse[] = [];
    for (const request of requests) {
      const headers: Record<string, string> = { ...AUTH[provider] };
      for (const [key, value] of Object.entries(request.headers)) if (!DROPPED.has(key)) headers[key] = value;
      const response = await fetch(`${server.url}${request.path}${request.query}`, {
        method: request.method,
        headers,
        body: JSON.stringify(request.body),
      });
      const text = await response.text();
      const json = response.headers.get('content-type')?.startsWith('application/json') === true;
      answers.push(
        response.status !== 200
          ? { kind: 'http', status: response.status, headers: {}, body: JSON.parse(text) }
          : json
            ? { kind: 'json', body: JSON.parse(text) }
            : { kind: 'stream', events: parseSse(text) },
      );
    }
    const recorded = server.requests();
    const outcome = { http: 'http-fault', json: 'json', stream: 'stream' } as const;
    expect(recorded.map((request) => request.outcome)).toEqual(
      captured.slice(0, requests.length).map((response) => outcome[response.kind]),
    );
    expect(answers.map((answer) => (answer.kind === 'http' ? answer.status : 200))).toEqual(
      captured.slice(0, requests.length).map((response) => (response.kind === 'http' ? response.status : 200)),
    );

    // Same event types, and every field the CLI saw is present in the mock's events of that type.
    const want = shapes(captured.slice(0, requests.length));
    const got = shapes(answers);
    for (const [event, paths] of want) {
      expect(got.has(event), `mock never sends ${event}`).toBe(true);
      const missing = [...paths].filter((field) => !got.get(event)!.has(field));
      expect(missing, `${event} lacks fields`).toEqual([]);
    }
  });

  test('tool results in the captured follow-up requests are read with their ids and content', () => {
    for (let i = 1; i < requests.length; i += 1) {
      const previous = captured[i - 1];
      if (previous?.kind !== 'stream') continue;
      const calls = scriptFromCapture(provider, previous).toolCalls ?? [];
      // A follow-up of a text answer (the next turn, a summary request) carries no new tool results.
      if (calls.length === 0) continue;
      const history = requestView(provider, requests[i]!.body, requests[i]!.path).history;
      const results = history.flatMap((item) => item.toolResults).slice(-calls.length);
      expect(results).toHaveLength(calls.length);
      for (const result of results) {
        expect(result.content.length).toBeGreaterThan(0);
        if (provider === 'gemini') expect(result.name).toBeTruthy();
        else expect(result.id).toBeTruthy();
      }
      if (/tool/.test(name) && !/error/.test(name)) {
        expect(results.map((result) => result.content).join('\n')).toContain('Hello from the fixture file.');
      }
      const replayedCalls = history.filter((item) => item.role === 'assistant').flatMap((item) => item.toolCalls);
      expect(replayedCalls.map((call) => call.name).slice(-calls.length)).toEqual(calls.map((call) => call.name));
    }
  });
});
