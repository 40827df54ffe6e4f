// --map-tools: a request declaring an official CLI's tools (gemini read_file, codex exec_command and
// apply_patch, copilot view, create, edit, bash) is answered with those tools and matching inputs, whichever
// provider the request came through; without the option the same request gets the 400 of
// requests.tools-declared. copilot's file tools get absolute paths against the given cwd, and a Write to a file
// that exists there is never a `create`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DUMMY_CREDENTIALS } from '../../harness/mock/credentials.js';
import { startMockServer } from '../../harness/mock/mock-server.js';
import { loadScenario } from '../../harness/mock/scenario/scenario-loader.js';
import type { ModelResponse, ScriptToolCall } from '../../harness/mock/scenario/scenario-types.js';
import { declaredToolMapper } from '../../harness/official-cli/map-tools.js';

const mapToolsToDeclared = declaredToolMapper();

const transcripts = path.resolve(import.meta.dirname, '..', '..', 'transcripts');

async function geminiCall(mapTools: boolean): Promise<{ status: number; body: string }> {
  const mock = await startMockServer({
    scenario: loadScenario(path.join(transcripts, 'single-tool')),
    ...(mapTools ? { mapTools: mapToolsToDeclared } : {}),
  });
  try {
    const response = await fetch(
      `${mock.baseUrls.gemini}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': DUMMY_CREDENTIALS.geminiApiKey },
        body: JSON.stringify({
          contents: [{ role: 'user', parts: [{ text: 'Read hello.txt' }] }],
          tools: [{ functionDeclarations: [{ name: 'read_file' }, { name: 'run_shell_command' }] }],
        }),
      },
    );
    return { status: response.status, body: await response.text() };
  } finally {
    await mock.close();
  }
}

async function codexCall(scenario: string, tools: unknown[], responses: number): Promise<string[]> {
  const mock = await startMockServer({
    scenario: loadScenario(path.join(transcripts, scenario)),
    mapTools: mapToolsToDeclared,
  });
  const bodies: string[] = [];
  try {
    for (let index = 0; index < responses; index += 1) {
      const response = await fetch(`${mock.baseUrls.openai}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${DUMMY_CREDENTIALS.openaiApiKey}` },
        body: JSON.stringify({ model: 'gpt-5.5', input: 'go', tools, stream: true }),
      });
      expect(response.status).toBe(200);
      bodies.push(await response.text());
    }
    return bodies;
  } finally {
    await mock.close();
  }
}

describe('mock --map-tools', () => {
  it("answers gemini's read_file for a scripted Read, and refuses the same request without the option", async () => {
    const mapped = await geminiCall(true);
    expect(mapped.status).toBe(200);
    expect(mapped.body).toContain('"functionCall":{"name":"read_file","args":{"file_path":"hello.txt"}}');
    const plain = await geminiCall(false);
    expect(plain.status).toBe(400);
    expect(plain.body).toContain('does not declare the tool(s) \\"Read\\"');
  });

  it('answers codex with exec_command for a Read and apply_patch (or a shell edit without it) for Write and Edit', async () => {
    const withPatch = await codexCall(
      'multi-tool',
      [
        { type: 'function', name: 'exec_command' },
        { type: 'custom', name: 'apply_patch' },
      ],
      4,
    );
    expect(withPatch[0]).toContain('"name":"exec_command","call_id"');
    expect(withPatch[0]).toContain('{\\"cmd\\":\\"cat hello.txt\\"}');
    expect(withPatch[1]).toContain('"type":"custom_tool_call"');
    expect(withPatch[1]).toContain('*** Add File: summary.txt\\n+hello.txt has two lines.\\n*** End Patch');
    expect(withPatch[3]).toContain('*** Update File: notes.txt\\n@@\\n-Status: draft\\n+Status: final');
    const withoutPatch = await codexCall('multi-tool', [{ type: 'function', name: 'exec_command' }], 2);
    expect(withoutPatch[1]).toContain("printf '%s' 'hello.txt has two lines.\\\\n' > summary.txt");
  });
});

const COPILOT_TOOLS = ['bash', 'view', 'create', 'edit', 'glob', 'grep'];
const calls = (...toolCalls: ScriptToolCall[]): ModelResponse => ({ toolCalls });
const mapped = (response: ModelResponse) => response.toolCalls?.map((call) => ({ name: call.name, input: call.input }));

describe('declaredToolMapper: copilot', () => {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'yume-map-tools-'));
  writeFileSync(path.join(cwd, 'notes.txt'), 'Status: draft\n');
  writeFileSync(path.join(cwd, 'empty.txt'), '');
  const mapper = declaredToolMapper({ cwd });

  it('maps Read, Edit and Bash to view, edit and bash with absolute paths, on every provider alike', () => {
    const response = calls(
      { id: 'r', name: 'Read', input: { file_path: 'hello.txt' } },
      { id: 'e', name: 'Edit', input: { file_path: 'notes.txt', old_string: 'draft', new_string: 'final' } },
      { id: 'b', name: 'Bash', input: { command: 'ls' } },
    );
    const expected = [
      { name: 'view', input: { path: path.join(cwd, 'hello.txt') } },
      { name: 'edit', input: { path: path.join(cwd, 'notes.txt'), old_str: 'draft', new_str: 'final' } },
      { name: 'bash', input: { command: 'ls', description: 'ls' } },
    ];
    for (const provider of ['anthropic', 'openai-chat', 'openai-responses'] as const)
      expect(mapped(mapper(provider, response, COPILOT_TOOLS))).toEqual(expected);
  });

  it('maps a Write to create only for a new file: an existing one is edited whole, an empty one written by the shell', () => {
    const response = calls(
      { id: 'n', name: 'Write', input: { file_path: 'summary.txt', content: 'new\n' } },
      { id: 'x', name: 'Write', input: { file_path: 'notes.txt', content: 'Status: final\n' } },
      { id: 'z', name: 'Write', input: { file_path: 'empty.txt', content: 'filled\n' } },
    );
    const [created, edited, shell] = mapped(mapper('anthropic', response, COPILOT_TOOLS))!;
    expect(created).toEqual({ name: 'create', input: { path: path.join(cwd, 'summary.txt'), file_text: 'new\n' } });
    expect(edited).toEqual({
      name: 'edit',
      input: { path: path.join(cwd, 'notes.txt'), old_str: 'Status: draft\n', new_str: 'Status: final\n' },
    });
    expect(shell).toMatchObject({ name: 'bash', input: { command: expect.stringContaining('> empty.txt') } });
  });

  it('without a cwd never guesses: a relative Write goes through the shell, never create', () => {
    const response = calls({ id: 'x', name: 'Write', input: { file_path: 'notes.txt', content: 'x\n' } });
    const [call] = mapped(declaredToolMapper()('anthropic', response, COPILOT_TOOLS))!;
    expect(call?.name).toBe('bash');
  });

  it('leaves a call alone when the request declares neither its name nor a mapping', () => {
    const response = calls({ id: 'r', name: 'Read', input: { file_path: 'hello.txt' } });
    expect(mapped(mapper('anthropic', response, ['unrelated']))).toEqual([
      { name: 'Read', input: { file_path: 'hello.txt' } },
    ]);
  });
});

describe('declaredToolMapper: codex apply_patch with a cwd', () => {
  it('patches a Write over an existing file as an update of its whole content, never as an added file', () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'yume-map-tools-'));
    writeFileSync(path.join(cwd, 'notes.txt'), 'Status: draft\n');
    const response = calls({ id: 'x', name: 'Write', input: { file_path: 'notes.txt', content: 'Status: final\n' } });
    const [call] = declaredToolMapper({ cwd })('openai-responses', response, ['exec_command', 'apply_patch'])
      .toolCalls!;
    expect(call?.rawArguments).toBe(
      '*** Begin Patch\n*** Update File: notes.txt\n@@\n-Status: draft\n+Status: final\n*** End Patch\n',
    );
  });
});
