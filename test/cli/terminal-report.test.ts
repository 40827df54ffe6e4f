// The terminal report end to end through the bundled bin: a passing suite of several providers with a warning
// on every run stays short (each rule once, with its count), the verdict is said once, a failing run shows its
// whole identity, --verbose shows INFO notes, and on a terminal a live status line is redrawn in place.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureShim, root } from '../runner/helpers/run-fixture.js';
import { runInPseudoTerminal } from './helpers/pseudo-terminal.js';

const cli = path.join(root, 'dist', 'cli.js');
const warns = fixtureShim('prints-unknown-type-every-turn.mjs');

function yumeConformance(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' },
      timeout: 120_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the terminal report of run', () => {
  it('a passing suite with a warning on every run prints each rule once with its count, in at most 40 lines', async () => {
    const result = await yumeConformance([
      warns,
      '--provider',
      'gemini,anthropic,openai-chat',
      '--scenario',
      'plain-text,single-tool',
    ]);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.length, result.stdout).toBeLessThanOrEqual(40);
    expect(result.stdout.match(/SHOULD schema\.unknown-type/g)).toHaveLength(1);
    const runs = Number(/^(\d+) run\(s\):/m.exec(result.stdout)?.[1]);
    expect(runs).toBeGreaterThanOrEqual(6);
    expect(result.stdout).toContain(`SHOULD schema.unknown-type  ×${runs} in ${runs} runs`);
    expect(result.stdout).not.toMatch(/^\s*✔/m); // no paragraph for a passing run
    // One verdict, on stdout's last line; stderr has the run lines only.
    expect(lines.at(-1)).toBe('yume-conformance: PASSED, ✔ conforms (exit 0)');
    expect(result.stderr).not.toContain('PASSED');
    expect(result.stderr).toMatch(
      /\] ✔ passed\s+single-tool \[anthropic\] invocation=spec profile=spec dialect=flat seed=\d+ ·/,
    );
  });

  it('a failing run shows its whole identity, MUST findings first', async () => {
    const result = await yumeConformance([
      fixtureShim('drops-result.mjs'),
      '--provider',
      'gemini',
      '--scenario',
      'plain-text',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^Failed \(\d+\)\n {2}✘ plain-text \[gemini\] invocation=spec profile=spec dialect=flat( seed=\d+)?/m,
    );
    expect(result.stdout).toMatch(/\n {4}MUST {3}turn\.result-last/);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('yume-conformance: FAILED, ✘ does not conform (exit 1)');
  });

  it('shows INFO notes only with --verbose', async () => {
    const args = [warns, '--provider', 'gemini', '--scenario', 'interrupt'];
    const [plain, verbose] = await Promise.all([yumeConformance(args), yumeConformance([...args, '--verbose'])]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain('INFO');
    expect(verbose.stdout).toMatch(/^Notes \(\d+ rule\(s\); INFO, shown with --verbose\)$/m);
    expect(verbose.stdout).toContain('INFO   interrupt.sent');
  });

  it('on a terminal, redraws a live status line: done/total, failed, elapsed, ETA', async () => {
    const { code, output } = await runInPseudoTerminal(
      [process.execPath, cli, warns, '--provider', 'gemini,anthropic', '--scenario', 'plain-text'],
      { cwd: root, env: { NO_COLOR: '1', FORCE_COLOR: '' }, timeoutMs: 120_000 },
    );
    expect(code, output).toBe(0);
    // Drawn in place: erase the line, then the status, over and over.
    const statuses =
      output.match(/\r\u001b\[2K▶ \d+(\/\d+)? runs · \d+ failed · \d+:\d\d elapsed · (ETA (…|\d+:\d\d)|done)/g) ?? [];
    expect(statuses.length, output).toBeGreaterThanOrEqual(2);
    expect(output).toMatch(/▶ (\d+)\/\1 runs · 0 failed · \d+:\d\d elapsed · done/);
    // No line per passing run on a terminal; the report follows on the same screen.
    expect(output).not.toMatch(/\[\s*\d+\/\d+\] ✔ passed/);
    expect(output).toContain('yume-conformance: PASSED, ✔ conforms (exit 0)');
  });
});
