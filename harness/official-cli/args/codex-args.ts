// codex's argv, parsed the way clap parses `codex exec [OPTIONS] [PROMPT]` and
// `codex exec resume [OPTIONS] [SESSION_ID] [PROMPT]`, with exactly the options the pinned help lists for
// each (harness/official-cli/pinned/codex.json): an option of `exec` given after `resume` is refused, as
// is any flag the pinned version does not have (`--full-auto` is gone in 0.169). clap refuses anything
// that looks like a flag where a value or the prompt is expected: a prompt starting with '-' must come
// after `--`.
import { clapUsage, type HelpOption } from '../pinned/help-options.js';
import { PINNED, pinnedHelp, pinnedOptions } from '../pinned/index.js';
import { emptyInvocation, type ParseOutcome, splitEquals } from './invocation.js';

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

export function parseCodexArgs(argv: readonly string[]): ParseOutcome {
  const values = new Map<string, string | boolean | string[]>();
  const positional: string[] = [];
  let sawExec = false;
  let command = 'exec';
  let afterDashes = false;

  const set = (spec: HelpOption, value: string | true) => {
    const previous = values.get(spec.long);
    if (value === true) values.set(spec.long, true);
    else if (spec.value === 'variadic' || previous !== undefined) {
      const list = Array.isArray(previous) ? previous : typeof previous === 'string' ? [previous] : [];
      values.set(spec.long, [...list, value]);
    } else values.set(spec.long, value);
  };

  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    if (afterDashes) {
      positional.push(argument);
      continue;
    }
    if (!sawExec) {
      if (argument === 'exec' || argument === 'e') {
        sawExec = true;
        continue;
      }
      return {
        kind: 'error',
        message: 'Error: stdin is not a terminal (the fake codex only runs `codex exec`)\n',
        exitCode: 1,
      };
    }
    if (argument === '--') {
      afterDashes = true;
      continue;
    }
    if (argument.startsWith('--') || looksLikeFlag(argument)) {
      const options = pinnedOptions('codex', command);
      const long = argument.startsWith('--');
      let inline: string | undefined;
      let spec: HelpOption | undefined;
      if (long) {
        const split = splitEquals(argument.slice(2));
        inline = split.value;
        spec = options.find((option) => option.long === split.name);
      } else {
        // A group of short flags (`-rf x` reads as -r, -f, ...): clap names the first letter it does not know.
        let position = 1;
        spec = options.find((option) => option.short === argument[position]);
        while (spec?.value === 'none' && position + 1 < argument.length) {
          set(spec, true);
          position += 1;
          spec = options.find((option) => option.short === argument[position]);
        }
        if (!spec) {
          const flag = `-${argument[position]}`;
          return clapError(
            `unexpected argument '${flag}' found`,
            command,
            true,
            `to pass '${flag}' as a value, use '-- ${flag}'`,
          );
        }
        const rest = argument.slice(position + 1);
        inline = rest === '' ? undefined : rest.startsWith('=') ? rest.slice(1) : rest;
      }
      if (!spec) {
        const flag = argument.split('=')[0];
        return clapError(
          `unexpected argument '${flag}' found`,
          command,
          true,
          `to pass '${flag}' as a value, use '-- ${flag}'`,
        );
      }
      if (spec.value === 'none') {
        if (inline !== undefined)
          return clapError(
            `unexpected value '${inline}' for '--${spec.long}' found; no more were expected`,
            command,
            true,
          );
        set(spec, true);
        continue;
      }
      const taken: string[] = [];
      if (inline !== undefined) taken.push(inline);
      else {
        const next = argv[index + 1];
        // clap does not take a value that looks like a flag.
        if (next === undefined || next === '--' || looksLikeFlag(next))
          return clapError(`a value is required for '${display(spec)}' but none was supplied`, command, false);
        taken.push(next);
        index += 1;
      }
      if (spec.value === 'variadic' && inline === undefined) {
        while (argv[index + 1] !== undefined && argv[index + 1] !== '--' && !looksLikeFlag(argv[index + 1]!)) {
          taken.push(argv[index + 1]!);
          index += 1;
        }
      }
      for (const value of taken) {
        if (spec.choices && !spec.choices.includes(value)) {
          return clapError(
            `invalid value '${value}' for '${display(spec)}'\n  [possible values: ${spec.choices.join(', ')}]`,
            command,
            false,
          );
        }
        set(spec, value);
      }
      continue;
    }
    if (command === 'exec' && positional.length === 0 && argument === 'resume') {
      command = 'exec resume';
      continue;
    }
    positional.push(argument);
  }

  if (!sawExec) return { kind: 'error', message: 'Error: stdin is not a terminal\n', exitCode: 1 };
  if (values.get('help') === true) return { kind: 'info', text: pinnedHelp('codex', command) };
  if (values.get('version') === true) return { kind: 'info', text: `${PINNED.codex.versionText}\n` };

  const resume = command === 'exec resume';
  let sessionId: string | undefined;
  if (resume && values.get('last') !== true) sessionId = positional.shift();
  if (positional.length > 1) return clapError(`unexpected argument '${positional[1]}' found`, command, true);

  const invocation = emptyInvocation();
  invocation.flags = Object.fromEntries(values);
  const prompt = positional[0];
  invocation.prompt = prompt === undefined || prompt === '-' ? undefined : prompt;
  const model = values.get('model');
  invocation.model = typeof model === 'string' ? model : undefined;
  invocation.resume = resume ? (sessionId ?? 'last') : undefined;
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
  return { kind: 'run', invocation };
}
