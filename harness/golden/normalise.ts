// R10 normalisation: what differs between runs (or between shims) for reasons that do not matter is
// replaced by placeholders before a golden comparison — absolute workspace and home paths, path
// separators in file-tool inputs, line endings. Ids, session ids, uuids, timestamps, durations and cost
// never reach the comparison model at all (see golden-model.ts and transcripts/FIELDS.md).

export interface NormaliseContext {
  /** Absolute workspace path of the run (every spelling the shim may print is replaced by <cwd>). */
  workspace?: string;
  /** Other spellings of the workspace (realpath, /private/var on macOS, ...). */
  workspaceAliases?: string[];
  /** The isolated HOME of the run (replaced by <home>). */
  home?: string;
}

export const CWD_PLACEHOLDER = '<cwd>';
export const HOME_PLACEHOLDER = '<home>';

/** Input fields holding a file or directory path (the app's tool fields, D1). */
const PATH_FIELDS = new Set(['file_path', 'path', 'notebook_path']);

/** Every spelling of a directory a shim may print: as is, with / or \ separators, JSON-escaped backslashes. */
function spellings(directory: string): string[] {
  const trimmed = directory.replace(/[\\/]+$/, '');
  const forward = trimmed.replace(/\\/g, '/');
  const backward = trimmed.replace(/\//g, '\\');
  return [...new Set([trimmed, forward, backward, backward.replace(/\\/g, '\\\\')])].filter((s) => s.length > 1);
}

export function normaliseLineEndings(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Replaces the workspace and home paths in free text, longest spelling first. */
export function normaliseText(text: string, context: NormaliseContext): string {
  let result = normaliseLineEndings(text);
  const replacements: [string, string][] = [];
  for (const directory of [context.workspace, ...(context.workspaceAliases ?? [])]) {
    if (directory) for (const spelling of spellings(directory)) replacements.push([spelling, CWD_PLACEHOLDER]);
  }
  if (context.home) for (const spelling of spellings(context.home)) replacements.push([spelling, HOME_PLACEHOLDER]);
  replacements.sort((a, b) => b[0].length - a[0].length);
  for (const [from, to] of replacements) result = result.split(from).join(to);
  return result;
}

/**
 * A file-tool path as `<cwd>/relative/posix/path`, whether the shim printed it relative, absolute inside the
 * workspace, with backslashes or with `./` segments. Paths outside the workspace keep their text.
 */
export function normalisePath(value: string, context: NormaliseContext): string {
  let text = normaliseText(value, context).replace(/\\/g, '/');
  const isAbsolute = text.startsWith('/') || /^[A-Za-z]:\//.test(text);
  if (!text.startsWith(CWD_PLACEHOLDER) && !text.startsWith(HOME_PLACEHOLDER) && !isAbsolute) {
    text = `${CWD_PLACEHOLDER}/${text}`;
  }
  if (text.startsWith(`${CWD_PLACEHOLDER}`)) {
    const rest = text
      .slice(CWD_PLACEHOLDER.length)
      .split('/')
      .filter((segment) => segment !== '' && segment !== '.');
    const resolved: string[] = [];
    for (const segment of rest) {
      if (segment === '..') resolved.pop();
      else resolved.push(segment);
    }
    return resolved.length === 0 ? CWD_PLACEHOLDER : `${CWD_PLACEHOLDER}/${resolved.join('/')}`;
  }
  return text;
}

/**
 * How deep the comparison follows a shim's JSON values. Deeper than the contract allows (nesting of 128 levels
 * fails the lexical check anyway), a value is replaced by a marker, so untrusted depth cannot exhaust the stack.
 */
export const MAX_COMPARED_DEPTH = 160;
export const TOO_DEEP_MARKER = `<nested deeper than ${MAX_COMPARED_DEPTH} levels>`;

/** Optional input fields at their default, per tool: the same call with or without them (Claude Code fills them in). */
const DEFAULT_INPUTS: Record<string, Record<string, unknown>> = { Edit: { replace_all: false } };

/** A tool call's input without the optional fields that hold their default value. */
export function withoutDefaultInputs(name: string, input: unknown): unknown {
  // Own keys only: a tool named `__proto__` or `constructor` has no defaults.
  const defaults = Object.hasOwn(DEFAULT_INPUTS, name) ? DEFAULT_INPUTS[name] : undefined;
  if (!defaults || !input || typeof input !== 'object' || Array.isArray(input)) return input;
  // A spread keeps every own key as data, `__proto__` included (JSON.parse makes it an own key).
  const kept = { ...(input as Record<string, unknown>) };
  for (const [field, value] of Object.entries(defaults)) if (kept[field] === value) delete kept[field];
  return kept;
}

/** A tool input with paths and text normalised; object keys sorted so equal inputs print equally. */
export function normaliseToolInput(input: unknown, context: NormaliseContext, key?: string, depth = 0): unknown {
  if (typeof input === 'string') {
    return key !== undefined && PATH_FIELDS.has(key) ? normalisePath(input, context) : normaliseText(input, context);
  }
  if (depth >= MAX_COMPARED_DEPTH && input && typeof input === 'object') return TOO_DEEP_MARKER;
  if (Array.isArray(input)) return input.map((item) => normaliseToolInput(item, context, undefined, depth + 1));
  if (input && typeof input === 'object') {
    // Object.fromEntries defines each key as own data: an assignment `sorted[name] = ...` would make a
    // `__proto__` key (an own key after JSON.parse) the copy's prototype, and the key would vanish.
    return Object.fromEntries(
      Object.keys(input)
        .sort()
        .map((name) => [name, normaliseToolInput((input as Record<string, unknown>)[name], context, name, depth + 1)]),
    );
  }
  return input;
}

/** A tool_result's content as text: a string, text blocks joined, or an object's `content`/`output`. */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((block) =>
        block && typeof block === 'object' && typeof (block as { text?: unknown }).text === 'string'
          ? (block as { text: string }).text
          : typeof block === 'string'
            ? block
            : '',
      )
      .join('\n');
  }
  if (content && typeof content === 'object') {
    const record = content as Record<string, unknown>;
    if (typeof record.content === 'string') return record.content;
    if (typeof record.output === 'string') return record.output;
    return JSON.stringify(content);
  }
  return content === undefined || content === null ? '' : String(content);
}
