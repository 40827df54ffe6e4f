// Regression: a CLI that is being stopped may still print — the killed command's result, even the rest of
// its turn (seen in the full matrix on a loaded machine: the fake played on before its SIGINT handler ran).
// After the interrupt the shim answers the running call with an error tool_result, prints `interrupt` and an
// error result, and prints nothing more the CLI says (R6). The stub `claude` below always plays on after
// SIGINT, so the race is reproduced on every run.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnShim } from '../../harness/process/spawn-shim.js';
import { translatorShim } from './helpers/build-shim.js';

const LATE_TEXT = 'The command finished (printed after the interrupt).';

/** A `claude` that announces a Bash call, signals it is running (marker file), and ignores SIGINT to play on. */
function stubClaude(marker: string): string {
  return `
import { writeFileSync } from 'node:fs';
const session = 'stub-session';
const line = (value) => process.stdout.write(JSON.stringify({ ...value, session_id: session }) + '\\n');
const message = (content) => ({ type: 'assistant', message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content } });
line({ type: 'system', subtype: 'init', cwd: process.cwd(), tools: ['Bash'], model: 'claude-sonnet-4-5' });
line(message([{ type: 'text', text: 'Starting a long command.' }]));
line(message([{ type: 'tool_use', id: 'toolu_stub_1', name: 'Bash', input: { command: 'sleep 30' } }]));
process.on('SIGINT', () => {
  line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_stub_1', content: 'done', is_error: false }] } });
  line(message([{ type: 'text', text: ${JSON.stringify(LATE_TEXT)} }]));
  line({ type: 'result', subtype: 'success', is_error: false, result: 'late', usage: { input_tokens: 170, output_tokens: 6 } });
  process.exit(0);
});
writeFileSync(${JSON.stringify(marker)}, 'running');
setTimeout(() => process.exit(3), 15000);
`;
}

describe.runIf(process.platform !== 'win32')('CLI output after the interrupt', () => {
  it('is not printed: the running call gets an error result, then interrupt and an error result (R6)', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'yume-late-cli-'));
    const bin = path.join(base, 'bin');
    const workspace = path.join(base, 'workspace');
    mkdirSync(bin);
    mkdirSync(workspace);
    const marker = path.join(base, 'running');
    writeFileSync(path.join(base, 'stub-claude.mjs'), stubClaude(marker));
    writeFileSync(
      path.join(bin, 'claude'),
      `#!/bin/sh\nexec "${process.execPath}" "${path.join(base, 'stub-claude.mjs')}" "$@"\n`,
    );
    chmodSync(path.join(bin, 'claude'), 0o755);

    const shim = spawnShim({
      shim: await translatorShim(),
      args: [
        '--provider',
        'claude-cli',
        '--model',
        'claude-sonnet-4-5',
        '--cwd',
        workspace,
        '--output-format',
        'stream-json',
        '--prompt',
        'Wait for half a minute using the shell.',
      ],
      cwd: workspace,
      env: {
        PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
        HOME: path.join(base, 'home'),
        ANTHROPIC_API_KEY: 'sk-ant-yume-conformance-dummy',
      },
      stdin: 'closed',
      timeoutMs: 20_000,
    });
    for (let waited = 0; waited < 10_000 && !existsSync(marker); waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(existsSync(marker)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 150)); // let the shim read what the stub printed so far
    shim.signalGroup('SIGINT');
    const exit = await shim.done;

    const stdout = exit.stdout.toString('utf8');
    const lines = stdout
      .split('\n')
      .filter((text) => text.trim() !== '')
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(stdout).not.toContain(LATE_TEXT);
    const results = lines.filter((line) => line.type === 'tool_result');
    expect(results).toHaveLength(1);
    expect(results[0]!.is_error).toBe(true);
    const types = lines.map((line) => line.type).filter((type) => type !== 'usage' && type !== 'message_stop');
    expect(types.slice(-2)).toEqual(['interrupt', 'result']);
    expect(lines.find((line) => line.type === 'result')!.is_error).toBe(true);
    // Only the text before the interrupt: 'Starting a long command.'
    expect(lines.filter((line) => line.type === 'text').map((line) => line.text ?? line.content)).toEqual([
      'Starting a long command.',
    ]);
  });
});
