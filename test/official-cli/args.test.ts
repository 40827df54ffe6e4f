// The fakes read argv like the real CLIs' argument libraries (gemini: yargs, codex and copilot: clap, claude:
// commander): the headless flags of the captures' README and of the app's own yume-cli shim are accepted, unknown flags
// are refused with the real wording and exit code, and a prompt starting with '-' is a prompt only where
// the real CLI takes it as one.
import { describe, expect, it } from 'vitest';
import { parseClaudeArgs } from '../../harness/official-cli/args/claude-args.js';
import { parseCodexArgs } from '../../harness/official-cli/args/codex-args.js';
import { parseCopilotArgs } from '../../harness/official-cli/args/copilot-args.js';
import { parseGeminiArgs } from '../../harness/official-cli/args/gemini-args.js';
import type { ParseOutcome } from '../../harness/official-cli/args/invocation.js';

function run(outcome: ParseOutcome) {
  if (outcome.kind !== 'run') throw new Error(`expected the arguments to be accepted: ${JSON.stringify(outcome)}`);
  return outcome.invocation;
}

function refused(outcome: ParseOutcome): { message: string; exitCode: number } {
  if (outcome.kind !== 'error') throw new Error(`expected the arguments to be refused: ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('gemini (yargs)', () => {
  it("accepts the captures' headless command", () => {
    const invocation = run(
      parseGeminiArgs([
        '-p',
        'Say hello.',
        '--output-format',
        'stream-json',
        '--model',
        'gemini-2.5-flash',
        '--approval-mode',
        'yolo',
      ]),
    );
    expect(invocation).toMatchObject({
      prompt: 'Say hello.',
      model: 'gemini-2.5-flash',
      streamJson: true,
      autoApprove: true,
    });
  });

  it("accepts the app's yume-cli shim command with a positional prompt and --yolo", () => {
    expect(
      run(parseGeminiArgs(['--model', 'm', '--output-format', 'stream-json', '--yolo', 'Refactor app.tsx'])),
    ).toMatchObject({ prompt: 'Refactor app.tsx', autoApprove: true });
  });

  it('refuses unknown options with exit 1', () => {
    const error = refused(parseGeminiArgs(['--frobnicate', '-p', 'x']));
    expect(error.exitCode).toBe(1);
    expect(error.message).toContain('Unknown argument: frobnicate');
  });

  it('does not take "-p -rf ..." as a prompt (yargs skips values that look like options)', () => {
    expect(parseGeminiArgs(['-p', '-rf --help', '--output-format', 'stream-json']).kind).not.toBe('run');
    // `-y` is a known flag: the prompt silently becomes --yolo and gemini has no prompt at all.
    expect(run(parseGeminiArgs(['-p', '-y', '--output-format', 'stream-json']))).toMatchObject({
      prompt: undefined,
      autoApprove: true,
    });
  });

  it('takes a prompt starting with "-" as --prompt=<text> or after --', () => {
    expect(run(parseGeminiArgs(['--prompt=-rf --help', '--output-format=stream-json'])).prompt).toBe('-rf --help');
    expect(run(parseGeminiArgs(['--output-format', 'stream-json', '--', '-rf', '--help'])).prompt).toBe('-rf --help');
  });

  it('refuses a positional prompt together with -p, and --yolo with --approval-mode', () => {
    expect(refused(parseGeminiArgs(['-p', 'a', 'b'])).message).toContain('positional prompt');
    expect(refused(parseGeminiArgs(['--yolo', '--approval-mode', 'yolo', '-p', 'a'])).message).toContain(
      '--approval-mode=yolo',
    );
  });

  it('checks choices', () => {
    expect(refused(parseGeminiArgs(['-o', 'xml', '-p', 'a'])).message).toContain('Invalid values');
  });
});

describe('codex (clap)', () => {
  it("accepts the captures' headless command", () => {
    const invocation = run(
      parseCodexArgs([
        'exec',
        '--json',
        '--skip-git-repo-check',
        '--dangerously-bypass-approvals-and-sandbox',
        'Say hello.',
      ]),
    );
    expect(invocation).toMatchObject({ prompt: 'Say hello.', streamJson: true, autoApprove: true });
  });

  it("accepts the app's yume-cli shim command", () => {
    const invocation = run(
      parseCodexArgs([
        'exec',
        '--json',
        '-C',
        '/w',
        '--sandbox',
        'workspace-write',
        '-m',
        'gpt-4o',
        '-c',
        'model_reasoning_effort="low"',
        'do it',
      ]),
    );
    expect(invocation).toMatchObject({ prompt: 'do it', workdir: '/w', model: 'gpt-4o', autoApprove: true });
  });

  it("refuses a prompt that looks like a flag with exit 2 and clap's tip", () => {
    const error = refused(parseCodexArgs(['exec', '--json', '-rf x']));
    expect(error.exitCode).toBe(2);
    // clap reads `-rf x` as a group of short flags and names the first one it does not know.
    expect(error.message).toContain("unexpected argument '-r' found");
    expect(error.message).toContain("use '-- -r'");
  });

  it('takes anything after -- as the prompt', () => {
    expect(run(parseCodexArgs(['exec', '--json', '--', '-rf x'])).prompt).toBe('-rf x');
  });

  it('does not take a flag-like value for an option', () => {
    expect(refused(parseCodexArgs(['exec', '--model', '-x', 'p'])).message).toContain('a value is required');
  });

  it('reads `exec resume <id> [prompt]` and `-` (stdin)', () => {
    expect(run(parseCodexArgs(['exec', '--json', 'resume', 'thread-1', '--', 'again']))).toMatchObject({
      resume: 'thread-1',
      prompt: 'again',
    });
    expect(run(parseCodexArgs(['exec', '--json', '-'])).prompt).toBeUndefined();
  });

  it('refuses unknown flags, a second prompt, conflicting flags, and anything but exec', () => {
    expect(refused(parseCodexArgs(['exec', '--yes', 'p'])).exitCode).toBe(2);
    expect(refused(parseCodexArgs(['exec', 'a', 'b'])).message).toContain("unexpected argument 'b'");
    expect(refused(parseCodexArgs(['exec', '--sandbox', 'none', 'p'])).message).toContain(
      "invalid value 'none' for '--sandbox <SANDBOX_MODE>'",
    );
    expect(refused(parseCodexArgs(['hello'])).exitCode).toBe(1);
  });

  it('refuses --full-auto exactly as codex 0.169 does (the flag is gone)', () => {
    const error = refused(parseCodexArgs(['exec', '--json', '--full-auto', 'p']));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(
      "error: unexpected argument '--full-auto' found\n\n  tip: to pass '--full-auto' as a value, use '-- --full-auto'\n\n" +
        'Usage: codex exec [OPTIONS] [PROMPT]\n       codex exec [OPTIONS] <COMMAND> [ARGS]\n\n' +
        "For more information, try '--help'.\n",
    );
  });

  it('accepts after `resume` only the options of `exec resume`', () => {
    const error = refused(parseCodexArgs(['exec', 'resume', '--sandbox', 'read-only', 'id', 'p']));
    expect(error.message).toContain("unexpected argument '--sandbox' found");
    expect(error.message).toContain('Usage: codex exec resume [OPTIONS] [SESSION_ID] [PROMPT]');
    expect(run(parseCodexArgs(['exec', '--sandbox', 'read-only', 'resume', 'id', 'p']))).toMatchObject({
      resume: 'id',
      readOnly: true,
    });
  });

  it('is read-only without a sandbox that allows writes', () => {
    expect(run(parseCodexArgs(['exec', 'p']))).toMatchObject({ readOnly: true, autoApprove: false });
  });
});

describe('claude (commander)', () => {
  const env = { IS_SANDBOX: '1' };

  it("accepts the captures' headless command", () => {
    const invocation = run(
      parseClaudeArgs(
        [
          '-p',
          'Say hello.',
          '--output-format',
          'stream-json',
          '--verbose',
          '--model',
          'claude-sonnet-4-5',
          '--dangerously-skip-permissions',
        ],
        env,
        true,
      ),
    );
    expect(invocation).toMatchObject({ prompt: 'Say hello.', streamJson: true, autoApprove: true });
  });

  it('requires --verbose with -p --output-format stream-json', () => {
    expect(refused(parseClaudeArgs(['-p', 'x', '--output-format', 'stream-json'], env, false)).message).toContain(
      'requires --verbose',
    );
  });

  it('refuses a prompt starting with "-" unless it follows --', () => {
    const error = refused(
      parseClaudeArgs(['-p', '--output-format', 'stream-json', '--verbose', '-x marks the spot'], env, false),
    );
    expect(error).toMatchObject({ exitCode: 1 });
    expect(error.message).toContain("unknown option '-x marks the spot'");
    // Worse: a prompt that starts like a known short option becomes its value (`-r` is --resume).
    expect(
      run(parseClaudeArgs(['-p', '--output-format', 'stream-json', '--verbose', '-rf x'], env, false)),
    ).toMatchObject({ prompt: undefined, resume: 'f x' });
    expect(
      run(parseClaudeArgs(['-p', '--output-format', 'stream-json', '--verbose', '--', '-rf x'], env, false)).prompt,
    ).toBe('-rf x');
  });

  it('refuses skipping permissions as root unless IS_SANDBOX=1', () => {
    expect(refused(parseClaudeArgs(['-p', 'x', '--dangerously-skip-permissions'], {}, true)).message).toContain(
      'root/sudo',
    );
    expect(parseClaudeArgs(['-p', 'x', '--dangerously-skip-permissions'], {}, false).kind).toBe('run');
    expect(parseClaudeArgs(['-p', 'x', '--permission-mode', 'bypassPermissions'], { IS_SANDBOX: '1' }, true).kind).toBe(
      'run',
    );
  });

  it('collects allowed tools (comma or space separated) and acceptEdits', () => {
    const invocation = run(
      parseClaudeArgs(
        ['-p', '--allowedTools', 'Bash,Read', 'Glob', '--permission-mode=acceptEdits', '--', 'x'],
        {},
        false,
      ),
    );
    expect(invocation.allowedTools).toEqual(expect.arrayContaining(['Bash', 'Read', 'Glob', 'Edit', 'Write']));
    expect(invocation.autoApprove).toBe(false);
  });

  it('refuses two prompts, unknown options and interactive mode', () => {
    expect(refused(parseClaudeArgs(['-p', 'a', 'b'], {}, false)).message).toContain('too many arguments');
    expect(refused(parseClaudeArgs(['-p', '--nope', 'a'], {}, false)).message).toContain("unknown option '--nope'");
    expect(refused(parseClaudeArgs(['a'], {}, false)).exitCode).toBe(1);
  });
});

describe('copilot (clap, worded its own way; every refusal exits 1)', () => {
  const firstLine = (argv: string[]) => refused(parseCopilotArgs(argv)).message.split('\n')[0];

  it("accepts the captures' command and the translator's, the prompt attached whatever it starts with", () => {
    expect(
      run(parseCopilotArgs(['-p', 'Say hello.', '--output-format', 'json', '--allow-all-tools', '--model', 'm'])),
    ).toMatchObject({ prompt: 'Say hello.', model: 'm', streamJson: true, autoApprove: true });
    const translator = run(
      parseCopilotArgs([
        '--output-format=json',
        '--model=m',
        '--session-id=0cb916db-26aa-40f2-86b5-1ba81b225fd2',
        '--usage-output-file=/tmp/u.json',
        '--prompt=-rf --help',
      ]),
    );
    expect(translator).toMatchObject({
      prompt: '-rf --help',
      resume: '0cb916db-26aa-40f2-86b5-1ba81b225fd2',
      autoApprove: false,
      flags: { 'usage-output-file': '/tmp/u.json' },
    });
    expect(run(parseCopilotArgs(['-phi', '--resume']))).toMatchObject({ prompt: 'hi', resume: 'last' });
    expect(run(parseCopilotArgs(['-p', 'hi', '--allow-tool', 'shell(ls)', 'write']))).toMatchObject({
      allowedTools: ['shell(ls)', 'write'],
    });
  });

  it('refuses as copilot 1.0.102 does (HOW-CAPTURED.md), with exit code 1', () => {
    expect(refused(parseCopilotArgs(['--x'])).exitCode).toBe(1);
    expect(refused(parseCopilotArgs(['--x'])).message).toBe(
      "error: unexpected argument '--x' found\n\nUsage: copilot [OPTIONS] [COMMAND]\n\nFor more information, try '--help'.\n",
    );
    expect(firstLine(['--yolo', '--x'])).toBe("error: unexpected argument '--x' found");
    expect(refused(parseCopilotArgs(['--yolo', '--x'])).message).toContain('Usage: copilot --yolo\n');
    // With a prompt given, an unknown argument reads as an unquoted prompt.
    for (const argv of [
      ['-p', '-x'],
      ['-p', 'hi', '--x'],
      ['--x', '-p', 'hi'],
      ['-p', 'hi', 'extra'],
      ['-p', 'hi', '--', 'x'],
    ])
      expect(firstLine(argv)).toBe('error: Invalid command format.');
    expect(firstLine(['-p'])).toBe("error: a value is required for '--prompt <text>' but none was supplied");
    expect(firstLine(['--session-id', '-x'])).toBe("error: unexpected argument '-x' found");
    expect(firstLine(['--output-format', 'xml'])).toBe("error: invalid value 'xml' for '--output-format <format>'");
    expect(firstLine(['--allow-all-tools=1'])).toBe(
      "error: unexpected value '1' for '--allow-all-tools' found; no more were expected",
    );
    expect(refused(parseCopilotArgs(['hello', 'world'])).message).toContain('Did you mean: copilot -i "hello world"?');
    expect(firstLine(['--model', 'm', 'x'])).toBe("error: unrecognized subcommand 'x'");
  });

  it('reads -C, which has no long name, and the help and version', () => {
    expect(run(parseCopilotArgs(['-C', '/work', '-p', 'hi']))).toMatchObject({ workdir: '/work' });
    expect(parseCopilotArgs(['--help'])).toMatchObject({ kind: 'info' });
    expect(parseCopilotArgs(['--version'])).toMatchObject({ kind: 'info', text: expect.stringContaining('1.0.102') });
  });
});
