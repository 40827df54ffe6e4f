import { describe, expect, it } from 'vitest';
import { ALL_DUMMY_SECRETS, buildEnvironment, parseEnvAssignments } from '../../../harness/runner/setup/environment.js';

const baseUrls = {
  openai: 'http://127.0.0.1:5000/v1',
  anthropic: 'http://127.0.0.1:5000',
  gemini: 'http://127.0.0.1:5000',
};

describe('the shim environment (R7, D2)', () => {
  const parent = {
    PATH: '/usr/bin:/bin',
    OPENAI_API_KEY: 'sk-real-key-of-the-developer',
    AWS_SECRET_ACCESS_KEY: 'secret',
    HTTPS_PROXY: 'http://proxy:3128',
    LANG: 'en_US.UTF-8',
    HOME: '/home/dev',
  };

  it("isolates HOME, sets the mocks' base URLs and the dummy keys, puts the run's bin first, and leaks nothing else", () => {
    const env = buildEnvironment({
      platform: 'linux',
      parent,
      home: '/tmp/r/home',
      baseUrls,
      pathFirst: ['/tmp/r/bin'],
    });
    expect(env).toMatchObject({
      HOME: '/tmp/r/home',
      USERPROFILE: '/tmp/r/home',
      XDG_CONFIG_HOME: '/tmp/r/home/.config',
      OPENAI_BASE_URL: 'http://127.0.0.1:5000/v1',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:5000',
      GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:5000',
      OPENAI_API_KEY: 'sk-yume-conformance-openai-dummy',
      ANTHROPIC_API_KEY: 'sk-ant-yume-conformance-dummy',
      GEMINI_API_KEY: 'yume-conformance-gemini-dummy',
      GOOGLE_API_KEY: 'yume-conformance-gemini-dummy',
      NO_PROXY: '127.0.0.1,localhost',
      PATH: '/tmp/r/bin:/usr/bin:/bin',
      LANG: 'en_US.UTF-8',
    });
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(env.HTTPS_PROXY).toBeUndefined();
    expect(Object.values(env)).not.toContain('sk-real-key-of-the-developer');
  });

  it("applies the scenario's unset (gcloud auth) and set, then the user's --env last", () => {
    const env = buildEnvironment({
      platform: 'linux',
      parent,
      home: '/h',
      baseUrls,
      pathFirst: [],
      scenario: { unset: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], set: { EXTRA: '1' } },
      harness: { YUME_CONFORMANCE_FAKE_CLI_STATE: '/s.json' },
      user: { EXTRA: '2', OPENAI_API_KEY: 'from-user' },
    });
    expect(env.GEMINI_API_KEY).toBeUndefined();
    expect(env.GOOGLE_API_KEY).toBeUndefined();
    expect(env.EXTRA).toBe('2');
    expect(env.OPENAI_API_KEY).toBe('from-user');
    expect(env.YUME_CONFORMANCE_FAKE_CLI_STATE).toBe('/s.json');
  });

  it("on Windows keeps the parent's PATH spelling, joins with ; and points APPDATA into the isolated home", () => {
    const env = buildEnvironment({
      platform: 'win32',
      parent: {
        Path: 'C:\\Windows\\system32',
        SystemRoot: 'C:\\Windows',
        ComSpec: 'C:\\Windows\\system32\\cmd.exe',
        PATHEXT: '.COM;.EXE;.BAT;.CMD',
      },
      home: 'C:\\t\\home',
      baseUrls,
      pathFirst: ['C:\\t\\bin'],
      scenario: { unset: ['google_api_key'] },
    });
    expect(env.Path).toBe('C:\\t\\bin;C:\\Windows\\system32');
    expect(env.PATH).toBeUndefined();
    expect(env.USERPROFILE).toBe('C:\\t\\home');
    expect(env.APPDATA).toBe('C:\\t\\home\\AppData\\Roaming');
    expect(env.ComSpec).toBe('C:\\Windows\\system32\\cmd.exe');
    expect(env.GOOGLE_API_KEY).toBeUndefined(); // names are case-insensitive on Windows
  });

  it('lists every dummy credential and token of D2 as a secret', () => {
    expect(ALL_DUMMY_SECRETS).toEqual(
      expect.arrayContaining([
        'sk-yume-conformance-openai-dummy',
        'ya29.yume-conformance-gcloud-dummy',
        'gho_yume_conformance_dummy',
      ]),
    );
  });

  it('parses --env NAME=VALUE and rejects anything else', () => {
    expect(parseEnvAssignments(['A=1', 'B=x=y', 'C='])).toEqual({ A: '1', B: 'x=y', C: '' });
    expect(() => parseEnvAssignments(['=1'])).toThrow(/expected NAME=VALUE/);
    expect(() => parseEnvAssignments(['NOVALUE'])).toThrow(/--env "NOVALUE"/);
  });
});
