// The command line (R7) and R2's argument-error path.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ArgumentError, parseCommandLine } from '../../reference-shim/cli/args.js';
import { SHIM_VERSION } from '../../reference-shim/version.js';
import { ROOT, runShim } from './helpers/shim-process.js';

const options = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const parsed = parseCommandLine(argv, env);
  if (parsed.kind !== 'run') throw new Error(`expected a run, got ${parsed.kind}`);
  return parsed.options;
};

describe('parseCommandLine', () => {
  it('accepts the spec form with the start subcommand', () => {
    expect(
      options([
        'start',
        '--provider',
        'gemini',
        '--model',
        'gemini-2.5-flash',
        '--cwd',
        '/w',
        '--session-id',
        'sess-1',
        '--prompt',
        'hi',
        '--output-format',
        'stream-json',
        '--api-base',
        'http://127.0.0.1:1',
        '--permission-mode',
        'deny',
        '--protocol-version',
        '1.0',
      ]),
    ).toMatchObject({
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      cwd: '/w',
      sessionId: 'sess-1',
      prompt: 'hi',
      apiBase: 'http://127.0.0.1:1',
      permissionMode: 'deny',
      protocolVersion: '1.0',
      persistent: false,
      dialect: 'flat',
    });
  });

  it("accepts the app's bare form, in the app's order", () => {
    expect(
      options([
        '--provider',
        'openai',
        '--model',
        'gpt-5.2-codex',
        '--cwd',
        '/p',
        '--resume',
        'tab-123',
        '--history-file',
        '/h.json',
        '--prompt',
        'x',
        '--output-format',
        'stream-json',
        '--verbose',
      ]),
    ).toMatchObject({
      provider: 'openai',
      resume: 'tab-123',
      historyFile: '/h.json',
      verbose: true,
      permissionMode: 'default',
    });
  });

  it('takes a prompt that starts with "-" as the value of --prompt', () => {
    expect(options(['--provider', 'openai', '--prompt', '--help me']).prompt).toBe('--help me');
    expect(options(['--provider', 'openai', '--prompt=-x']).prompt).toBe('-x');
  });

  it('selects persistent mode, the claude dialect (flag or YUME_SHIM_DIALECT) and default models', () => {
    expect(options(['--provider', 'anthropic', '--input-format', 'stream-json'])).toMatchObject({
      persistent: true,
      model: 'claude-sonnet-4-5',
    });
    expect(options(['--provider', 'gemini', '--dialect', 'claude']).dialect).toBe('claude');
    expect(options(['--provider', 'gemini'], { YUME_SHIM_DIALECT: 'claude' }).dialect).toBe('claude');
    expect(options(['--provider', 'gemini', '--dialect', 'flat'], { YUME_SHIM_DIALECT: 'claude' }).dialect).toBe(
      'flat',
    );
  });

  it("prints Claude envelopes when started with the app's command line, flat otherwise (R1a)", () => {
    const app = ['--provider', 'gemini', '--prompt', 'x', '--output-format', 'stream-json', '--verbose'];
    expect(options(app).dialect).toBe('claude');
    // The spec's command line, and a bare one without the app's output flags, stay flat.
    expect(options(['start', ...app]).dialect).toBe('flat');
    expect(options(['--provider', 'gemini', '--output-format', 'stream-json']).dialect).toBe('flat');
    expect(options(['--provider', 'gemini', '--verbose']).dialect).toBe('flat');
    // A dialect asked for wins over the command line's form, in both directions.
    expect(options([...app, '--dialect', 'flat']).dialect).toBe('flat');
    expect(options(app, { YUME_SHIM_DIALECT: 'flat' }).dialect).toBe('flat');
    expect(options(['start', ...app], { YUME_SHIM_DIALECT: 'claude' }).dialect).toBe('claude');
    expect(options(['start', ...app, '--dialect', 'claude']).dialect).toBe('claude');
  });

  it('handles --help and --version', () => {
    expect(parseCommandLine(['--help'])).toEqual({ kind: 'help' });
    expect(parseCommandLine(['-h'])).toEqual({ kind: 'help' });
    expect(parseCommandLine(['--version'])).toEqual({ kind: 'version' });
  });

  it.each([
    [['--provider', 'openai', '--bogus'], /Unknown option '--bogus'/],
    [['--provider', 'openai', 'stray'], /Unexpected argument "stray"/],
    [['--model', 'x'], /--provider is required/],
    [['--provider', 'mistral'], /--provider mistral is not supported/],
    [['--provider', 'openai', '--resume', '../../etc/passwd'], /not a valid session id/],
    [['--provider', 'openai', '--session-id', 'a b'], /not a valid session id/],
    [['--provider', 'openai', '--output-format', 'json'], /--output-format json is not supported/],
    [['--provider', 'openai', '--input-format', 'xml'], /--input-format xml/],
    [['--provider', 'openai', '--dialect', 'gemini'], /--dialect gemini/],
    [['--provider', 'openai', '--permission-mode', 'yolo'], /--permission-mode yolo/],
    [['--provider', 'openai', '--api-base', 'ftp://x'], /not an http\(s\) URL/],
    [['--provider', 'openai', '--max-turns', '0'], /positive integer/],
    [['--provider', 'openai', '--prompt'], /--prompt needs a value/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseCommandLine(argv as string[], {})).toThrow(ArgumentError);
    expect(() => parseCommandLine(argv as string[], {})).toThrow(message as RegExp);
  });

  // The flags are read by hand (start-up time), the way node:util's strict parseArgs reads them: each case
  // gives the same result, or the same error in the same words, as parseArgs does.
  const STRING_FLAGS = ['provider', 'model', 'cwd', 'session-id', 'prompt', 'resume', 'history-file'];
  const viaParseArgs = (argv: string[]): string => {
    try {
      const parsed = parseArgs({
        args: argv,
        strict: true,
        allowPositionals: true,
        options: {
          ...Object.fromEntries(STRING_FLAGS.map((name) => [name, { type: 'string' as const }])),
          verbose: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
          version: { type: 'boolean' },
        },
      });
      return JSON.stringify({ values: { ...parsed.values }, positionals: parsed.positionals });
    } catch (error) {
      return `${(error as Error).message.replace(/\. To specify a positional argument.*$/s, '.')} Run yume-shim --help for the flags.`;
    }
  };
  const viaShim = (argv: string[]): string => {
    try {
      const parsed = parseCommandLine(['--provider', 'openai', ...argv], {});
      if (parsed.kind !== 'run') return JSON.stringify({ values: { provider: 'openai', [parsed.kind]: true } });
      const { options: o } = parsed;
      return JSON.stringify({ prompt: o.prompt, model: o.model, verbose: o.verbose, cwd: o.cwd });
    } catch (error) {
      return (error as Error).message;
    }
  };
  it.each([
    [['--bogus']],
    [['--bogus=1']],
    [['---x']],
    [['--=x']],
    [['-x']],
    [['-hx']],
    [['-vh']],
    [['-h=1']],
    [['--verbose=1']],
    [['--help=no']],
    [['--version=2']],
    [['--Verbose']],
    [['--verbose', '--bogus', '--help']],
    [['-5']],
  ])('rejects %j as parseArgs does', (argv) => {
    const expected = viaParseArgs(['--provider', 'openai', ...argv]);
    expect(expected).toMatch(/Run yume-shim --help for the flags\.$/);
    expect(viaShim(argv)).toBe(expected);
  });
  it.each([
    [['--prompt=', '--verbose'], { prompt: '', verbose: true }],
    [['--prompt=a', '--prompt=b'], { prompt: 'b' }],
    [['--prompt=x=y', '--model=m'], { prompt: 'x=y', model: 'm' }],
    [['-h'], { help: true }],
    [['--version', '-h'], { help: true }],
    [['--', '-x'], 'Unexpected argument "-x"; the prompt goes in --prompt.'],
    [['-'], 'Unexpected argument "-"; the prompt goes in --prompt.'],
  ] as Array<[string[], Record<string, unknown> | string]>)('reads %j as parseArgs does', (argv, shown) => {
    const parsed = JSON.parse(viaParseArgs(['--provider', 'openai', ...argv])) as {
      values: Record<string, unknown>;
      positionals: string[];
    };
    if (typeof shown === 'string') {
      expect(parsed.positionals).toEqual([argv.at(-1)]);
      expect(viaShim(argv)).toBe(shown);
      return;
    }
    expect(parsed.values).toMatchObject(shown);
    expect(JSON.parse(viaShim(argv))).toMatchObject(shown.help ? { values: shown } : shown);
  });

  it('keeps the version equal to package.json', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(SHIM_VERSION).toBe(pkg.version);
  });
});

describe('the bundled bin', () => {
  const env = { PATH: process.env.PATH, HOME: '/nonexistent-home' };

  it('prints the version and the help', async () => {
    const version = await runShim({ args: ['--version'], env });
    expect(version.stdout.toString()).toBe(`yume-shim ${SHIM_VERSION}\n`);
    expect(version.code).toBe(0);
    const help = await runShim({ args: ['--help'], env });
    expect(help.stdout.toString()).toContain('--provider');
    expect(help.code).toBe(0);
  });

  it.each([
    [['--provider', 'openai', '--unknown-flag', 'x', '--prompt', 'hi']],
    [['--provider', 'gemini', '--resume', 'bad/id', '--prompt', 'hi']],
    [['--provider', 'gemini', '--cwd', '/definitely/not/here', '--prompt', 'hi']],
    [['--provider', 'gemini', '--history-file', '/definitely/not/here.json', '--prompt', 'hi']],
  ])('argument error %j: system error, error result, exit 2, no init', async (args) => {
    const run = await runShim({ args, env });
    expect(run.code).toBe(2);
    expect(run.lines.map((line) => `${line.type}/${line.subtype}`)).toEqual([
      'system/error',
      'result/error_invalid_arguments',
    ]);
    expect(run.lines[1]).toMatchObject({ is_error: true });
    expect(typeof run.lines[0]!.message).toBe('string');
    expect(run.stderr).toContain('yume-shim:');
  });

  it('without --prompt reads stdin to EOF; an empty stdin is an argument error', async () => {
    const empty = await runShim({ args: ['--provider', 'gemini'], env, stdin: '' });
    expect(empty.code).toBe(2);
    expect(String(empty.lines[0]!.message)).toContain('No prompt');
  });

  it('copilot, the copilot-cli translator under its older name: with no copilot on PATH, init, then a system error naming its install, then an error result', async () => {
    const run = await runShim({
      args: ['--provider', 'copilot', '--prompt', 'hi'],
      env: { ...env, PATH: '/nonexistent' },
    });
    expect(run.lines.map((line) => `${line.type}/${line.subtype ?? ''}`)).toEqual([
      'system/init',
      'system/error',
      'result/error_during_execution',
      'message_stop/',
    ]);
    expect(String(run.lines[1]!.message)).toContain(
      'copilot was not found on PATH: --provider copilot-cli runs the official CLI',
    );
    expect(String(run.lines[1]!.message)).toContain('npm install -g @github/copilot');
  });
});

describe('session set-up (R8)', () => {
  it('--resume continues a saved session, --session-id starts fresh, an unknown --resume id is used as is', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const os = await import('node:os');
    const { setUpSession } = await import('../../reference-shim/cli/session-setup.js');
    const home = mkdtempSync(path.join(os.tmpdir(), 'yume-shim-home-'));
    const previousHome = process.env.HOME;
    process.env.HOME = home;
    try {
      mkdirSync(path.join(home, '.yume', 'sessions', 'gemini'), { recursive: true });
      writeFileSync(
        path.join(home, '.yume', 'sessions', 'gemini', 'sess-old.json'),
        JSON.stringify({
          id: 'sess-old',
          provider: 'gemini',
          model: 'g',
          cwd: '/w',
          title: 'Old',
          history: [{ role: 'user', content: 'before' }],
          usage: { inputTokens: 3, outputTokens: 4 },
        }),
      );
      const notices: string[] = [];
      const base = options(['--provider', 'gemini']);
      const resumed = await setUpSession({ ...base, resume: 'sess-old' }, '/w', (m) => notices.push(m));
      expect(resumed).toMatchObject({
        id: 'sess-old',
        title: 'Old',
        history: [{ role: 'user', content: 'before' }],
        usage: { inputTokens: 3, outputTokens: 4, cacheReadTokens: 0 },
      });
      const fresh = await setUpSession({ ...base, sessionId: 'sess-old' }, '/w', (m) => notices.push(m));
      expect(fresh.history).toEqual([]);
      const unknown = await setUpSession({ ...base, resume: 'tab-42' }, '/w', (m) => notices.push(m));
      expect(unknown).toMatchObject({ id: 'tab-42', history: [] });
      expect(unknown.file).toBe(path.join(home, '.yume', 'sessions', 'gemini', 'tab-42.json'));
      expect(notices.join('\n')).toMatch(/replacing the saved session[\s\S]*no saved session tab-42/);
      const generated = await setUpSession(base, '/w', () => undefined);
      expect(generated.id).toMatch(/^sess-[0-9a-f]{12}$/);
    } finally {
      process.env.HOME = previousHome;
    }
  });
});
