// claude's argv, parsed the way commander parses it: `-p/--print` is a boolean and the prompt is the
// positional argument, so a prompt starting with '-' is an unknown option unless it follows `--`.
// An option with a required value takes the next argument whatever it looks like.
import { PINNED, pinnedHelp, pinnedOptions } from '../pinned/index.js';
import { emptyInvocation, type Invocation, type ParseOutcome, splitEquals, toolList } from './invocation.js';

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

/** What the scan found so far; `argv` grows when a group of short flags is expanded. */
interface ClaudeScan {
  argv: string[];
  index: number;
  values: Map<string, string | boolean | string[]>;
  positional: string[];
}

/** An option as given: its spec, a value attached to it (`--x=v`, `-xv`) and how an error names it. */
interface GivenOption {
  spec: OptionSpec;
  inline: string | undefined;
  flag: string;
}

const refused = (message: string): ParseOutcome => ({ kind: 'error', message, exitCode: 1 });

/** The option the argument at the scan's index names, or the refusal of an unknown one. */
function findOption(scan: ClaudeScan, argument: string): GivenOption | ParseOutcome {
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
        const { argv, index } = scan;
        scan.argv = [...argv.slice(0, index + 1), `-${argument.slice(2)}`, ...argv.slice(index + 1)];
      } else inline = argument.slice(2);
    }
  }
  if (!spec) return refused(`error: unknown option '${argument.split('=')[0]}'\n`);
  const flag = argument.startsWith('--') ? `--${spec.name}` : `-${spec.short}, --${spec.name}`;
  return { spec, inline, flag };
}

/** The next argument when the option may take it as its value (it does not look like an option). */
function nextValue(scan: ClaudeScan): string | undefined {
  const next = scan.argv[scan.index + 1];
  return next !== undefined && !maybeOption(next) ? next : undefined;
}

/** How each kind of option takes its value (commander's rules); a refusal is returned, success is undefined. */
const TAKE_VALUE: Record<ValueKind, (scan: ClaudeScan, given: GivenOption) => ParseOutcome | undefined> = {
  none: (scan, { spec }) => {
    scan.values.set(spec.name, true);
    return undefined;
  },
  required: (scan, { spec, inline, flag }) => {
    let value = inline;
    if (value === undefined) {
      value = scan.argv[scan.index + 1];
      if (value === undefined) return refused(`error: option '${flag} <${spec.valueName}>' argument missing\n`);
      scan.index += 1;
    }
    if (spec.choices && !spec.choices.includes(value) && !spec.unlisted?.includes(value)) {
      return refused(
        `error: option '${flag} <${spec.valueName}>' argument '${value}' is invalid. Allowed choices are ${spec.choices.join(', ')}.\n`,
      );
    }
    scan.values.set(spec.name, value);
    return undefined;
  },
  optional: (scan, { spec, inline }) => {
    let value: string | true = inline ?? true;
    const next = inline === undefined ? nextValue(scan) : undefined;
    if (next !== undefined) {
      value = next;
      scan.index += 1;
    }
    scan.values.set(spec.name, value);
    return undefined;
  },
  variadic: (scan, { spec, inline }) => {
    const list = (scan.values.get(spec.name) as string[] | undefined) ?? [];
    if (inline !== undefined) list.push(inline);
    for (let next = nextValue(scan); next !== undefined; next = nextValue(scan)) {
      list.push(next);
      scan.index += 1;
    }
    scan.values.set(spec.name, list);
    return undefined;
  },
};

/** Reads the options and the positional arguments, or returns the refusal of the first bad option. */
function scanClaudeArgv(argv: readonly string[]): ClaudeScan | ParseOutcome {
  const scan: ClaudeScan = { argv: [...argv], index: 0, values: new Map(), positional: [] };
  for (; scan.index < scan.argv.length; scan.index += 1) {
    const argument = scan.argv[scan.index]!;
    if (argument === '--') {
      scan.positional.push(...scan.argv.slice(scan.index + 1));
      break;
    }
    if (!maybeOption(argument)) {
      scan.positional.push(argument);
      continue;
    }
    const given = findOption(scan, argument);
    if ('kind' in given) return given;
    const refusal = TAKE_VALUE[given.spec.value](scan, given);
    if (refusal) return refusal;
  }
  return scan;
}

/** The refusals commander and claude's own checks make once the arguments are read, in their order. */
function refusalOf(scan: ClaudeScan, env: NodeJS.ProcessEnv, isRoot: boolean): ParseOutcome | undefined {
  const { values, positional } = scan;
  if (positional.length > 1)
    return refused(`error: too many arguments. Expected 1 argument but got ${positional.length}.\n`);
  if (values.get('print') !== true)
    return refused(
      'Error: Raw mode is not supported on the current process.stdin (the fake claude only runs with -p)\n',
    );
  if (values.get('output-format') === 'stream-json' && values.get('verbose') !== true)
    return refused('Error: When using --print, --output-format=stream-json requires --verbose\n');
  if (bypassesPermissions(values) && isRoot && env.IS_SANDBOX !== '1')
    return refused('--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n');
  if (values.get('resume') === true) return refused('Error: --resume requires a session id in --print mode\n');
  return undefined;
}

const permissionModeOf = (values: ClaudeScan['values']) =>
  (values.get('permission-mode') as string | undefined) ?? 'default';
const bypassesPermissions = (values: ClaudeScan['values']) =>
  values.get('dangerously-skip-permissions') === true || permissionModeOf(values) === 'bypassPermissions';

/** What a run with these (accepted) arguments does. */
function claudeInvocation({ values, positional }: ClaudeScan): Invocation {
  const mode = permissionModeOf(values);
  const bypass = bypassesPermissions(values);
  const invocation = emptyInvocation();
  invocation.flags = Object.fromEntries(values);
  invocation.prompt = positional[0] === '' ? undefined : positional[0];
  invocation.model = values.get('model') as string | undefined;
  const resume = values.get('resume');
  invocation.resume = typeof resume === 'string' ? resume : undefined;
  invocation.streamJson = values.get('output-format') === 'stream-json';
  invocation.autoApprove = bypass;
  invocation.readOnly = mode === 'plan';
  invocation.allowedTools = toolList((values.get('allowedTools') as string[] | undefined) ?? []);
  const disallowed = toolList((values.get('disallowedTools') as string[] | undefined) ?? []);
  if (mode === 'acceptEdits') invocation.allowedTools.push('Edit', 'Write', 'MultiEdit', 'NotebookEdit');
  invocation.allowedTools = invocation.allowedTools.filter((name) => !disallowed.includes(name));
  invocation.flags.permissionMode = bypass ? 'bypassPermissions' : mode;
  return invocation;
}

export function parseClaudeArgs(argv: readonly string[], env: NodeJS.ProcessEnv, isRoot: boolean): ParseOutcome {
  const scan = scanClaudeArgv(argv);
  if ('kind' in scan) return scan;
  if (scan.values.get('help') === true) return { kind: 'info', text: pinnedHelp('claude') };
  if (scan.values.get('version') === true) return { kind: 'info', text: `${PINNED.claude.versionText}\n` };
  return refusalOf(scan, env, isRoot) ?? { kind: 'run', invocation: claudeInvocation(scan) };
}
