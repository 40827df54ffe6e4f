// The pinned CLI data and the fakes' argument parsers built from it: every option the pinned help lists is
// accepted, nothing else is, and the help readers read each library's layout.
import { describe, expect, it } from 'vitest';
import { comparePinned } from '../../harness/drift/compare-pinned.js';
import { parseClaudeArgs } from '../../harness/official-cli/args/claude-args.js';
import { parseCodexArgs } from '../../harness/official-cli/args/codex-args.js';
import { parseCopilotArgs } from '../../harness/official-cli/args/copilot-args.js';
import { parseGeminiArgs } from '../../harness/official-cli/args/gemini-args.js';
import type { HelpOption } from '../../harness/official-cli/pinned/help-options.js';
import {
  clapOptions,
  clapUsage,
  commanderOptions,
  yargsOptions,
} from '../../harness/official-cli/pinned/help-options.js';
import { PINNED, pinnedOptions } from '../../harness/official-cli/pinned/index.js';

/** An argv that gives `option` a valid value (its first choice, else a plain word). */
function withOption(option: HelpOption): string[] {
  const flag = `--${option.long}`;
  if (option.value === 'none') return [flag];
  return [`${flag}=${option.choices?.[0] ?? 'value'}`];
}

const INFO_OR_RUN = ['run', 'info'];

describe('pinned official CLIs', () => {
  it('records the pinned versions of test/real-programs.json', () => {
    expect(PINNED.gemini.version).toBe('0.61.0');
    expect(PINNED.codex.version).toBe('0.169.0');
    expect(PINNED.claude.version).toBe('2.1.332');
    expect(PINNED.copilot.version).toBe('1.0.102');
  });

  it("reads copilot's clap help: optional and repeated values, and -C, which has no long name", () => {
    const options = clapOptions(PINNED.copilot.commands['']!.help);
    expect(options).toContainEqual({ long: 'resume', short: 'r', value: 'optional', valueName: 'value' });
    expect(options).toContainEqual({ long: 'allow-tool', value: 'variadic', valueName: 'tools' });
    expect(options).toContainEqual({ long: '', short: 'C', value: 'required', valueName: 'directory' });
    expect(options).toContainEqual({
      long: 'output-format',
      value: 'required',
      valueName: 'format',
      choices: ['text', 'json'],
    });
  });

  it('has the fake copilot accept every pinned option', () => {
    for (const option of pinnedOptions('copilot')) {
      const given = option.long ? withOption(option) : [`-${option.short}`, 'value'];
      const outcome = parseCopilotArgs([...given, '--prompt=hi']);
      // A few options do something else than run (--help, --version); none is unknown.
      expect(INFO_OR_RUN, `${given.join(' ')}: ${JSON.stringify(outcome)}`).toContain(outcome.kind);
    }
  });

  it('reads the options each help lists (clap, yargs, commander)', () => {
    expect(clapOptions(PINNED.codex.commands.exec!.help)).toContainEqual({
      long: 'sandbox',
      short: 's',
      value: 'required',
      valueName: 'SANDBOX_MODE',
      choices: ['read-only', 'workspace-write', 'danger-full-access'],
    });
    expect(clapUsage(PINNED.codex.commands.exec!.help)).toBe(
      'Usage: codex exec [OPTIONS] [PROMPT]\n       codex exec [OPTIONS] <COMMAND> [ARGS]',
    );
    expect(yargsOptions(PINNED.gemini.commands['']!.help)).toContainEqual({
      long: 'approval-mode',
      value: 'required',
      type: 'string',
      choices: ['default', 'auto_edit', 'yolo', 'plan'],
    });
    const claude = commanderOptions(PINNED.claude.commands['']!.help);
    expect(claude).toContainEqual({
      long: 'allowedTools',
      aliases: ['allowed-tools'],
      value: 'variadic',
      valueName: 'tools',
    });
    expect(claude.find((option) => option.long === 'permission-mode')?.choices).toEqual([
      'acceptEdits',
      'auto',
      'bypassPermissions',
      'manual',
      'dontAsk',
      'plan',
    ]);
  });

  it('has the fake gemini accept every pinned option and refuse one it lacks', () => {
    for (const option of pinnedOptions('gemini')) {
      const outcome = parseGeminiArgs([...withOption(option), '--output-format=stream-json', '--prompt=hi']);
      expect(INFO_OR_RUN, `--${option.long}`).toContain(outcome.kind);
    }
    const refused = parseGeminiArgs(['--no-such-flag', '--prompt=hi']);
    expect(refused).toMatchObject({ kind: 'error', exitCode: 1 });
    expect(refused.kind === 'error' && refused.message.split('\n')[0]).toBe(
      'Unknown arguments: no-such-flag, noSuchFlag',
    );
  });

  it('has the fake codex accept every pinned option of exec and of exec resume', () => {
    for (const option of pinnedOptions('codex', 'exec')) {
      expect(INFO_OR_RUN, `--${option.long}`).toContain(parseCodexArgs(['exec', ...withOption(option), 'hi']).kind);
    }
    for (const option of pinnedOptions('codex', 'exec resume')) {
      expect(INFO_OR_RUN, `resume --${option.long}`).toContain(
        parseCodexArgs(['exec', 'resume', ...withOption(option), ...(option.long === 'last' ? [] : ['id']), 'hi']).kind,
      );
    }
  });

  it('has the fake claude accept every pinned option', () => {
    for (const option of pinnedOptions('claude')) {
      if (['bypassPermissions'].includes(option.choices?.[0] ?? '')) continue;
      const outcome = parseClaudeArgs(
        ['-p', '--output-format=stream-json', '--verbose', ...withOption(option), '--', 'hi'],
        {},
        false,
      );
      // --resume needs a known session and a few flags need others; what matters is that none is unknown.
      if (outcome.kind === 'error') expect(outcome.message, `--${option.long}`).not.toContain('unknown option');
    }
    expect(parseClaudeArgs(['-p', '--permission-mode=default', 'hi'], {}, false).kind).toBe('run');
    expect(parseClaudeArgs(['-p', '--bogus', 'hi'], {}, false)).toMatchObject({
      kind: 'error',
      message: "error: unknown option '--bogus'\n",
      exitCode: 1,
    });
  });
});

describe('drift: comparing a release with the pinned data', () => {
  it('finds no change in the pinned data itself, and names each changed flag, tool and event type', () => {
    expect(comparePinned(PINNED.codex, PINNED.codex)).toEqual([]);
    const exec = PINNED.codex.commands.exec!;
    const release = {
      ...PINNED.codex,
      version: '0.170.0',
      commands: {
        ...PINNED.codex.commands,
        exec: {
          ...exec,
          options: [
            ...exec.options
              .filter((option) => option.long !== 'json')
              .map((option) => (option.long === 'sandbox' ? { ...option, choices: ['read-only'] } : option)),
            { long: 'full-auto', value: 'none' as const },
          ],
        },
      },
      declaredTools: [...(PINNED.codex.declaredTools ?? []).filter((name) => name !== 'exec_command'), 'shell'],
    };
    expect(comparePinned(PINNED.codex, release)).toEqual([
      'version: 0.169.0 → 0.170.0',
      'codex exec: flag changed: --sandbox (-s) required [read-only, workspace-write, danger-full-access] → --sandbox (-s) required [read-only]',
      'codex exec: flag removed: --json none',
      'codex exec: flag added: --full-auto none',
      'tools declared to the model added: shell',
      'tools declared to the model removed: exec_command',
    ]);
  });

  it("does not count copilot's version number, which changes almost daily, but names its flags, -C included", () => {
    const options = PINNED.copilot.commands['']!.options;
    const release = {
      ...PINNED.copilot,
      version: '1.0.103',
      commands: {
        '': {
          ...PINNED.copilot.commands['']!,
          options: [
            ...options.filter((option) => option.short !== 'C'),
            { long: 'telemetry-off', value: 'none' as const },
          ],
        },
      },
    };
    expect(comparePinned(PINNED.copilot, { ...PINNED.copilot, version: '1.0.103' })).toEqual([]);
    expect(comparePinned(PINNED.copilot, release)).toEqual([
      'copilot: flag removed: -C required',
      'copilot: flag added: --telemetry-off none',
    ]);
  });
});
