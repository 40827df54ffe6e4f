// The scripts the capture mock played (test/fixtures/streams/captures/HOW-CAPTURED.md), as scenarios for the fakes: the same
// prompts, the same 3-word text chunks, the same tool calls and the same usage numbers.
import type { OfficialCliName, ScriptResponse, ScriptScenario } from '../../../harness/official-cli/script-types.js';

export const CAPTURE_IDS = [
  '1-plain',
  '2-tool',
  '3-two-tools',
  '4-tool-error',
  '5-http-500',
  '5b-http-429',
  '6-interrupt',
] as const;
export type CaptureId = (typeof CAPTURE_IDS)[number] | '6b-interrupt-group';

const FIRST = { input_tokens: 121, output_tokens: 26 };
const SECOND = { input_tokens: 122, output_tokens: 27 };

function single(id: string, prompt: string, responses: ScriptResponse[]): ScriptScenario {
  return { id, turns: [{ prompt, responses, expect: { isError: false } }] };
}

export function captureScenario(id: CaptureId, cli: OfficialCliName): ScriptScenario {
  switch (id) {
    case '1-plain':
      return single(id, 'Say hello.', [
        { text: ['Hello! This is ', 'a plain text ', 'reply from the ', 'mock provider.'], usage: FIRST },
      ]);
    case '2-tool':
      return single(id, 'Read hello.txt and tell me what it says.', [
        {
          text: ["I'll read the ", 'file.'],
          toolCalls: [{ id: 'read', name: 'Read', input: { file_path: 'hello.txt' } }],
          usage: FIRST,
        },
        { text: ['The file says: ', 'Hello from the ', 'fixture file.'], usage: SECOND },
      ]);
    case '3-two-tools':
      return single(id, 'Read hello.txt and list the files here.', [
        {
          toolCalls: [
            { id: 'read', name: 'Read', input: { file_path: 'hello.txt' } },
            { id: 'ls', name: 'Bash', input: { command: 'ls', description: 'Run ls' } },
          ],
          usage: FIRST,
        },
        { text: ['I read hello.txt ', 'and listed the ', 'directory.'], usage: SECOND },
      ]);
    case '4-tool-error': {
      const shell = {
        id: 'fail',
        name: 'Bash',
        input: { command: 'cat missing.txt; exit 3', description: 'Run cat missing.txt; exit 3' },
      };
      const read = { id: 'missing', name: 'Read', input: { file_path: 'missing.txt' } };
      // codex got only the shell command: its only execution tool is exec_command.
      return single(id, 'Read missing.txt and run a command that fails.', [
        { toolCalls: cli === 'codex' ? [shell] : [read, shell], usage: FIRST },
        { text: ['The file missing.txt ', 'does not exist ', 'and the command ', 'failed.'], usage: SECOND },
      ]);
    }
    case '5-http-500':
      return single(id, 'Say hello.', [{ fault: { kind: 'http', status: 500 }, repeat: 10 }]);
    case '5b-http-429':
      return single(id, 'Say hello.', [{ fault: { kind: 'http', status: 429, retryAfter: 0 }, repeat: 10 }]);
    case '6-interrupt':
    case '6b-interrupt-group':
      // The mock sent six chunks before it held the stream; the fakes hold after their first chunk.
      return single(id, 'Write a long story.', [
        {
          text: ['Once upon a time, in a land far away, there was a very long story that'],
          stall: 'after-first-text',
          usage: { input_tokens: 121, output_tokens: 18 },
        },
      ]);
  }
}
