// `yume-conformance serve` as a real process: prints base URLs and env vars, serves, logs, stops on a signal.
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, test } from 'vitest';
import { driveWithSdk } from '../mock/helpers/sdk-drivers.js';

const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'dist', 'cli.js');

describe('yume-conformance serve', () => {
  test('serves a scenario on 127.0.0.1, logs requests on stderr, stops cleanly on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = execa(process.execPath, [cli, 'serve', '--scenario', 'single-tool', '--seed', '3'], {
        cwd: root,
        reject: false,
        timeout: 30_000,
        forceKillAfterDelay: 2000,
      });
      let stdout = '';
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
          if (match && stdout.includes('GOOGLE_API_KEY')) resolve(match[1]!);
        });
        child.once('exit', () => reject(new Error(`serve exited early: ${stderr}`)));
      });
      expect(stdout).toContain(`export OPENAI_BASE_URL=${url}/v1`);
      expect(stdout).toContain(`export ANTHROPIC_BASE_URL=${url}`);
      expect(stdout).toContain(`export GOOGLE_GEMINI_BASE_URL=${url}`);
      expect(stdout).toContain('export OPENAI_API_KEY=sk-yume-conformance-openai-dummy');
      expect(stdout).toContain(`openai-chat       POST ${url}/v1/chat/completions`);
      const got = await driveWithSdk('anthropic', { baseUrls: { openai: `${url}/v1`, anthropic: url, gemini: url } });
      expect(got.toolCalls.map((call) => call.name)).toEqual(['Read']);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stderr).toMatch(/#1 POST \/v1\/messages anthropic -> 200 stream \(turn 1, response 1\)/);
      child.kill(signal);
      const result = await child;
      expect(result.exitCode).toBe(0);
      expect(stderr).toContain(`${signal}: stopping`);
    }
  });

  test('an unknown scenario or a bad option is a usage error (exit 2) with a clear message', async () => {
    const missing = await execa(process.execPath, [cli, 'serve', '--scenario', 'no-such-scenario'], {
      cwd: root,
      reject: false,
      timeout: 15_000,
    });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/cannot load scenario "no-such-scenario".*cannot read scenario\.json/s);
    const badProvider = await execa(process.execPath, [cli, 'serve', '--provider', 'openai'], {
      cwd: root,
      reject: false,
      timeout: 15_000,
    });
    expect(badProvider.exitCode).toBe(2);
    expect(badProvider.stderr).toContain('expected one of openai-chat, openai-responses, gemini, anthropic');
    const badPort = await execa(process.execPath, [cli, 'serve', '--port', '70000'], {
      cwd: root,
      reject: false,
      timeout: 15_000,
    });
    expect(badPort.exitCode).toBe(2);
    const cwdAlone = await execa(process.execPath, [cli, 'serve', '--cwd', root], {
      cwd: root,
      reject: false,
      timeout: 15_000,
    });
    expect(cwdAlone.exitCode).toBe(2);
    expect(cwdAlone.stderr).toContain('--cwd only applies with --map-tools');
    const cwdMissing = await execa(process.execPath, [cli, 'serve', '--map-tools', '--cwd', path.join(root, 'nope')], {
      cwd: root,
      reject: false,
      timeout: 15_000,
    });
    expect(cwdMissing.exitCode).toBe(2);
    expect(cwdMissing.stderr).toContain('nope: not a directory');
  });
});
