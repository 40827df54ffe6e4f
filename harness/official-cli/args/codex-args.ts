// codex's argv, parsed the way clap parses `codex exec [OPTIONS] [PROMPT]` and
// `codex exec resume [OPTIONS] [SESSION_ID] [PROMPT]`. clap refuses anything that looks like a flag where a
// value or the prompt is expected: a prompt starting with '-' must come after `--`.
import { emptyInvocation, splitEquals, type ParseOutcome } from './invocation.js';

interface OptionSpec {
  name: string;
  takesValue: boolean;
  short?: string;
  aliases?: string[];
  choices?: string[];
  multiple?: boolean;
}

const OPTIONS: OptionSpec[] = [
  { name: 'config', takesValue: true, short: 'c', multiple: true },
  { name: 'enable', takesValue: true, multiple: true },
  { name: 'disable', takesValue: true, multiple: true },
  { name: 'image', takesValue: true, short: 'i', multiple: true },
  { name: 'model', takesValue: true, short: 'm' },
  { name: 'oss', takesValue: false },
  { name: 'local-provider', takesValue: true },
  { name: 'sandbox', takesValue: true, short: 's', choices: ['read-only', 'workspace-write', 'danger-full-access'] },
  { name: 'profile', takesValue: true, short: 'p' },
  { name: 'full-auto', takesValue: false },
  { name: 'dangerously-bypass-approvals-and-sandbox', takesValue: false, aliases: ['yolo'] },
  { name: 'cd', takesValue: true, short: 'C' },
  { name: 'skip-git-repo-check', takesValue: false },
  { name: 'add-dir', takesValue: true, multiple: true },
  { name: 'ephemeral', takesValue: false },
  { name: 'output-schema', takesValue: true },
  { name: 'color', takesValue: true, choices: ['always', 'never', 'auto'] },
  { name: 'json', takesValue: false, aliases: ['experimental-json'] },
  { name: 'output-last-message', takesValue: true, short: 'o' },
  { name: 'last', takesValue: false },
  { name: 'help', takesValue: false, short: 'h' },
  { name: 'version', takesValue: false, short: 'V' },
];

export const CODEX_VERSION = '0.169.0';

const usage = (resume: boolean) =>
  resume ? 'Usage: codex exec resume [OPTIONS] [SESSION_ID] [PROMPT]' : 'Usage: codex exec [OPTIONS] [PROMPT]';

function clapError(message: string, resume: boolean, tip?: string): ParseOutcome {
  const tipText = tip ? `\n\n  tip: ${tip}` : '';
  return {
    kind: 'error',
    message: `error: ${message}${tipText}\n\n${usage(resume)}\n\nFor more information, try '--help'.\n`,
    exitCode: 2,
  };
}

const NEGATIVE_NUMBER = /^-[0-9]+(\.[0-9]+)?$/;
const looksLikeFlag = (argument: string) =>
  argument.length > 1 && argument.startsWith('-') && !NEGATIVE_NUMBER.test(argument);

export function parseCodexArgs(argv: readonly string[]): ParseOutcome {
  const values = new Map<string, string | boolean | string[]>();
  const positional: string[] = [];
  let sawExec = false;
  let resume = false;
  let afterDashes = false;

  const set = (spec: OptionSpec, value: string | true) => {
    if (spec.multiple && typeof value === 'string') {
      const list = (values.get(spec.name) as string[] | undefined) ?? [];
      list.push(value);
      values.set(spec.name, list);
    } else values.set(spec.name, value);
  };

  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    if (afterDashes) {
      positional.push(argument);
      continue;
    }
    if (argument === '--') {
      afterDashes = true;
      continue;
    }
    if (argument.startsWith('--') || looksLikeFlag(argument)) {
      const long = argument.startsWith('--');
      let name: string;
      let inline: string | undefined;
      let spec: OptionSpec | undefined;
      if (long) {
        ({ name, value: inline } = splitEquals(argument.slice(2)));
        spec = OPTIONS.find((option) => option.name === name || option.aliases?.includes(name));
      } else {
        name = argument[1]!;
        const rest = argument.slice(2);
        inline = rest === '' ? undefined : rest.startsWith('=') ? rest.slice(1) : rest;
        spec = OPTIONS.find((option) => option.short === name);
        if (spec && !spec.takesValue && inline !== undefined) spec = undefined; // -xyz groups of flags: not used by codex
      }
      if (!spec)
        return clapError(
          `unexpected argument '${argument}' found`,
          resume,
          `to pass '${argument}' as a value, use '-- ${argument}'`,
        );
      const display = long ? `--${spec.name}` : `-${spec.short}`;
      if (!spec.takesValue) {
        if (inline !== undefined)
          return clapError(`unexpected value '${inline}' for '${display}' found; no more were expected`, resume);
        set(spec, true);
        continue;
      }
      let value = inline;
      if (value === undefined) {
        const next = argv[index + 1];
        // clap does not take a value that looks like a flag.
        if (next === undefined || next === '--' || looksLikeFlag(next)) {
          return clapError(
            `a value is required for '${display} <${spec.name.toUpperCase()}>' but none was supplied`,
            resume,
          );
        }
        value = next;
        index += 1;
      }
      if (spec.choices && !spec.choices.includes(value)) {
        return clapError(
          `invalid value '${value}' for '${display} <${spec.name.toUpperCase()}>'\n  [possible values: ${spec.choices.join(', ')}]`,
          resume,
        );
      }
      set(spec, value);
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
    if (!resume && positional.length === 0 && argument === 'resume') {
      resume = true;
      continue;
    }
    positional.push(argument);
  }

  if (values.get('help') === true) return { kind: 'info', text: `Run Codex non-interactively\n\n${usage(resume)}\n` };
  if (values.get('version') === true) return { kind: 'info', text: `codex-cli ${CODEX_VERSION}\n` };
  if (!sawExec) return { kind: 'error', message: 'Error: stdin is not a terminal\n', exitCode: 1 };
  if (values.get('full-auto') === true && values.get('dangerously-bypass-approvals-and-sandbox') === true) {
    return clapError(
      "the argument '--full-auto' cannot be used with '--dangerously-bypass-approvals-and-sandbox'",
      resume,
    );
  }

  let sessionId: string | undefined;
  if (resume && values.get('last') !== true) sessionId = positional.shift();
  const maxPositional = 1;
  if (positional.length > maxPositional)
    return clapError(`unexpected argument '${positional[maxPositional]}' found`, resume);

  const invocation = emptyInvocation();
  invocation.flags = Object.fromEntries(values);
  const prompt = positional[0];
  invocation.prompt = prompt === undefined || prompt === '-' ? undefined : prompt;
  invocation.model = values.get('model') as string | undefined;
  invocation.resume = resume ? (sessionId ?? 'last') : undefined;
  invocation.workdir = values.get('cd') as string | undefined;
  invocation.streamJson = values.get('json') === true;
  const sandbox = values.get('sandbox') as string | undefined;
  invocation.autoApprove =
    values.get('dangerously-bypass-approvals-and-sandbox') === true ||
    values.get('full-auto') === true ||
    sandbox === 'workspace-write' ||
    sandbox === 'danger-full-access';
  invocation.readOnly = !invocation.autoApprove;
  return { kind: 'run', invocation };
}
