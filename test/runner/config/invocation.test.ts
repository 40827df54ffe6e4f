import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigFileError } from '../../../harness/runner/config/config-file.js';
import {
  buildInvocation,
  type InvocationValues,
  loadInvocationTemplate,
  resolveInvocation,
} from '../../../harness/runner/config/invocation.js';

const values: InvocationValues = {
  providerId: 'gemini',
  cwd: '/w',
  sessionId: 'yc-1',
  prompt: 'Read hello.txt',
  apiBase: 'http://127.0.0.1:4000',
  protocolVersion: '1.0',
  persistent: false,
};

function tempFile(name: string, text: string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'yc-inv-')), name);
  writeFileSync(file, text);
  return file;
}

describe('the spec invocation (R7)', () => {
  it('passes start, the provider flags and every spec flag, prompt as one argv element', () => {
    expect(buildInvocation({ kind: 'spec' }, { ...values, prompt: 'two\nlines "quoted"' })).toEqual({
      args: [
        'start',
        '--provider',
        'gemini',
        '--model',
        'gemini-2.5-flash',
        '--cwd',
        '/w',
        '--session-id',
        'yc-1',
        '--prompt',
        'two\nlines "quoted"',
        '--output-format',
        'stream-json',
        '--api-base',
        'http://127.0.0.1:4000',
        '--permission-mode',
        'default',
        '--protocol-version',
        '1.0',
      ],
      env: {},
    });
  });

  it('uses --input-format stream-json instead of --prompt in persistent mode, and passes --resume', () => {
    const built = buildInvocation(
      { kind: 'spec' },
      { ...values, providerId: 'openai-responses', persistent: true, resumeId: 'yc-1', permissionMode: 'deny' },
    );
    expect('args' in built && built.args).toEqual([
      'start',
      '--provider',
      'codex',
      '--model',
      'gpt-5.2-codex',
      '--cwd',
      '/w',
      '--session-id',
      'yc-1',
      '--resume',
      'yc-1',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--api-base',
      'http://127.0.0.1:4000',
      '--permission-mode',
      'deny',
      '--protocol-version',
      '1.0',
    ]);
  });

  it.each([
    ['openai-chat', 'openai', 'gpt-4.1-mini'],
    ['anthropic', 'anthropic', 'claude-sonnet-4-5'],
    ['gemini-cli', 'gemini-cli', 'gemini-2.5-flash'],
    ['codex-cli', 'codex-cli', 'gpt-5.2-codex'],
    ['claude-cli', 'claude-cli', 'claude-sonnet-4-5'],
  ] as const)('%s passes --provider %s --model %s', (providerId, provider, model) => {
    const built = buildInvocation({ kind: 'spec' }, { ...values, providerId });
    expect('args' in built && built.args.slice(1, 5)).toEqual(['--provider', provider, '--model', model]);
  });
});

describe('the yume-app invocation (R7: exactly what the app passes)', () => {
  it("passes the app's argv in the app's order", () => {
    expect(buildInvocation({ kind: 'yume-app' }, { ...values, providerId: 'codex-cli', resumeId: 'tab-7' })).toEqual({
      args: [
        '--provider',
        'openai',
        '--model',
        'gpt-5.2-codex',
        '--cwd',
        '/w',
        '--resume',
        'tab-7',
        '--prompt',
        'Read hello.txt',
        '--output-format',
        'stream-json',
        '--verbose',
      ],
      env: {},
    });
    const blank = buildInvocation({ kind: 'yume-app' }, { ...values, prompt: '   ' });
    expect('args' in blank && blank.args).not.toContain('--prompt');
  });

  it('cannot verify ids marked —, persistent mode or permission modes', () => {
    expect(buildInvocation({ kind: 'yume-app' }, { ...values, providerId: 'openai-chat' })).toEqual({
      notVerified: { scope: 'run', cause: 'capability', reason: expect.stringContaining('— in R7') },
    });
    expect(buildInvocation({ kind: 'yume-app' }, { ...values, persistent: true })).toEqual({
      notVerified: { scope: 'run', cause: 'capability', reason: expect.stringContaining('persistent') },
    });
    expect(buildInvocation({ kind: 'yume-app' }, { ...values, permissionMode: 'deny' })).toEqual({
      notVerified: { scope: 'run', cause: 'capability', reason: expect.stringContaining('--permission-mode') },
    });
  });
});

describe('a user template file (schemas/invocation.schema.json)', () => {
  const template = {
    providers: { gemini: { provider: 'google', model: 'flash' } },
    spawnPerTurn: [
      '{provider}',
      '--model',
      '{model}',
      '--dir={cwd}',
      { when: 'resumeId', args: ['--continue', '{resumeId}'] },
      '--msg',
      '{prompt}',
      'literal {{braces}}',
    ],
    env: { MY_BASE: '{apiBase}/v1' },
  };

  it('fills placeholders, drops conditional groups without a value, and sets its environment', () => {
    const invocation = loadInvocationTemplate(tempFile('cli.json', JSON.stringify(template)));
    expect(buildInvocation(invocation, values)).toEqual({
      args: ['google', '--model', 'flash', '--dir=/w', '--msg', 'Read hello.txt', 'literal {braces}'],
      env: { MY_BASE: 'http://127.0.0.1:4000/v1' },
    });
    const resumed = buildInvocation(invocation, { ...values, resumeId: 'yc-1' });
    expect('args' in resumed && resumed.args).toContain('--continue');
    expect(buildInvocation(invocation, { ...values, providerId: 'anthropic' })).toEqual({
      notVerified: {
        scope: 'run',
        cause: 'capability',
        reason: expect.stringContaining('no values for provider anthropic'),
      },
    });
    expect(buildInvocation(invocation, { ...values, persistent: true })).toEqual({
      notVerified: { scope: 'run', cause: 'capability', reason: expect.stringContaining('no "persistent" arguments') },
    });
  });

  it('writes the prompt to stdin when promptOnStdin is set', () => {
    const invocation = loadInvocationTemplate(
      tempFile('cli.json', JSON.stringify({ ...template, spawnPerTurn: ['run'], promptOnStdin: true })),
    );
    expect(buildInvocation(invocation, values)).toEqual({
      args: ['run'],
      env: { MY_BASE: 'http://127.0.0.1:4000/v1' },
      stdinPrompt: 'Read hello.txt',
    });
  });

  it('rejects bad files with the file, the line and a fix', () => {
    const typo = tempFile(
      'typo.json',
      '{\n  "providers": { "gemini": { "provider": "g", "model": "m" } },\n  "spawnPerTrun": []\n}\n',
    );
    expect(() => loadInvocationTemplate(typo)).toThrow(ConfigFileError);
    expect(() => loadInvocationTemplate(typo)).toThrow(
      /typo\.json:1 \(document\): missing "spawnPerTurn" — fix: add "spawnPerTurn"/,
    );
    expect(() => loadInvocationTemplate(typo)).toThrow(
      /typo\.json:3 \/spawnPerTrun: unknown key "spawnPerTrun" — fix: remove it or correct its spelling/,
    );
    const placeholder = tempFile('ph.json', JSON.stringify({ ...template, spawnPerTurn: ['{promt}'] }));
    expect(() => loadInvocationTemplate(placeholder)).toThrow(/unknown placeholder \{promt\}/);
    const broken = tempFile('broken.json', '{\n  "providers": {,\n}');
    expect(() => loadInvocationTemplate(broken)).toThrow(/broken\.json:2: not valid JSON/);
    expect(() => resolveInvocation('/nonexistent/template.json')).toThrow(/cannot read the file \(ENOENT\)/);
  });
});
