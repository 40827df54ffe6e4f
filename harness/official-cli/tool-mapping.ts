// How each official CLI names and shapes a scripted app tool call (D1 names → the CLI's own tools).
// The fakes render with these; `expectedTranslation` says what a correct translator prints back, which is
// what goldens compare for CLI providers (R10: the CLI decides how a tool runs, e.g. codex runs a Read as
// `cat`).
import path from 'node:path';
import type { OfficialCliName, ScriptToolCall } from './script-types.js';

/** gemini's tool name and parameters for an app tool call. */
export function geminiToolCall(
  name: string,
  input: Record<string, unknown>,
): { name: string; parameters: Record<string, unknown> } {
  const pick = (entries: Array<[string, unknown]>) =>
    Object.fromEntries(entries.filter(([, value]) => value !== undefined));
  switch (name) {
    case 'Read':
      return {
        name: 'read_file',
        parameters: pick([
          ['file_path', input.file_path],
          ['start_line', input.offset],
          ['end_line', endLine(input)],
        ]),
      };
    case 'Write':
      return {
        name: 'write_file',
        parameters: pick([
          ['file_path', input.file_path],
          ['content', input.content],
        ]),
      };
    case 'Edit':
      return {
        name: 'replace',
        parameters: pick([
          ['file_path', input.file_path],
          ['old_string', input.old_string],
          ['new_string', input.new_string],
          ['allow_multiple', input.replace_all],
        ]),
      };
    case 'Bash':
      return {
        name: 'run_shell_command',
        parameters: pick([
          ['command', input.command],
          ['description', input.description],
        ]),
      };
    case 'Glob':
      return {
        name: 'glob',
        parameters: pick([
          ['pattern', input.pattern],
          ['dir_path', input.path],
        ]),
      };
    case 'Grep':
      return {
        name: 'grep_search',
        parameters: pick([
          ['pattern', input.pattern],
          ['dir_path', input.path],
          ['include_pattern', input.glob],
        ]),
      };
    case 'LS':
      return { name: 'list_directory', parameters: pick([['dir_path', input.path ?? '.']]) };
    default:
      return { name, parameters: input };
  }
}

function endLine(input: Record<string, unknown>): number | undefined {
  if (typeof input.offset === 'number' && typeof input.limit === 'number') return input.offset + input.limit - 1;
  return undefined;
}

/** Where a Write's target stands, as far as the mapping can tell. */
export interface WriteTarget {
  /** The directory relative paths resolve against (copilot's file tools take absolute paths). */
  cwd?: string;
  /** The target's content now: undefined when it does not exist. */
  existing?: string;
  /** Whether the target could be looked up at all (an absolute path, or a known cwd). */
  known: boolean;
}

/**
 * copilot's tool calls for an app tool call, in order of preference: `view` for reads and listings, `create`
 * for a new file only (it refuses an existing one), `edit` for edits and for a Write over a file that has
 * content, `bash` for commands, `glob` and `grep`. File paths are absolute against `cwd`. A Write whose
 * target cannot be looked up, or is empty, gets no candidate here (a shell write is the caller's fallback).
 */
export function copilotToolCall(
  name: string,
  input: Record<string, unknown>,
  target: WriteTarget,
): Array<{ name: string; input: Record<string, unknown> }> {
  const absolute = (value: unknown, fallback = '.') => {
    const given = typeof value === 'string' && value !== '' ? value : fallback;
    return target.cwd !== undefined && !path.isAbsolute(given) ? path.resolve(target.cwd, given) : given;
  };
  const file = absolute(input.file_path, '');
  switch (name) {
    case 'Read': {
      const end = endLine(input);
      return [
        { name: 'view', input: { path: file, ...(end === undefined ? {} : { view_range: [input.offset, end] }) } },
      ];
    }
    case 'LS':
      return [{ name: 'view', input: { path: absolute(input.path) } }];
    case 'Write':
      if (!target.known) return [];
      if (target.existing === undefined) return [{ name: 'create', input: { path: file, file_text: input.content } }];
      if (target.existing === '') return [];
      return [{ name: 'edit', input: { path: file, old_str: target.existing, new_str: input.content } }];
    case 'Edit':
      return [{ name: 'edit', input: { path: file, old_str: input.old_string, new_str: input.new_string } }];
    case 'Bash': {
      const command = typeof input.command === 'string' ? input.command : '';
      const description = typeof input.description === 'string' ? input.description : command;
      return [{ name: 'bash', input: { command, description } }];
    }
    case 'Glob':
      return [{ name: 'glob', input: { pattern: input.pattern } }];
    case 'Grep':
      return [
        { name: 'grep', input: { pattern: input.pattern } },
        { name: 'rg', input: { pattern: input.pattern } },
      ];
    default:
      return [];
  }
}

/** POSIX single quoting, only when needed (codex prints `/bin/bash -lc ls` but `... -lc 'cat hello.txt'`). */
export function shellQuote(text: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The command codex runs for an app tool that it executes through its shell (everything but file edits). */
export function codexShellCommand(name: string, input: Record<string, unknown>): string | undefined {
  const argument = (value: unknown, fallback = '.') =>
    shellQuote(typeof value === 'string' && value !== '' ? value : fallback);
  switch (name) {
    case 'Bash':
      return typeof input.command === 'string' ? input.command : '';
    case 'Read':
      return `cat ${argument(input.file_path, '')}`;
    case 'LS':
      return `ls ${argument(input.path)}`;
    case 'Glob':
      return `find ${argument(input.path)} -name ${argument(input.pattern, '*')}`;
    case 'Grep':
      return `grep -rn ${argument(input.pattern, '')} ${argument(input.path)}`;
    default:
      return undefined;
  }
}

/**
 * The shell command that makes a Write or an Edit when codex offers no apply_patch (codex 0.169 declares it
 * for some models only, e.g. not for gpt-5.2-codex): what a model then runs through exec_command.
 */
export function codexShellEdit(name: string, input: Record<string, unknown>): string | undefined {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const file = shellQuote(text(input.file_path));
  if (name === 'Write') return `printf '%s' ${shellQuote(text(input.content))} > ${file}`;
  if (name === 'Edit') {
    // Reads the file whole (the x keeps trailing newlines), replaces the literal text once, writes it back.
    return `f=${file}; c=$(cat -- "$f"; printf x); c=\${c%x}; old=${shellQuote(text(input.old_string))}; new=${shellQuote(text(input.new_string))}; printf '%s' "\${c/"$old"/"$new"}" > "$f"`;
  }
  return undefined;
}

/** How codex prints a command it ran: always through a login bash. */
export function codexDisplayedCommand(command: string): string {
  return `/bin/bash -lc ${shellQuote(command)}`;
}

/** claude's model sends absolute file paths (as the capture shows); everything else is the app's input. */
export function claudeToolInput(
  name: string,
  input: Record<string, unknown>,
  workspace: string,
): Record<string, unknown> {
  if (
    typeof input.file_path === 'string' &&
    ['Read', 'Write', 'Edit'].includes(name) &&
    !path.isAbsolute(input.file_path)
  ) {
    return { ...input, file_path: path.join(workspace, input.file_path) };
  }
  return input;
}

/**
 * What a correct translator prints for a scripted call copilot made: its own call read back as the app's. A read,
 * an edit and a new file are the app's calls (paths absolute); `bash` carries a description (copilot requires one:
 * the command, when the script gives none); a Write over a file that has content is copilot's `edit` of all of it,
 * read back as an Edit. What the file held before is taken from the file after the turn: right for a write that
 * was refused (the only such call the scenarios script); a write that went through reads as its own content.
 */
function copilotTranslation(
  call: ScriptToolCall,
  { workspace, readAfter }: Pick<TranslationContext, 'workspace' | 'readAfter'>,
): { name: string; input: Record<string, unknown> } {
  const input = (call.input ?? {}) as Record<string, unknown>;
  if (call.name === 'Bash')
    return { name: 'Bash', input: { ...input, description: input.description ?? input.command } };
  if (call.name !== 'Write') return { name: call.name, input: claudeToolInput(call.name, input, workspace) };
  const file = path.resolve(workspace, String(input.file_path ?? ''));
  const existing = readAfter(file);
  if (existing === undefined || existing === input.content)
    return { name: 'Write', input: { ...input, file_path: file } };
  return { name: 'Edit', input: { file_path: file, old_string: existing, new_string: input.content } };
}

/** What translating a scripted call needs to know of the run. */
export interface TranslationContext {
  /** The run's workspace (claude's model sends absolute paths; codex reports absolute changed paths). */
  workspace: string;
  /** Reads a workspace file as it is after the turn; undefined when it cannot be read. */
  readAfter: (absolutePath: string) => string | undefined;
  /** The CLI made its edits through its shell (a real codex without apply_patch). */
  editsThroughShell?: boolean;
}

/**
 * The (name, input) a correct translator prints for a scripted call wrapped by `cli`, given the files as
 * they are after the turn (`readAfter`). gemini reports the model's parameters as sent; claude's model
 * sends absolute paths; codex runs everything but file edits through its shell (a Bash call with the
 * command) and reports edits as changed paths only, which a translator shows as a Write of the content
 * the file has after the turn (unchanged when the patch was refused).
 */
export function expectedTranslation(
  cli: OfficialCliName,
  call: ScriptToolCall,
  { workspace, readAfter, editsThroughShell }: TranslationContext,
): { name: string; input: Record<string, unknown> } {
  const input = (call.input ?? {}) as Record<string, unknown>;
  if (cli === 'claude') return { name: call.name, input: claudeToolInput(call.name, input, workspace) };
  if (cli === 'copilot') return copilotTranslation(call, { workspace, readAfter });
  if (cli === 'gemini') return { name: call.name, input };
  const command =
    codexShellCommand(call.name, input) ?? (editsThroughShell ? codexShellEdit(call.name, input) : undefined);
  if (command !== undefined) return { name: 'Bash', input: { command } };
  const absolute = path.resolve(workspace, String(input.file_path ?? ''));
  return { name: 'Write', input: { file_path: absolute, content: readAfter(absolute) ?? '' } };
}
