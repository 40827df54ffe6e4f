// gemini's argv, parsed the way yargs (strict, as the real CLI configures it) parses it, with exactly the
// options of the pinned help (harness/official-cli/pinned/gemini.json); a refusal prints its message and
// then the whole help, as yargs does, and exits 1. The trap for a
// shim: a string option's value is NOT taken from the next argument when that argument starts with '-'
// (`-p "-rf ..."` leaves the prompt empty and parses `-rf` as flags); `--prompt=<text>` and a positional
// prompt after `--` are the safe forms.
import { PINNED, pinnedHelp, pinnedOptions } from '../pinned/index.js';
import { emptyInvocation, type Invocation, type ParseOutcome, splitEquals, toolList } from './invocation.js';

type OptionType = 'string' | 'boolean' | 'array';
interface OptionSpec {
  name: string;
  type: OptionType;
  short?: string;
  aliases?: string[];
  choices?: string[];
}

/** Exactly the options the pinned help lists (harness/official-cli/pinned/gemini.json). */
const OPTIONS: OptionSpec[] = pinnedOptions('gemini').map((option) => ({
  name: option.long,
  type: option.type === 'boolean' || option.type === 'count' ? 'boolean' : option.type === 'array' ? 'array' : 'string',
  ...(option.short ? { short: option.short } : {}),
  ...(option.aliases ? { aliases: option.aliases } : {}),
  ...(option.choices ? { choices: option.choices } : {}),
}));

/** yargs prints the message, then the whole help. */
const refusal = (message: string): ParseOutcome => ({
  kind: 'error',
  message: `${message}\n${pinnedHelp('gemini')}`,
  exitCode: 1,
});

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function findLong(name: string): OptionSpec | undefined {
  const wanted = kebab(name);
  return OPTIONS.find((option) => option.name === wanted || option.aliases?.includes(wanted));
}

function findShort(letter: string): OptionSpec | undefined {
  return OPTIONS.find((option) => option.short === letter);
}

const NEGATIVE_NUMBER = /^-[0-9]+(\.[0-9]+)?$/;
const looksLikeOption = (argument: string | undefined) =>
  argument?.startsWith('-') && argument !== '-' && !NEGATIVE_NUMBER.test(argument);

type Values = Map<string, string | boolean | string[]>;

/** What the scan found so far: the options' values, the positional arguments and the unknown options. */
interface GeminiScan {
  args: readonly string[];
  values: Values;
  positional: string[];
  unknown: string[];
}

/**
 * How each type of option takes its value (yargs-parser's rules), given a value attached to it (`--x=v`) or
 * not; returns the index of the last argument it consumed.
 */
const TAKE_VALUE: Record<
  OptionType,
  (scan: GeminiScan, spec: OptionSpec, inline: string | undefined, index: number) => number
> = {
  boolean: ({ args, values }, spec, inline, index) => {
    if (inline !== undefined) values.set(spec.name, inline !== 'false');
    else if (args[index + 1] === 'true' || args[index + 1] === 'false') {
      values.set(spec.name, args[index + 1] === 'true');
      return index + 1;
    } else values.set(spec.name, true);
    return index;
  },
  array: ({ args, values }, spec, inline, index) => {
    const list = (values.get(spec.name) as string[] | undefined) ?? [];
    if (inline !== undefined) list.push(inline);
    while (index + 1 < args.length && !looksLikeOption(args[index + 1]) && args[index + 1] !== '--') {
      list.push(args[index + 1]!);
      index += 1;
    }
    values.set(spec.name, list);
    return index;
  },
  string: ({ args, values }, spec, inline, index) => {
    if (inline !== undefined) {
      values.set(spec.name, inline);
      return index;
    }
    const next = args[index + 1];
    // yargs-parser: the next argument is the value unless it looks like an option.
    if (next !== undefined && next !== '--' && !looksLikeOption(next)) {
      values.set(spec.name, next);
      return index + 1;
    }
    values.set(spec.name, '');
    return index;
  },
};

const take = (scan: GeminiScan, spec: OptionSpec, inline: string | undefined, index: number) =>
  TAKE_VALUE[spec.type](scan, spec, inline, index);

/** Reads the `--name[=value]` argument at `index`; returns the index of the last argument it consumed. */
function readLong(scan: GeminiScan, index: number): number {
  const { name, value } = splitEquals(scan.args[index]!.slice(2));
  const negated = name.startsWith('no-') ? findLong(name.slice(3)) : undefined;
  if (negated && negated.type === 'boolean') {
    scan.values.set(negated.name, false);
    return index;
  }
  const spec = findLong(name);
  if (spec) return take(scan, spec, value, index);
  // yargs names an unknown dashed option twice: as given and camel-cased (`bogus-flag, bogusFlag`).
  scan.unknown.push(name);
  if (name.includes('-')) scan.unknown.push(name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()));
  // yargs still gives an unknown option the next argument as its value.
  if (value === undefined && scan.args[index + 1] !== undefined && !looksLikeOption(scan.args[index + 1]))
    return index + 1;
  return index;
}

/**
 * Reads the short option(s) at `index`: `-x=value`, or a group `-abc` where only the last letter may take the
 * next argument as its value; returns the index of the last argument it consumed.
 */
function readShort(scan: GeminiScan, index: number): number {
  const letters = scan.args[index]!.slice(1);
  if (letters[1] === '=') {
    const spec = findShort(letters[0]!);
    if (!spec) scan.unknown.push(letters[0]!);
    else take(scan, spec, letters.slice(2), index);
    return index;
  }
  for (let position = 0; position < letters.length; position += 1) {
    const letter = letters[position]!;
    const spec = findShort(letter);
    if (!spec) {
      scan.unknown.push(letter);
      continue;
    }
    if (position === letters.length - 1) index = take(scan, spec, undefined, index);
    else scan.values.set(spec.name, spec.type === 'boolean' ? true : '');
  }
  return index;
}

function scanGeminiArgv(argv: readonly string[]): GeminiScan {
  const scan: GeminiScan = { args: [...argv], values: new Map(), positional: [], unknown: [] };
  const { args } = scan;
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index]!;
    if (argument === '--') {
      scan.positional.push(...args.slice(index + 1));
      break;
    }
    if (argument.startsWith('--')) index = readLong(scan, index);
    else if (looksLikeOption(argument)) index = readShort(scan, index);
    else scan.positional.push(argument);
  }
  return scan;
}

/** The refusals yargs (strict, with choices) and gemini's own checks make once the arguments are read. */
function refusalOf({ values, positional, unknown }: GeminiScan): ParseOutcome | undefined {
  if (unknown.length > 0) {
    const label = unknown.length === 1 ? 'Unknown argument' : 'Unknown arguments';
    return refusal(`${label}: ${unknown.join(', ')}`);
  }
  for (const spec of OPTIONS) {
    const value = values.get(spec.name);
    if (spec.choices && typeof value === 'string' && !spec.choices.includes(value)) {
      return refusal(
        `Invalid values:\n  Argument: ${spec.name}, Given: "${value}", Choices: ${spec.choices.map((c) => `"${c}"`).join(', ')}`,
      );
    }
  }
  if (values.get('yolo') === true && values.has('approval-mode')) {
    return refusal('Cannot use both --yolo (-y) and --approval-mode together. Use --approval-mode=yolo instead.');
  }
  if (positional.length > 0 && typeof values.get('prompt') === 'string') {
    return refusal('Cannot use both a positional prompt and the --prompt (-p) flag together');
  }
  return undefined;
}

/** What a run with these (accepted) arguments does. */
function geminiInvocation({ values, positional }: GeminiScan): Invocation {
  const invocation = emptyInvocation();
  invocation.flags = Object.fromEntries(values);
  const promptFlag = values.get('prompt');
  const prompt = typeof promptFlag === 'string' ? promptFlag : positional.length > 0 ? positional.join(' ') : undefined;
  invocation.prompt = prompt === '' ? undefined : prompt;
  invocation.model =
    typeof values.get('model') === 'string' && values.get('model') !== '' ? (values.get('model') as string) : undefined;
  const resume = values.get('resume');
  invocation.resume = typeof resume === 'string' && resume !== '' ? resume : undefined;
  invocation.streamJson = values.get('output-format') === 'stream-json';
  const approval =
    values.get('yolo') === true ? 'yolo' : ((values.get('approval-mode') as string | undefined) ?? 'default');
  invocation.autoApprove = approval === 'yolo';
  invocation.readOnly = approval === 'plan';
  invocation.allowedTools = toolList((values.get('allowed-tools') as string[] | undefined) ?? []);
  if (approval === 'auto_edit') invocation.allowedTools.push('write_file', 'replace');
  return invocation;
}

export function parseGeminiArgs(argv: readonly string[]): ParseOutcome {
  const scan = scanGeminiArgv(argv);
  if (scan.values.get('help') === true) return { kind: 'info', text: pinnedHelp('gemini') };
  if (scan.values.get('version') === true) return { kind: 'info', text: `${PINNED.gemini.versionText}\n` };
  return refusalOf(scan) ?? { kind: 'run', invocation: geminiInvocation(scan) };
}
