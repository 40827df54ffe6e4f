// The points a first shim author (one on the Vercel AI SDK, from the README and docs/ alone) had to guess, each
// answered where a shim author looks, under a stable heading. Where the answer can be checked, it is checked here
// against the code that decides it, or in the test named beside the point.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DUMMY_CREDENTIALS } from '../../harness/mock/credentials.js';
import { type MockServer, startMockServer } from '../../harness/mock/mock-server.js';
import { loadScenario } from '../../harness/mock/scenario/scenario-loader.js';
import { shimSpawnCommand } from '../../harness/process/shim-command.js';
import { toCanonicalEvents } from '../../harness/protocol/canonical.js';
import { validatorFor } from '../../harness/protocol/schemas.js';
import { documentSections } from '../../harness/rules/sources.js';
import { PROVIDER_IDS, providerEntry, providerFlags } from '../../harness/runner/config/providers.js';
import { isStreamEventText } from '../../harness/runner/execution/live-stdout.js';
import { validateStream } from '../../harness/validate/validate-stream.js';

const root = path.join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const GUIDE = 'docs/writing-a-shim.md';

/** Each guessed point, the doc and anchor that answers it, and where the answer is checked. */
const POINTS: { point: string; file: string; anchor: string; checked: string }[] = [
  {
    point: 'the shape of stream_event lines',
    file: GUIDE,
    anchor: 'the-shape-of-stream_event-lines',
    checked: 'this file',
  },
  {
    point: 'whether envelopes take message_stop',
    file: GUIDE,
    anchor: 'message_stop-in-either-dialect',
    checked: 'this file',
  },
  {
    point: 'whether an interrupted turn belongs to the history a resume sends (R8)',
    file: GUIDE,
    anchor: 'an-interrupted-turn-in-the-resumed-history',
    checked: 'test/mock/request-checks.test.ts',
  },
  {
    point: 'base URLs for SDKs that expect a version suffix (/v1beta for Google, /v1 for Anthropic)',
    file: GUIDE,
    anchor: 'base-urls-for-sdks-that-add-the-version-path',
    checked: 'this file',
  },
  {
    point: 'whether the API-key header must be absent when gcloud-auth sends a bearer token',
    file: GUIDE,
    anchor: 'api-keys-beside-the-gcloud-bearer-token',
    checked: 'this file',
  },
  {
    point: 'session folders keyed by the provider flag (codex under spec, openai under the app)',
    file: GUIDE,
    anchor: 'session-folders-by-provider-flag',
    checked: 'this file',
  },
  {
    point: 'ai 7 declares Node >= 22, and runs on Node 20',
    file: GUIDE,
    anchor: 'which-node-runs-your-shim',
    checked: 'this file',
  },
];

/** The text of a section: from its heading to the next heading of the same or a higher level. */
function section(file: string, heading: string): string {
  const text = read(file);
  const start = text.indexOf(`### ${heading}\n`);
  expect(start, `${file} has no "### ${heading}"`).toBeGreaterThanOrEqual(0);
  const rest = text.slice(start + heading.length + 5);
  const end = rest.search(/^##+ /m);
  return end < 0 ? rest : rest.slice(0, end);
}

describe('the points a shim author had to guess', () => {
  it.each(POINTS)('$point: answered at $file#$anchor', ({ file, anchor, checked }) => {
    expect(documentSections(read(file)).has(anchor)).toBe(true);
    if (checked !== 'this file') expect(read(checked)).toContain(`${file}#${anchor}`);
  });

  it('the protocol links the answers of R2 and R8 it leaves to the guide', () => {
    const protocol = read('docs/protocol.md');
    for (const anchor of ['message_stop-in-either-dialect', 'the-shape-of-stream_event-lines', POINTS[2]!.anchor])
      expect(protocol).toContain(`writing-a-shim.md#${anchor}`);
  });
});

const bytes = (...lines: object[]) => Buffer.from(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
const init = {
  type: 'system',
  subtype: 'init',
  session_id: 's-1',
  model: 'm',
  cwd: '/w',
  permissionMode: 'default',
  tools: [],
  uuid: 'u-1',
};
const assistant = {
  type: 'assistant',
  message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Once upon a time.' }] },
  uuid: 'u-8',
};
const result = {
  type: 'result',
  subtype: 'success',
  is_error: false,
  session_id: 's-1',
  usage: { input_tokens: 3, output_tokens: 4 },
  uuid: 'u-9',
};
const rulesOf = (stream: Buffer, profile: 'spec' | 'yume-app') =>
  validateStream(stream, { profile, mode: 'spawn-per-turn' }).findings.map((finding) => finding.rule);

describe('the shape of stream_event lines', () => {
  const example = JSON.parse(/```json\n(.+)\n```/.exec(section(GUIDE, 'The shape of stream_event lines'))![1]!);

  it('the documented text delta is a stream message that counts as streamed text', () => {
    expect(validatorFor('stream-message.schema.json')(example)).toBe(true);
    const [event] = toCanonicalEvents(bytes(example));
    expect(event && isStreamEventText(event)).toBe(true);
    const other = { ...example, event: { type: 'message_start', message: {} } };
    const [notText] = toCanonicalEvents(bytes(other));
    expect(notText && isStreamEventText(notText)).toBe(false);
  });

  it('in Claude envelopes, before the whole message, conforms under both profiles', () => {
    const stream = bytes(init, example, assistant, result);
    expect(rulesOf(stream, 'spec')).toEqual([]);
    expect(rulesOf(stream, 'yume-app')).toEqual([]);
  });
});

describe('message_stop in either dialect', () => {
  const stop = { type: 'message_stop', uuid: 'u-10' };

  it('envelopes may end a turn with it or without it; it comes right after the result', () => {
    expect(rulesOf(bytes(init, assistant, result, stop), 'yume-app')).toEqual([]);
    expect(rulesOf(bytes(init, assistant, result), 'yume-app')).toEqual([]);
    expect(rulesOf(bytes(init, assistant, stop, result), 'spec')).toContain('turn.message-stop-after-result');
  });
});

describe('the mock, as the answers describe it', () => {
  const servers: MockServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  const started = async (scenario: string) => {
    const server = await startMockServer({ scenario: loadScenario(path.join(root, 'transcripts', scenario)) });
    servers.push(server);
    return server;
  };
  const post = (url: string, headers: Record<string, string>, body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, text: await response.text() }));
  const geminiBody = { contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }] };
  const geminiPath = '/models/gemini-2.5-flash:streamGenerateContent?alt=sse';

  it('serves the SDK paths under the base URLs it gives, the version path included, and no other', async () => {
    const server = await started('plain-text');
    const { anthropic, gemini } = server.baseUrls;
    const key = { 'x-goog-api-key': DUMMY_CREDENTIALS.geminiApiKey };
    expect((await post(`${gemini}/v1beta${geminiPath}`, key, geminiBody)).status).toBe(200);
    expect((await post(`${gemini}${geminiPath}`, key, geminiBody)).status).toBe(404);
    const anthropicHeaders = { 'x-api-key': DUMMY_CREDENTIALS.anthropicApiKey, 'anthropic-version': '2023-06-01' };
    const message = {
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    };
    expect((await post(`${anthropic}/messages`, anthropicHeaders, message)).status).toBe(404);
    expect(server.baseUrls.openai).toMatch(/\/v1$/); // OpenAI's SDKs take it as it is
    const guide = section(GUIDE, 'Base URLs for SDKs that add the version path');
    expect(guide).toContain(`\`\${ANTHROPIC_BASE_URL}/v1\``);
    expect(guide).toContain(`\`\${GOOGLE_GEMINI_BASE_URL}/v1beta\``);
  });

  it('gcloud-auth: the bearer token alone passes; a key beside it is judged, and refused', async () => {
    // The scenario scripts one answer: each request goes to a mock of its own.
    const once = async (headers: Record<string, string>) => {
      const server = await started('gcloud-auth');
      return post(`${server.baseUrls.gemini}/v1beta${geminiPath}`, headers, geminiBody);
    };
    const bearer = { authorization: `Bearer ${DUMMY_CREDENTIALS.gcloudAccessToken}` };
    expect((await once(bearer)).status).toBe(200);
    expect((await once({ ...bearer, 'x-goog-api-key': '' })).status).toBe(200);
    const withKey = await once({ ...bearer, 'x-goog-api-key': 'AIza-some-other-key' });
    expect(withKey.status).toBe(400);
    expect(withKey.text).toContain('API key not valid');
    expect(section(GUIDE, 'API keys beside the gcloud bearer token')).toContain('400, API key not valid');
  });
});

describe('session folders by provider flag', () => {
  it("the guide's table is the flags each invocation passes", () => {
    const table = section(GUIDE, 'Session folders by provider flag');
    for (const id of PROVIDER_IDS) {
      const entry = providerEntry(id)!;
      const folder = (kind: 'spec' | 'yume-app') => {
        const flags = providerFlags(entry, kind);
        return flags ? `\`${flags.provider}\`` : '(not started)';
      };
      expect(table).toContain(`| \`${id}\` | ${folder('spec')} | ${folder('yume-app')} |`);
    }
    expect(providerFlags(providerEntry('openai-responses')!, 'spec')?.provider).toBe('codex');
    expect(providerFlags(providerEntry('openai-responses')!, 'yume-app')?.provider).toBe('openai');
  });
});

describe('which Node runs your shim', () => {
  it('a .js, .mjs or .cjs shim runs with the Node that runs the suite', () => {
    for (const shim of ['/s/my-shim.js', '/s/my-shim.mjs', '/s/my-shim.cjs']) {
      const command = shimSpawnCommand(shim, ['--x'], { platform: 'linux', execPath: '/opt/node20/bin/node' });
      expect(command).toMatchObject({ file: '/opt/node20/bin/node', args: [shim, '--x'] });
    }
    expect(shimSpawnCommand('/s/my-shim', [], { platform: 'linux', execPath: '/opt/node20/bin/node' }).file).toBe(
      '/s/my-shim',
    );
    const required = JSON.parse(read('package.json')).engines.node;
    expect(required).toBe('>=20.19');
    expect(section(GUIDE, 'Which Node runs your shim')).toContain('Node 20.19 or later');
  });
});
