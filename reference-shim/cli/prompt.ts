// R8: without --prompt and without --input-format stream-json, the prompt is stdin read to EOF.
export async function readPromptFromStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<string | undefined> {
  if (stdin.isTTY) return undefined; // a terminal would wait forever for an EOF nobody sends
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}
