// The `/compact` command (docs/protocol.md#r21-compaction), as claude matches it: a prompt that, trimmed, is
// `/compact` or starts with `/compact` and whitespace asks for a compaction, and the rest is hints. The runner
// uses it to know which turns compact; the reference shim, to know when to. One definition, so the two agree.

const COMMAND = '/compact';

/** Whether `prompt` asks for a compaction. `/compacted` or `please /compact` do not: claude matches the same. */
export function isCompactPrompt(prompt: string): boolean {
  const trimmed = prompt.trim();
  return trimmed === COMMAND || (trimmed.startsWith(COMMAND) && /\s/.test(trimmed.charAt(COMMAND.length)));
}

/** The hints after `/compact` (the app sends `task: … | files: …`), trimmed; empty when there are none. */
export function compactHints(prompt: string): string {
  return isCompactPrompt(prompt) ? prompt.trim().slice(COMMAND.length).trim() : '';
}
