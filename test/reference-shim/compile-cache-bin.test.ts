// The real bin (dist/yume-shim.cjs) and its compile cache across processes: V8 accepts the cache a previous
// run stored, rejects a damaged one, and the shim's output is the same with or without it. The same cache on
// Node 22 and 24, and Node's own compile cache there (YUME_SHIM_COMPILE_CACHE=node), are checked by
// compile-cache-node.real.test.ts and measured by `npm run bench`.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ByteServer, sse, startByteServer } from './helpers/byte-server.js';
import { ROOT, runShim } from './helpers/shim-process.js';

let work: string;
let cacheDir: string;
let server: ByteServer | undefined;
beforeEach(() => {
  work = mkdtempSync(path.join(tmpdir(), 'yume-compile-cache-bin-'));
  cacheDir = path.join(work, 'cache');
  mkdirSync(path.join(work, 'home'));
  mkdirSync(path.join(work, 'workspace'));
  writeFileSync(path.join(work, 'workspace', 'hello.txt'), 'hello\n');
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(work, { recursive: true, force: true });
});

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: path.join(work, 'home'),
  OPENAI_API_KEY: 'sk-test-key-123456789',
  OPENAI_BASE_URL: server ? `${server.url}/v1` : 'http://127.0.0.1:9/v1',
  YUME_SHIM_COMPILE_CACHE_DIR: cacheDir,
  YUME_SHIM_DEBUG_COMPILE_CACHE: '1',
  // The launcher's own V8 cache (the default on every Node; set, should the test run with another choice).
  YUME_SHIM_COMPILE_CACHE: 'v8',
  ...extra,
});

/** The launcher's report on stderr: outcome and what it did with the file. */
function cacheReport(stderr: string): { outcome: string; action: string } {
  const match = /compile cache (\w+)(?: \([^)]*\))?, (\w+)/.exec(stderr);
  if (!match) throw new Error(`no compile cache report in stderr: ${stderr}`);
  return { outcome: match[1]!, action: match[2]! };
}

const version = (extra?: NodeJS.ProcessEnv) => runShim({ args: ['--version'], env: env(extra) });

const chat = (delta: unknown, finish: string | null = null) =>
  sse({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

async function readTurn(extra?: NodeJS.ProcessEnv) {
  await server?.close();
  server = await startByteServer([
    {
      chunks: [
        chat({
          tool_calls: [
            {
              index: 0,
              id: 'call_1',
              type: 'function',
              function: { name: 'Read', arguments: '{"file_path":"hello.txt"}' },
            },
          ],
        }),
        chat({}, 'tool_calls'),
        sse('[DONE]'),
      ],
    },
    { chunks: [chat({ content: 'It says hello.' }), chat({}, 'stop'), sse('[DONE]')] },
  ]);
  return runShim({
    args: [
      '--provider',
      'openai',
      '--model',
      'gpt-4.1-mini',
      '--cwd',
      path.join(work, 'workspace'),
      '--prompt',
      'Read hello.txt',
    ],
    env: env(extra),
  });
}

describe('the bin and its compile cache', () => {
  it('stores the cache on the first run, uses it on the next, and replaces a damaged file', async () => {
    const first = await version();
    expect(first.code).toBe(0);
    expect(cacheReport(first.stderr)).toEqual({ outcome: 'miss', action: 'written' });

    const second = await version();
    expect(cacheReport(second.stderr)).toEqual({ outcome: 'hit', action: 'kept' });
    expect(second.stdout.toString()).toBe(first.stdout.toString());

    const [file] = readdirSync(cacheDir);
    writeFileSync(path.join(cacheDir, file!), Buffer.from('not a code cache '.repeat(100)));
    const damaged = await version();
    expect(damaged.code).toBe(0);
    expect(damaged.stdout.toString()).toBe(first.stdout.toString());
    expect(cacheReport(damaged.stderr)).toEqual({ outcome: 'rejected', action: 'written' });
    expect(cacheReport((await version()).stderr)).toEqual({ outcome: 'hit', action: 'kept' });
  });

  it('a full turn stores the cache that later runs of either kind use; the turn is the same without a cache', async () => {
    const uncached = await readTurn({ YUME_SHIM_NO_COMPILE_CACHE: '1' });
    expect(cacheReport(uncached.stderr).outcome).toBe('disabled');
    const first = await readTurn();
    expect(cacheReport(first.stderr)).toEqual({ outcome: 'miss', action: 'written' });
    const second = await readTurn();
    expect(cacheReport(second.stderr)).toEqual({ outcome: 'hit', action: 'kept' });
    expect(cacheReport((await version()).stderr)).toEqual({ outcome: 'hit', action: 'kept' });
    expect(readdirSync(cacheDir).filter((name) => name.endsWith('.bin'))).toEqual([
      expect.stringMatching(/\.full\.bin$/),
    ]);

    const shape = (run: typeof first) =>
      run.lines.map((line) => `${line.type}${line.subtype ? `/${line.subtype}` : ''}`);
    for (const run of [uncached, first, second]) {
      expect(run.code).toBe(0);
      expect(run.lines.find((line) => line.type === 'result')).toMatchObject({
        is_error: false,
        result: 'It says hello.',
      });
    }
    expect(shape(second)).toEqual(shape(uncached));
  });

  it('the bundle has no import(): inside vm.Script, Node 20 would refuse it at run time', () => {
    const bundle = readFileSync(path.join(ROOT, 'dist', 'yume-shim-bundle.cjs'), 'utf8');
    expect(bundle.match(/\bimport\(/g) ?? []).toEqual([]);
  });
});
