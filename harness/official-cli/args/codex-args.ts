// codex's argv, parsed the way clap parses `codex exec [OPTIONS] [PROMPT]` and
// `codex exec resume [OPTIONS] [SESSION_ID] [PROMPT]`, with exactly the options the pinned help lists for
// each (harness/official-cli/pinned/codex.json): an option of `exec` given after `resume` is refused, as
// is any flag the pinned version does not have (`--full-auto` is gone in 0.169). clap refuses anything
// that looks like a flag where a value or the prompt is expected: a prompt starting with '-' must come
// after `--`.
import { clapUsage, type HelpOption } from '../pinned/help-options.js';
import { PINNED, pinnedHelp, pinnedOptions } from '../pinned/index.js';
import { emptyInvocation, type Invocation, type ParseOutcome, splitEquals } from './invocation.js';

const MORE = "For more information, try '--help'.\n";

function clapError(message: string, command: string, withUsage: boolean, tip?: string): ParseOutcome {
  const tipText = tip ? `\n\n  tip: ${tip}` : '';
  const usage = withUsage ? `\n\n${clapUsage(pinnedHelp('codex', command))}` : '';
  return { kind: 'error', message: `error: ${message}${tipText}${usage}\n\n${MORE}`, exitCode: 2 };
}

const NEGATIVE_NUMBER = /^-[0-9]+(\.[0-9]+)?$/;
const looksLikeFlag = (argument: string) =>
  argument.length > 1 && argument.startsWith('-') && !NEGATIVE_NUMBER.test(argument);

const display = (spec: HelpOption) => `--${spec.long}${spec.valueName ? ` <${spec.valueName}>` : ''}`;

type Values = Map<string, string | boolean | string[]>;

/** What the scan found so far: `command` becomes `exec resume` at the `resume` subcommand. */
interface CodexScan {
  argv: readonly string[];
  index: number;
  command: string;
  values: Values;
  positional: string[];
}

/** Records an option: a repeated or variadic option collects its values (clap's `Vec` arguments). */
function setValue(values: Values, spec: HelpOption, value: string | true): void {
  const previous = values.get(spec.long);
  if (value === true) values.set(spec.long, true);
  else if (spec.value === 'variadic' || previous !== undefined) {
    const list = Array.isArray(previous) ? previous : typeof previous === 'string' ? [previous] : [];
    values.set(spec.long, [...list, value]);
  } else values.set(spec.long, value);
}

const unexpectedFlag = (flag: string, command: string) =>
  clapError(`unexpected argument '${flag}' found`, command, true, `to pass '${flag}' as a value, use '-- ${flag}'`);

/**
 * The option a flag argument names, with a value attached to it (`--x=v`, `-xv`, `-x=v`), or clap's refusal.
 * A group of short flags (`-rf x` reads as -r, -f, ...) sets the leading switches on the way: clap names the
 * first letter it does not know.
 */
function findFlag(scan: CodexScan, argument: string): { spec: HelpOption; inline?: string } | ParseOutcome {
  const options = pinnedOptions('codex', scan.command);
  if (argument.startsWith('--')) {
    const split = splitEquals(argument.slice(2));
    const spec = options.find((option) => option.long === split.name);
    if (!spec) return unexpectedFlag(argument.split('=')[0]!, scan.command);
    return split.value === undefined ? { spec } : { spec, inline: split.value };
  }
  let position = 1;
  let spec = options.find((option) => option.short === argument[position]);
  while (spec?.value === 'none' && position + 1 < argument.length) {
    setValue(scan.values, spec, true);
    position += 1;
    spec = options.find((option) => option.short === argument[position]);
  }
  if (!spec) return unexpectedFlag(`-${argument[position]}`, scan.command);
  const rest = argument.slice(position + 1);
  if (rest === '') return { spec };
  return { spec, inline: rest.startsWith('=') ? rest.slice(1) : rest };
}

/** The values a value-taking option gets: attached, or the next argument(s) unless they look like flags. */
function takeValues(scan: CodexScan, spec: HelpOption, inline: string | undefined): string[] | ParseOutcome {
  if (inline !== undefined) return [inline];
  const { argv } = scan;
  const next = argv[scan.index + 1];
  // clap does not take a value that looks like a flag.
  if (next === undefined || next === '--' || looksLikeFlag(next))
    return clapError(`a value is required for '${display(spec)}' but none was supplied`, scan.command, false);
  const taken = [next];
  scan.index += 1;
  if (spec.value === 'variadic') {
    while (
      argv[scan.index + 1] !== undefined &&
      argv[scan.index + 1] !== '--' &&
      !looksLikeFlag(argv[scan.index + 1]!)
    ) {
      taken.push(argv[scan.index + 1]!);
      scan.index += 1;
    }
  }
  return taken;
}

/** Reads one flag argument (and the values it takes) into the scan; returns clap's refusal if any. */
function readFlag(scan: CodexScan, argument: string): ParseOutcome | undefined {
  const found = findFlag(scan, argument);
  if ('kind' in found) return found;
  const { spec, inline } = found;
  if (spec.value === 'none') {
    if (inline !== undefined)
      return clapError(
        `unexpected value '${inline}' for '--${spec.long}' found; no more were expected`,
        scan.command,
        true,
      );
    setValue(scan.values, spec, true);
    return undefined;
  }
  const taken = takeValues(scan, spec, inline);
  if (!Array.isArray(taken)) return taken;
  for (const value of taken) {
    if (spec.choices && !spec.choices.includes(value)) {
      return clapError(
        `invalid value '${value}' for '${display(spec)}'\n  [possible values: ${spec.choices.join(', ')}]`,
        scan.command,
        false,
      );
    }
    setValue(scan.values, spec, value);
  }
  return undefined;
}

/** Reads what follows `exec`: options, the `resume` subcommand, the session id and the prompt. */
function scanExec(argv: readonly string[]): CodexScan | ParseOutcome {
  const scan: CodexScan = { argv, index: 1, command: 'exec', values: new Map(), positional: [] };
  for (; scan.index < argv.length; scan.index += 1) {
    const argument = argv[scan.index]!;
    if (argument === '--') {
      scan.positional.push(...argv.slice(scan.index + 1));
      break;
    }
    if (argument.startsWith('--') || looksLikeFlag(argument)) {
      const refusal = readFlag(scan, argument);
      if (refusal) return refusal;
    } else if (scan.command === 'exec' && scan.positional.length === 0 && argument === 'resume') {
      scan.command = 'exec resume';
    } else scan.positional.push(argument);
  }
  return scan;
}

/** What a run with these (accepted) arguments does. */
function codexInvocation(values: Values, prompt: string | undefined, resume: string | undefined): Invocation {
  const invocation = emptyInvocation();
  invocation.flags = Object.fromEntries(values);
  invocation.prompt = prompt === undefined || prompt === '-' ? undefined : prompt;
  const model = values.get('model');
  invocation.model = typeof model === 'string' ? model : undefined;
  invocation.resume = resume;
  const cd = values.get('cd');
  invocation.workdir = typeof cd === 'string' ? cd : undefined;
  invocation.streamJson = values.get('json') === true;
  const sandbox = values.get('sandbox');
  invocation.autoApprove =
    values.get('dangerously-bypass-approvals-and-sandbox') === true ||
    values.get('approve-for-me') === true ||
    sandbox === 'workspace-write' ||
    sandbox === 'danger-full-access';
  invocation.readOnly = !invocation.autoApprove;
  return invocation;
}

export function parseCodexArgs(argv: readonly string[]): ParseOutcome {
  if (argv.length === 0) return { kind: 'error', message: 'Error: stdin is not a terminal\n', exitCode: 1 };
  if (argv[0] !== 'exec' && argv[0] !== 'e') {
    return {
      kind: 'error',
      message: 'Error: stdin is not a terminal (the fake codex only runs `codex exec`)\n',
      exitCode: 1,
    };
  }
  const scan = scanExec(argv);
  if ('kind' in scan) return scan;
  const { values, positional, command } = scan;
  if (values.get('help') === true) return { kind: 'info', text: pinnedHelp('codex', command) };
  if (values.get('version') === true) return { kind: 'info', text: `${PINNED.codex.versionText}\n` };

  const resume = command === 'exec resume';
  let sessionId: string | undefined;
  if (resume && values.get('last') !== true) sessionId = positional.shift();
  if (positional.length > 1) return clapError(`unexpected argument '${positional[1]}' found`, command, true);
  return {
    kind: 'run',
    invocation: codexInvocation(values, positional[0], resume ? (sessionId ?? 'last') : undefined),
  };
}
