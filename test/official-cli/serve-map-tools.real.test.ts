// `yume-conformance serve --map-tools --scenario single-tool` plays the stock tool scenario (which scripts
// the app's `Read`) to the real gemini, codex and copilot: the mock answers with the tool each declares (read_file,
// exec_command, and copilot's view with the absolute path `--cwd` makes of the script's). Without --map-tools the
// same request is refused with the 400 of requests.tools-declared.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { DUMMY_CREDENTIALS } from '../../harness/mock/credentials.js';
import { prepareOfflineEnvironment } from '../../harness/official-cli/real/offline-environment.js';
import { runBounded } from '../../harness/official-cli/real/run-bounded.js';
import { commitFixtures } from '../../harness/runner/setup/git-workspace.js';
// @ts-expect-error: a plain .mjs script without types
import { realProgramEnv } from '../../scripts/real-programs.mjs';
import { realCliPath } from './shared-programs.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const keys = {
  openai: DUMMY_CREDENTIALS.openaiApiKey,
  anthropic: DUMMY_CREDENTIALS.anthropicApiKey,
  gemini: DUMMY_CREDENTIALS.geminiApiKey,
};

async function withServe<T>(
  mapTools: string[] | false,
  work: (url: string) => Promise<T>,
): Promise<{ result: T; log: string }> {
  const args = [
    path.join(root, 'dist', 'cli.js'),
    'serve',
    '--scenario',
    'single-tool',
    ...(mapTools ? ['--map-tools', ...mapTools] : []),
  ];
  const child = execa(process.execPath, args, { reject: false, timeout: 200_000, forceKillAfterDelay: 2000 });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('exit', () => reject(new Error(`serve exited early: ${stderr}`)));
  });
  try {
    return { result: await work(url), log: stderr };
  } finally {
    child.kill('SIGTERM');
    await child;
  }
}

const ARGV = {
  gemini: [
    '--output-format=stream-json',
    '--model=gemini-2.5-flash',
    '--approval-mode=yolo',
    '--prompt=Read hello.txt.',
  ],
  codex: ['exec', '--json', '--skip-git-repo-check', '--sandbox=workspace-write', '--', 'Read hello.txt.'],
  copilot: ['--output-format=json', '--model=claude-sonnet-4-5', '--allow-all-tools', '--prompt=Read hello.txt.'],
};

/** A workspace with hello.txt, committed, for one CLI's run. */
async function newWorkspace(cli: keyof typeof ARGV): Promise<string> {
  const workspace = path.join(mkdtempSync(path.join(os.tmpdir(), `yume-serve-${cli}-`)), 'workspace');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(path.join(workspace, 'hello.txt'), 'Hello from the fixture file.\nSecond line.\n');
  await commitFixtures(workspace);
  return workspace;
}

async function playSingleTool(cli: keyof typeof ARGV, url: string, workspace: string) {
  try {
    const env = {
      PATH: process.env.PATH ?? '',
      ...prepareOfflineEnvironment(cli, {
        home: path.join(path.dirname(workspace), 'home'),
        endpoints: { openai: `${url}/v1`, anthropic: url, gemini: url },
        keys,
        retries: 0,
        ...(cli === 'copilot' ? { copilotRuntime: realProgramEnv('copilot').COPILOT_PKG_CACHE_HOME } : {}),
      }),
    };
    return await runBounded(realCliPath(cli), ARGV[cli], { cwd: workspace, env, timeoutMs: 120_000 });
  } finally {
    rmSync(path.dirname(workspace), { recursive: true, force: true });
  }
}

describe('serve --map-tools with the real gemini, codex and copilot', () => {
  it('plays single-tool: each CLI runs the read and finishes; without --map-tools the request is refused', async () => {
    // One serve per CLI: a scenario's turn is played once.
    const play = async (cli: keyof typeof ARGV) => {
      const workspace = await newWorkspace(cli);
      return withServe(['--cwd', workspace], (url) => playSingleTool(cli, url, workspace));
    };
    const gemini = await play('gemini');
    const codex = await play('codex');
    const copilot = await play('copilot');
    expect(gemini.result.exitCode, gemini.result.stderr.slice(-500)).toBe(0);
    expect(gemini.result.stdout).toMatch(
      /"tool_name":"read_file","tool_id":"[^"]+","parameters":\{"file_path":"hello.txt"\}/,
    );
    expect(codex.result.exitCode, codex.result.stderr.slice(-500)).toBe(0);
    expect(codex.result.stdout).toContain('cat hello.txt');
    expect(codex.result.stdout).toContain('Hello from the fixture file.');
    expect(copilot.result.exitCode, copilot.result.stderr.slice(-500)).toBe(0);
    expect(copilot.result.stdout).toMatch(/"toolName":"view","arguments":\{"path":"\/[^"]+\/hello\.txt"\}/);
    expect(copilot.result.stdout).toMatch(/"success":true,"result":\{"content":"Hello from the fixture file\./);
    for (const log of [gemini.log, codex.log, copilot.log]) {
      expect(log).toMatch(/#2 POST \S+ (gemini|openai-responses|anthropic) -> 200 stream \(turn 1, response 2\)/);
      expect(log).not.toMatch(/-> 400/);
    }

    const codexWorkspace = await newWorkspace('codex');
    const plain = await withServe(false, async (url) => playSingleTool('codex', url, codexWorkspace));
    expect(plain.result.exitCode).not.toBe(0);
    expect(plain.log).toMatch(/-> 400/);
  });
});
