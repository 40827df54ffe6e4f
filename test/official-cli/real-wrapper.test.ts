// The real-CLI mode's PATH wrapper, run for real in front of a stand-in "CLI" (a shell script that prints its
// pid and its stdin): it logs the start with the CLI's own pid (it execs the CLI), and for codex it reads
// stdin to EOF first, handing the bytes on and logging the prompt, or logs stdin left open and hands the
// CLI the shim's stdin as it is. For gemini and claude stdin is the CLI's alone. POSIX only (sh, exec, cat).
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../harness/mock/scenario/scenario-loader.js';
import { writeRealCliWrapper } from '../../harness/official-cli/real/wrapper.js';
import type { OfficialCliName } from '../../harness/official-cli/script-types.js';
import { type CliLogEntry, readLog, writeState } from '../../harness/official-cli/state.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const STDIN_WAIT_MS = 400;

interface Ran {
  stdout: string;
  log: CliLogEntry[];
}

describe('the real-CLI wrapper', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'yume-real-wrapper-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** Installs the wrapper for `cli` in a fresh folder and runs it; `feed` drives its stdin. */
  async function runWrapper(
    cli: OfficialCliName,
    args: string[],
    feed: (stdin: NodeJS.WritableStream) => void,
  ): Promise<Ran> {
    const dir = mkdtempSync(path.join(work, `${cli}-`));
    const executable = path.join(dir, `real-${cli}`);
    writeFileSync(executable, '#!/bin/sh\necho "pid=$$"\ncat\n');
    chmodSync(executable, 0o755);
    const stateFile = path.join(dir, 'state.json');
    const logFile = path.join(dir, 'log.jsonl');
    writeState(stateFile, {
      scenario: loadScenario(path.join(root, 'transcripts', 'plain-text')),
      turnIndex: 0,
      stdinWaitMs: STDIN_WAIT_MS,
    });
    const wrapper = await writeRealCliWrapper(path.join(dir, 'bin'), cli, {
      executable,
      env: {},
      loggerScript: path.join(root, 'dist', 'fake-cli.js'),
      stateFile,
      logFile,
    });
    return new Promise((resolve, reject) => {
      const child = spawn(wrapper, args, { stdio: ['pipe', 'pipe', 'inherit'] });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('the wrapper did not end within 10 s'));
      }, 10_000);
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
      });
      child.on('close', () => {
        clearTimeout(timer);
        resolve({ stdout, log: readLog(logFile) });
      });
      feed(child.stdin);
    });
  }

  const codexArgs = ['exec', '--json', '--skip-git-repo-check', '--', 'Say hello.'];
  const pidOf = (stdout: string) => Number(/pid=(\d+)/.exec(stdout)?.[1]);

  it('logs codex’s start with the CLI’s pid and its prompt, and hands on what stdin held', async () => {
    const ran = await runWrapper('codex', codexArgs, (stdin) => stdin.end('more context\n'));
    expect(ran.stdout).toContain('more context');
    const start = ran.log.find((entry) => entry.event === 'start');
    expect(start).toMatchObject({ cli: 'codex', observedBy: 'wrapper', pid: pidOf(ran.stdout), argv: codexArgs });
    expect(ran.log.find((entry) => entry.event === 'prompt')).toMatchObject({
      prompt: 'Say hello.\n\nmore context',
      source: 'argv+stdin',
    });
    expect(ran.log.some((entry) => entry.event === 'stdin-open')).toBe(false);
  });

  it('logs stdin left open for codex, then hands the CLI the shim’s stdin itself', async () => {
    const ran = await runWrapper('codex', codexArgs, (stdin) => {
      setTimeout(() => stdin.end('written late\n'), STDIN_WAIT_MS + 600);
    });
    const open = ran.log.find((entry) => entry.event === 'stdin-open');
    expect(open).toMatchObject({ cli: 'codex', pid: pidOf(ran.stdout) });
    expect((open as { waitedMs: number }).waitedMs).toBeGreaterThanOrEqual(STDIN_WAIT_MS - 50);
    expect(ran.stdout).toContain('written late');
  });

  it('leaves gemini’s stdin to gemini', async () => {
    const ran = await runWrapper('gemini', ['--output-format=stream-json', '--prompt=Say hello.'], (stdin) => {
      setTimeout(() => stdin.end('for gemini\n'), STDIN_WAIT_MS + 600);
    });
    expect(ran.stdout).toContain('for gemini');
    expect(ran.log.map((entry) => entry.event)).toEqual(['start']);
    expect(ran.log[0]).toMatchObject({ cli: 'gemini', pid: pidOf(ran.stdout), prompt: 'Say hello.' });
  });
});
