// claude's argv, parsed the way commander parses it: `-p/--print` is a boolean and the prompt is the
// positional argument, so a prompt starting with '-' is an unknown option unless it follows `--`.
// An option with a required value takes the next argument whatever it looks like.
import { PINNED, pinnedHelp, pinnedOptions } from '../pinned/index.js';
import { emptyInvocation, type ParseOutcome, splitEquals, toolList } from './invocation.js';

type ValueKind = 'none' | 'required' | 'optional' | 'variadic';
interface OptionSpec {
  name: string;
  value: ValueKind;
  short?: string;
  aliases?: string[];
  valueName?: string;
  /** The choices the help lists (and the error message names). */
  choices?: string[];
  /** Values accepted although the help does not list them. */
  unlisted?: string[];
}

/**
 * Values the pinned claude accepts without listing them: `--permission-mode default` runs (checked
 * against the real CLI by the differential test), though the help lists only the other modes.
 */
const UNLISTED_CHOICES: Record<string, string[]> = { 'permission-mode': ['default'] };

/** Exactly the options the pinned help lists (harness/official-cli/pinned/claude.json). */
const OPTIONS: OptionSpec[] = pinnedOptions('claude').map((option) => ({
  name: option.long,
  value: option.value,
  ...(option.short ? { short: option.short } : {}),
  ...(option.aliases ? { aliases: option.aliases } : {}),
  ...(option.valueName ? { valueName: option.valueName } : {}),
  ...(option.choices ? { choices: option.choices } : {}),
  ...(UNLISTED_CHOICES[option.long] ? { unlisted: UNLISTED_CHOICES[option.long] } : {}),
}));

export const CLAUDE_VERSION = PINNED.claude.version;
const maybeOption = (argument: string | undefined) =>
  argument !== undefined && argument.length > 1 && argument.startsWith('-');

export function parseClaudeArgs(argv: readonly string[], env: NodeJS.ProcessEnv, isRoot: boolean): ParseOutcome {
  const values = new Map<string, string | boolean | string[]>();
  const positional: string[] = [];

  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    if (argument === '--') {
      positional.push(...argv.slice(index + 1));
      break;
    }
    if (!maybeOption(argument)) {
      positional.push(argument);
      continue;
    }
    let spec: OptionSpec | undefined;
    let inline: string | undefined;
    if (argument.startsWith('--')) {
      const { name, value } = splitEquals(argument.slice(2));
      spec = OPTIONS.find((option) => option.name === name || option.aliases?.includes(name));
      inline = value;
    } else {
      spec = OPTIONS.find((option) => option.short === argument[1]);
      if (argument.length > 2) {
        if (spec && spec.value === 'none') {
          // commander expands `-pv` into `-p -v`.
          argv = [...argv.slice(0, index + 1), `-${argument.slice(2)}`, ...argv.slice(index + 1)];
        } else inline = argument.slice(2);
      }
    }
    if (!spec) return { kind: 'error', message: `error: unknown option '${argument.split('=')[0]}'\n`, exitCode: 1 };
    const flag = argument.startsWith('--') ? `--${spec.name}` : `-${spec.short}, --${spec.name}`;
    switch (spec.value) {
      case 'none':
        values.set(spec.name, true);
        break;
      case 'required': {
        let value = inline;
        if (value === undefined) {
          value = argv[index + 1];
          if (value === undefined)
            return {
              kind: 'error',
              message: `error: option '${flag} <${spec.valueName}>' argument missing\n`,
              exitCode: 1,
            };
          index += 1;
        }
        if (spec.choices && !spec.choices.includes(value) && !spec.unlisted?.includes(value)) {
          return {
            kind: 'error',
            message: `error: option '${flag} <${spec.valueName}>' argument '${value}' is invalid. Allowed choices are ${spec.choices.join(', ')}.\n`,
            exitCode: 1,
          };
        }
        values.set(spec.name, value);
        break;
      }
      case 'optional': {
        let value: string | true = inline ?? true;
        if (inline === undefined && argv[index + 1] !== undefined && !maybeOption(argv[index + 1])) {
          value = argv[index + 1]!;
          index += 1;
        }
        values.set(spec.name, value);
        break;
      }
      case 'variadic': {
        const list = (values.get(spec.name) as string[] | undefined) ?? [];
        if (inline !== undefined) list.push(inline);
        while (argv[index + 1] !== undefined && !maybeOption(argv[index + 1]) && argv[index + 1] !== '--') {
          list.push(argv[index + 1]!);
          index += 1;
        }
        values.set(spec.name, list);
        break;
      }
    }
  }

  if (values.get('help') === true) return { kind: 'info', text: pinnedHelp('claude') };
  if (values.get('version') === true) return { kind: 'info', text: `${PINNED.claude.versionText}\n` };
  if (positional.length > 1) {
    return {
      kind: 'error',
      message: `error: too many arguments. Expected 1 argument but got ${positional.length}.\n`,
      exitCode: 1,
    };
  }
  if (values.get('print') !== true) {
    return {
      kind: 'error',
      message: 'Error: Raw mode is not supported on the current process.stdin (the fake claude only runs with -p)\n',
      exitCode: 1,
    };
  }
  const outputFormat = (values.get('output-format') as string | undefined) ?? 'text';
  if (outputFormat === 'stream-json' && values.get('verbose') !== true) {
    return {
      kind: 'error',
      message: 'Error: When using --print, --output-format=stream-json requires --verbose\n',
      exitCode: 1,
    };
  }
  const mode = (values.get('permission-mode') as string | undefined) ?? 'default';
  const bypass = values.get('dangerously-skip-permissions') === true || mode === 'bypassPermissions';
  if (bypass && isRoot && env.IS_SANDBOX !== '1') {
    return {
      kind: 'error',
      message: '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n',
      exitCode: 1,
    };
  }

  const invocation = emptyInvocation();
  invocation.flags = Object.fromEntries(values);
  invocation.prompt = positional[0] === '' ? undefined : positional[0];
  invocation.model = values.get('model') as string | undefined;
  const resume = values.get('resume');
  invocation.resume = typeof resume === 'string' ? resume : undefined;
  if (resume === true) {
    return { kind: 'error', message: 'Error: --resume requires a session id in --print mode\n', exitCode: 1 };
  }
  invocation.streamJson = outputFormat === 'stream-json';
  invocation.autoApprove = bypass;
  invocation.readOnly = mode === 'plan';
  invocation.allowedTools = toolList((values.get('allowedTools') as string[] | undefined) ?? []);
  const disallowed = toolList((values.get('disallowedTools') as string[] | undefined) ?? []);
  if (mode === 'acceptEdits') invocation.allowedTools.push('Edit', 'Write', 'MultiEdit', 'NotebookEdit');
  invocation.allowedTools = invocation.allowedTools.filter((name) => !disallowed.includes(name));
  invocation.flags.permissionMode = bypass ? 'bypassPermissions' : mode;
  return { kind: 'run', invocation };
}
