// Small in-memory scenarios for the mock tests (the shipped ones live in transcripts/).
import type { ModelResponse, Scenario, Turn } from '../../../harness/mock/scenario/scenario-types.js';

export function oneTurn(id: string, responses: Turn['responses'], extra: Partial<Scenario> = {}): Scenario {
  return {
    id,
    title: id,
    description: id,
    spec: 'test',
    turns: [{ prompt: 'go', responses, expect: { isError: false } }],
    ...extra,
  };
}

/** A turn's responses from a computed list: the schema (and so the `Turn` type) wants at least one. */
export function scriptedResponses(responses: ModelResponse[], from: string): Turn['responses'] {
  const [first, ...rest] = responses;
  if (first === undefined) throw new Error(`${from} gives no model response to script`);
  return [first, ...rest];
}

/** Thinking, text with non-ASCII characters, and two parallel tool calls. */
export const richResponse: ModelResponse = {
  thinking: ['Need both ', 'files.'],
  text: ['Reading ', 'both — naïve café ✓ ', 'files.'],
  toolCalls: [
    { id: 'call-a', name: 'Read', input: { file_path: 'hello.txt' } },
    { id: 'call-b', name: 'Bash', input: { command: 'ls -la "dir with spaces"', description: 'List ✓' } },
  ],
  usage: { input_tokens: 42, output_tokens: 17 },
};
