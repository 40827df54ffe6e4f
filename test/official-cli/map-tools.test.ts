// --map-tools: a request declaring an official CLI's tools (gemini read_file, codex exec_command and
// apply_patch) is answered with those tools and matching inputs; without the option the same request gets
// the 400 of requests.tools-declared.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DUMMY_CREDENTIALS } from '../../harness/mock/credentials.js';
import { startMockServer } from '../../harness/mock/mock-server.js';
import { loadScenario } from '../../harness/mock/scenario/scenario-loader.js';
import { mapToolsToDeclared } from '../../harness/official-cli/map-tools.js';

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
