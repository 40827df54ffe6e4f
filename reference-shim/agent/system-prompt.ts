// The instructions sent with every model call. Short on purpose: the tool declarations carry the details.
export function systemPrompt(cwd: string, toolNames: readonly string[]): string {
  return [
    'You are a coding agent working in a local project on behalf of the user.',
    `The working directory is ${cwd}. Paths may be relative to it; tools refuse paths outside it.`,
    `Available tools: ${toolNames.join(', ')}. Use them to inspect and change files instead of guessing.`,
    'Read a file before editing it. Keep answers concise and say what you changed.',
  ].join('\n');
}
