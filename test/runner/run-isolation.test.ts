// Runs are isolated from each other: each has its own dummy keys (D2's prefix, a per-run suffix; its mock
// accepts only those), its own HOME and TMPDIR inside the run's folder, and shares only the suite's
// XDG_CACHE_HOME with the other runs of the same invocation.
import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DUMMY_CREDENTIAL_PATTERN, DUMMY_CREDENTIALS, runCredentials } from '../../harness/mock/credentials.js';
import { buildEnvironment } from '../../harness/runner/setup/environment.js';
import { defaultCacheDir } from '../../reference-shim/launcher/compile-cache.js';
import { describeFindings, fixtureShim, processesTagged, rules, runFixture } from './helpers/run-fixture.js';

const baseUrls = { openai: 'http://127.0.0.1:1/v1', anthropic: 'http://127.0.0.1:1', gemini: 'http://127.0.0.1:1' };

describe('run isolation', () => {
  it("each run's credentials keep D2's prefixes with a suffix of their own, and the redaction pattern knows them", () => {
    const one = runCredentials();
    const two = runCredentials();
    for (const [name, value] of Object.entries(DUMMY_CREDENTIALS)) {
      const key = name as keyof typeof DUMMY_CREDENTIALS;
      expect(one[key]).toMatch(new RegExp(`^${value.replace(/[.]/g, '\\.')}-[0-9a-f]{12}$`));
      expect(one[key]).not.toBe(two[key]);
      expect(`key=${one[key]}!`.replace(DUMMY_CREDENTIAL_PATTERN, '[REDACTED]')).toBe('key=[REDACTED]!');
    }
  });

  it('HOME, TMPDIR and XDG_CACHE_HOME come from the run (the parent TMPDIR is not passed through)', () => {
    const credentials = runCredentials('0123456789ab');
    const env = buildEnvironment({
      platform: 'linux',
      parent: { PATH: '/bin', TMPDIR: '/tmp/parent', TEMP: '/tmp/parent', HOME: '/home/dev' },
      home: '/r/home',
      temp: '/r/tmp',
      cache: '/suite/cache',
      credentials,
      baseUrls,
      pathFirst: [],
    });
    expect(env).toMatchObject({
      HOME: '/r/home',
      TMPDIR: '/r/tmp',
      TEMP: '/r/tmp',
      TMP: '/r/tmp',
      XDG_CACHE_HOME: '/suite/cache',
      OPENAI_API_KEY: 'sk-yume-conformance-openai-dummy-0123456789ab',
    });
  });

  it("the reference shim keeps its compile cache under XDG_CACHE_HOME (shared by a suite's runs) when one is set", () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/suite/cache' })).toBe(path.join('/suite/cache', 'yume-shim'));
    expect(defaultCacheDir({ XDG_CACHE_HOME: 'relative' })).toBe(defaultCacheDir({}));
    expect(defaultCacheDir({})).toBe(path.join(os.tmpdir(), `yume-shim-cache-${process.getuid?.() ?? 'user'}`));
  });

  it("a shim using D2's fixed key (or another run's) is refused by the run's mock and gets requests.auth", async () => {
    const result = await runFixture(fixtureShim('uses-d2-key-not-its-own.mjs'), 'plain-text');
    expect(rules(result), describeFindings(result)).toContain('requests.auth');
    expect(result.requests[0]?.status).toBe(401);
    expect(processesTagged(result.tag)).toEqual([]);
  });

  it("a shim's temporary files land in the run's TMPDIR and go with the run", async () => {
    const result = await runFixture(fixtureShim('writes-temp-file.mjs'), 'plain-text', { keepDirectories: true });
    expect(result.status, describeFindings(result)).toBe('passed');
    const name = `yume-conformance-test-${result.tag}.tmp`;
    expect(existsSync(path.join(os.tmpdir(), name))).toBe(false);
    const runRoot = path.dirname(result.directories!.workspace);
    expect(existsSync(path.join(runRoot, 'tmp', name))).toBe(true);
    rmSync(runRoot, { recursive: true, force: true });
  });
});
