// copilot's argv, parsed as copilot 1.0.102 parses `copilot [OPTIONS] [COMMAND]`: exactly the options the pinned
// help lists (harness/official-cli/pinned/copilot.json), clap's rules for values (a value may not look like a
// flag: `-p -x` reads `-x` as an unknown flag; `--x=v` and `-xv` attach one; `[<v>]` takes the next argument only
// when it is no flag; `[<v>...]` takes every following non-flag argument) and clap's messages, with exit code 1 for
// every refusal (clap's would be 2), and copilot's own rewording: an unknown argument when a prompt is given is
// "Invalid command format" (it takes the prompt for unquoted words), and a first word that is no command suggests
// `copilot -i`. A prompt starting with '-' must be attached: `--prompt=-x`.
import { type HelpOption, PINNED, pinnedHelp, pinnedOptions } from '../pinned/index.js';
import { emptyInvocation, type Invocation, type ParseOutcome, splitEquals, toolList } from './invocation.js';

const MORE = "For more information, try '--help'.\n";
const USAGE = 'Usage: copilot [OPTIONS] [COMMAND]';
/** The subcommands the help lists; the fake plays none of them but `help` and `version`. */
const COMMANDS = new Set(['app', 'login', 'help', 'init', 'config', 'update', 'version', 'workflow', 'sessions']);

/** A clap refusal, with the usage line clap prints for some (`usage`), then the help hint. */
function refusal(message: string, usage?: string): ParseOutcome {
  return { kind: 'error', message: `error: ${message}\n\n${usage ? `${usage}\n\n` : ''}${MORE}`, exitCode: 1 };
}

const UNQUOTED_PROMPT =
  'error: Invalid command format.\n\nIt looks like your prompt was not quoted, so the extra words were treated as separate arguments.\nWrap the prompt in quotes, for example: copilot -p "your prompt here"\n';

const NEGATIVE_NUMBER = /^-[0-9]+(\.[0-9]+)?$/;
const looksLikeFlag = (argument: string) =>
  argument.length > 1 && argument.startsWith('-') && !NEGATIVE_NUMBER.test(argument);
const keyOf = (spec: HelpOption) => spec.long || spec.short!;
const display = (spec: HelpOption) =>
  `${spec.long ? `--${spec.long}` : `-${spec.short}`}${spec.valueName ? ` <${spec.valueName}>` : ''}`;

type Values = Map<string, string | boolean | string[]>;

interface CopilotScan {
  argv: readonly string[];
  index: number;
  values: Values;
  positional: string[];
  /** The options given so far, as clap's usage line of an error names them. */
  used: string[];
}

/** clap's usage line for an error: the options used so far, or the generic one. */
const usageOf = (scan: CopilotScan) => (scan.used.length > 0 ? `Usage: copilot ${scan.used.join(' ')}` : USAGE);

function setValue(values: Values, spec: HelpOption, value: string | true): void {
  const key = keyOf(spec);
  const previous = values.get(key);
  if (value === true) values.set(key, previous === undefined ? true : previous);
  else if (spec.value === 'variadic' || Array.isArray(previous)) {
    const list = Array.isArray(previous) ? previous : [];
    values.set(key, [...list, value]);
  } else values.set(key, value);
}

/** An argument clap does not know: the kind of refusal copilot rewords when a prompt is given. */
interface Unexpected {
  unexpected: string;
}

/** The option a flag argument names, with a value attached to it (`--x=v`, `-xv`, `-x=v`), or the unknown flag. */
function findFlag(argument: string): { spec: HelpOption; inline?: string } | Unexpected {
  const options = pinnedOptions('copilot');
  if (argument.startsWith('--')) {
    const split = splitEquals(argument.slice(2));
    const spec = options.find((option) => option.long !== '' && option.long === split.name);
    if (!spec) return { unexpected: `unexpected argument '${argument.split('=')[0]!}' found` };
    return split.value === undefined ? { spec } : { spec, inline: split.value };
  }
  const spec = options.find((option) => option.short === argument[1]);
  if (!spec) return { unexpected: `unexpected argument '-${argument[1]}' found` };
  const rest = argument.slice(2);
  if (rest === '') return { spec };
  return { spec, inline: rest.startsWith('=') ? rest.slice(1) : rest };
}

/**
 * The values an option gets: attached, or the next argument(s) unless they look like flags. A required value
 * followed by an unknown flag leaves that flag to be refused; followed by a known one or nothing, it is missing.
 */
function takeValues(scan: CopilotScan, spec: HelpOption, inline: string | undefined): string[] | ParseOutcome {
  if (inline !== undefined) return [inline];
  const taken: string[] = [];
  while (scan.argv[scan.index + 1] !== undefined && !looksLikeFlag(scan.argv[scan.index + 1]!)) {
    if (scan.argv[scan.index + 1] === '--') break;
    taken.push(scan.argv[scan.index + 1]!);
    scan.index += 1;
    if (spec.value !== 'variadic') break;
  }
  const next = scan.argv[scan.index + 1];
  const nextIsUnknown = next !== undefined && next !== '--' && 'unexpected' in findFlag(next);
  if (taken.length === 0 && spec.value === 'required' && !nextIsUnknown) {
    const possible = spec.choices ? `\n  [possible values: ${spec.choices.join(', ')}]` : '';
    return refusal(`a value is required for '${display(spec)}' but none was supplied${possible}`);
  }
  return taken;
}

function readFlag(scan: CopilotScan, argument: string): ParseOutcome | Unexpected | undefined {
  const found = findFlag(argument);
  if ('unexpected' in found) return found;
  const { spec, inline } = found;
  scan.used.push(display(spec));
  if (spec.value === 'none') {
    if (inline !== undefined)
      return refusal(`unexpected value '${inline}' for '${display(spec)}' found; no more were expected`, usageOf(scan));
    setValue(scan.values, spec, true);
    return undefined;
  }
  const taken = takeValues(scan, spec, inline);
  if (!Array.isArray(taken)) return taken;
  if (taken.length === 0) setValue(scan.values, spec, true);
  for (const value of taken) {
    if (spec.choices && !spec.choices.includes(value))
      return refusal(
        `invalid value '${value}' for '${display(spec)}'\n  [possible values: ${spec.choices.join(', ')}]`,
      );
    setValue(scan.values, spec, value);
  }
  return undefined;
}

function scan(argv: readonly string[]): CopilotScan | ParseOutcome | (Unexpected & { scan: CopilotScan }) {
  const state: CopilotScan = { argv, index: 0, values: new Map(), positional: [], used: [] };
  for (; state.index < argv.length; state.index += 1) {
    const argument = argv[state.index]!;
    if (argument === '--') {
      state.positional.push(...argv.slice(state.index + 1));
      break;
    }
    if (looksLikeFlag(argument)) {
      const refused = readFlag(state, argument);
      if (refused && 'unexpected' in refused) return { ...refused, scan: state };
      if (refused) return refused;
    } else state.positional.push(argument);
  }
  return state;
}

/** Whether the argv gives a prompt (`-p`, `--prompt`, in any spelling): copilot then rewords clap's refusals. */
const givesPrompt = (argv: readonly string[]) =>
  argv.some((argument) => /^(-p|--prompt)(=|$)/.test(argument) || /^-p./.test(argument));

const truthy = (value: string | undefined) =>
  value !== undefined && ['true', '1', 'yes', 'on', 'y'].includes(value.trim().toLowerCase());

/** What a run with these (accepted) arguments does. */
function copilotInvocation(values: Values, env: NodeJS.ProcessEnv): Invocation {
  const invocation = emptyInvocation();
  const text = (key: string) => {
    const value = values.get(key);
    return typeof value === 'string' ? value : undefined;
  };
  invocation.flags = Object.fromEntries(values);
  invocation.prompt = text('prompt');
  invocation.model = text('model') ?? env.COPILOT_MODEL;
  const resume = values.get('resume');
  invocation.resume =
    text('session-id') ?? (typeof resume === 'string' ? resume : resume === true ? 'last' : undefined);
  if (values.get('continue') === true) invocation.resume = 'last';
  invocation.workdir = text('C');
  invocation.streamJson = text('output-format') === 'json';
  invocation.autoApprove =
    values.get('allow-all-tools') === true ||
    values.get('allow-all') === true ||
    values.get('yolo') === true ||
    truthy(env.COPILOT_ALLOW_ALL);
  const allowed = values.get('allow-tool');
  invocation.allowedTools = Array.isArray(allowed) ? toolList(allowed) : [];
  invocation.readOnly = text('mode') === 'plan' || values.get('plan') === true;
  return invocation;
}

export function parseCopilotArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ParseOutcome {
  const scanned = scan(argv);
  if ('kind' in scanned) return scanned;
  if ('unexpected' in scanned) {
    if (givesPrompt(argv)) return { kind: 'error', message: UNQUOTED_PROMPT, exitCode: 1 };
    return refusal(scanned.unexpected, usageOf(scanned.scan));
  }
  const { values, positional } = scanned;
  if (values.get('help') === true || positional[0] === 'help') return { kind: 'info', text: pinnedHelp('copilot') };
  if (values.get('version') === true || positional[0] === 'version')
    return { kind: 'info', text: `${PINNED.copilot.versionText}\n` };
  if (positional.length > 0) {
    if (givesPrompt(argv)) return { kind: 'error', message: UNQUOTED_PROMPT, exitCode: 1 };
    if (COMMANDS.has(positional[0]!))
      return {
        kind: 'error',
        message: `fake copilot: only \`copilot -p\` is played, not \`copilot ${positional[0]}\`\n`,
        exitCode: 1,
      };
    // A first word that is no command reads as a prompt typed without -i; anywhere else it is a subcommand.
    if (argv[0] === positional[0])
      return {
        kind: 'error',
        message: `error: Invalid command format.\n\nDid you mean: copilot -i "${positional.join(' ')}"?\n\n`,
        exitCode: 1,
      };
    return refusal(`unrecognized subcommand '${positional[0]}'`, USAGE);
  }
  return { kind: 'run', invocation: copilotInvocation(values, env) };
}
