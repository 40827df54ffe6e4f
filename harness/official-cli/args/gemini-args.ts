// gemini's argv, parsed the way yargs (strict, as the real CLI configures it) parses it, with exactly the
// options of the pinned help (harness/official-cli/pinned/gemini.json); a refusal prints its message and
// then the whole help, as yargs does, and exits 1. The trap for a
// shim: a string option's value is NOT taken from the next argument when that argument starts with '-'
// (`-p "-rf ..."` leaves the prompt empty and parses `-rf` as flags); `--prompt=<text>` and a positional
// prompt after `--` are the safe forms.
import { PINNED, pinnedHelp, pinnedOptions } from '../pinned/index.js';
import { emptyInvocation, type ParseOutcome, splitEquals, toolList } from './invocation.js';

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

export function parseGeminiArgs(argv: readonly string[]): ParseOutcome {
  const values = new Map<string, string | boolean | string[]>();
  const positional: string[] = [];
  const unknown: string[] = [];
  const args = [...argv];

  const take = (spec: OptionSpec, inline: string | undefined, index: number): number => {
    if (spec.type === 'boolean') {
      if (inline !== undefined) values.set(spec.name, inline !== 'false');
      else if (args[index + 1] === 'true' || args[index + 1] === 'false') {
        values.set(spec.name, args[index + 1] === 'true');
        return index + 1;
      } else values.set(spec.name, true);
      return index;
    }
    if (spec.type === 'array') {
      const list = (values.get(spec.name) as string[] | undefined) ?? [];
      if (inline !== undefined) list.push(inline);
      while (index + 1 < args.length && !looksLikeOption(args[index + 1]) && args[index + 1] !== '--') {
        list.push(args[index + 1]!);
        index += 1;
      }
      values.set(spec.name, list);
      return index;
    }
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
  };

  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index]!;
    if (argument === '--') {
      positional.push(...args.slice(index + 1));
      break;
    }
    if (argument.startsWith('--')) {
      const { name, value } = splitEquals(argument.slice(2));
      const negated = name.startsWith('no-') ? findLong(name.slice(3)) : undefined;
      if (negated && negated.type === 'boolean') {
        values.set(negated.name, false);
        continue;
      }
      const spec = findLong(name);
      if (!spec) {
        // yargs names an unknown dashed option twice: as given and camel-cased (`bogus-flag, bogusFlag`).
        unknown.push(name);
        if (name.includes('-')) unknown.push(name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()));
        // yargs still gives an unknown option the next argument as its value.
        if (value === undefined && args[index + 1] !== undefined && !looksLikeOption(args[index + 1])) index += 1;
        continue;
      }
      index = take(spec, value, index);
      continue;
    }
    if (looksLikeOption(argument)) {
      const letters = argument.slice(1);
      if (letters[1] === '=') {
        const spec = findShort(letters[0]!);
        if (!spec) unknown.push(letters[0]!);
        else take(spec, letters.slice(2), index);
        continue;
      }
      for (let position = 0; position < letters.length; position += 1) {
        const letter = letters[position]!;
        const spec = findShort(letter);
        if (!spec) {
          unknown.push(letter);
          continue;
        }
        if (position === letters.length - 1) index = take(spec, undefined, index);
        else values.set(spec.name, spec.type === 'boolean' ? true : '');
      }
      continue;
    }
    positional.push(argument);
  }

  if (values.get('help') === true) return { kind: 'info', text: pinnedHelp('gemini') };
  if (values.get('version') === true) return { kind: 'info', text: `${PINNED.gemini.versionText}\n` };
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
  const promptFlag = values.get('prompt');
  if (positional.length > 0 && typeof promptFlag === 'string') {
    return refusal('Cannot use both a positional prompt and the --prompt (-p) flag together');
  }

  const invocation = emptyInvocation();
  invocation.flags = Object.fromEntries(values);
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
  return { kind: 'run', invocation };
}
