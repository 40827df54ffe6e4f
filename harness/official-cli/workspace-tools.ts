// The tools a fake CLI runs itself, in the workspace, as the official CLIs do (the shim only reports
// them). Inputs use the app's names (D1); each CLI renders the outcome in its own words.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { type Dirent, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface ToolOutcome {
  isError: boolean;
  /** What the tool produced: file content, command output, or the error text. */
  output: string;
  /** Bash: the exit code (null when killed). */
  exitCode?: number | null;
  /** Bash: the signal that ended the command, when one did. */
  signal?: NodeJS.Signals;
  /** Read/Edit/Write: the absolute path it resolved to. */
  absolutePath?: string;
  /** Why it failed, in a word the renderers map to each CLI's wording. */
  failure?:
    | 'not-found'
    | 'outside-workspace'
    | 'no-match'
    | 'exit-code'
    | 'bad-input'
    | 'denied'
    | 'interrupted'
    | 'not-a-file';
  /** Write: whether the file existed before. */
  created?: boolean;
}

/** The running Bash command, so a signal handler can end it with the CLI. */
let runningCommand: ChildProcess | undefined;

export function stopRunningCommand(): void {
  const child = runningCommand;
  if (!child || child.exitCode !== null || child.pid === undefined) return;
  try {
    child.kill('SIGKILL');
  } catch {
    // already gone
  }
}

function resolveInside(workspace: string, file: unknown): { absolute?: string; error?: ToolOutcome } {
  if (typeof file !== 'string' || file === '') {
    return { error: { isError: true, output: 'missing required parameter: file_path', failure: 'bad-input' } };
  }
  const absolute = path.resolve(workspace, file);
  const relative = path.relative(workspace, absolute);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    return {
      error: {
        isError: true,
        output: `path is outside the workspace: ${absolute}`,
        failure: 'outside-workspace',
        absolutePath: absolute,
      },
    };
  }
  return { absolute };
}

function readTool(workspace: string, input: Record<string, unknown>): ToolOutcome {
  const { absolute, error } = resolveInside(workspace, input.file_path);
  if (error) return error;
  if (!existsSync(absolute!))
    return { isError: true, output: `File not found: ${absolute}`, failure: 'not-found', absolutePath: absolute };
  if (!statSync(absolute!).isFile())
    return { isError: true, output: `Not a file: ${absolute}`, failure: 'not-a-file', absolutePath: absolute };
  return { isError: false, output: readFileSync(absolute!, 'utf8'), absolutePath: absolute };
}

function writeTool(workspace: string, input: Record<string, unknown>): ToolOutcome {
  const { absolute, error } = resolveInside(workspace, input.file_path);
  if (error) return error;
  if (typeof input.content !== 'string')
    return {
      isError: true,
      output: 'missing required parameter: content',
      failure: 'bad-input',
      absolutePath: absolute,
    };
  const created = !existsSync(absolute!);
  mkdirSync(path.dirname(absolute!), { recursive: true });
  writeFileSync(absolute!, input.content);
  return { isError: false, output: '', absolutePath: absolute, created };
}

function editTool(workspace: string, input: Record<string, unknown>): ToolOutcome {
  const { absolute, error } = resolveInside(workspace, input.file_path);
  if (error) return error;
  if (typeof input.old_string !== 'string' || typeof input.new_string !== 'string') {
    return {
      isError: true,
      output: 'missing required parameters: old_string, new_string',
      failure: 'bad-input',
      absolutePath: absolute,
    };
  }
  if (!existsSync(absolute!))
    return { isError: true, output: `File not found: ${absolute}`, failure: 'not-found', absolutePath: absolute };
  const before = readFileSync(absolute!, 'utf8');
  const count = before.split(input.old_string).length - 1;
  if (count === 0 || (count > 1 && input.replace_all !== true)) {
    const why =
      count === 0
        ? 'String to replace not found in file.'
        : `Found ${count} matches of the string to replace, but replace_all is false.`;
    return {
      isError: true,
      output: `${why}\nString: ${input.old_string}`,
      failure: 'no-match',
      absolutePath: absolute,
    };
  }
  const after =
    input.replace_all === true
      ? before.split(input.old_string).join(input.new_string)
      : before.replace(input.old_string, () => input.new_string as string);
  writeFileSync(absolute!, after);
  return { isError: false, output: '', absolutePath: absolute };
}

function listTool(workspace: string, input: Record<string, unknown>): ToolOutcome {
  const { absolute, error } = resolveInside(workspace, input.path ?? '.');
  if (error) return error;
  if (!existsSync(absolute!))
    return { isError: true, output: `Directory not found: ${absolute}`, failure: 'not-found', absolutePath: absolute };
  const names = readdirSync(absolute!, { withFileTypes: true }).map((entry) =>
    entry.isDirectory() ? `${entry.name}/` : entry.name,
  );
  return { isError: false, output: names.sort().join('\n'), absolutePath: absolute };
}

function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const character = pattern[index]!;
    if (character === '*' && pattern[index + 1] === '*') {
      source += '.*';
      index += pattern[index + 2] === '/' ? 2 : 1;
    } else if (character === '*') source += '[^/]*';
    else if (character === '?') source += '[^/]';
    else source += character.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function walkFiles(root: string): string[] {
  const files: string[] = [];
  const visit = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.isFile()) files.push(full);
      if (files.length > 5000) return;
    }
  };
  visit(root);
  return files;
}

function globTool(workspace: string, input: Record<string, unknown>): ToolOutcome {
  if (typeof input.pattern !== 'string')
    return { isError: true, output: 'missing required parameter: pattern', failure: 'bad-input' };
  const { absolute, error } = resolveInside(workspace, input.path ?? '.');
  if (error) return error;
  const matcher = globToRegExp(input.pattern);
  const matches = walkFiles(absolute!)
    .map((file) => path.relative(absolute!, file).split(path.sep).join('/'))
    .filter((relative) => matcher.test(relative) || matcher.test(path.posix.basename(relative)));
  return { isError: false, output: matches.sort().join('\n') };
}

function grepTool(workspace: string, input: Record<string, unknown>): ToolOutcome {
  if (typeof input.pattern !== 'string')
    return { isError: true, output: 'missing required parameter: pattern', failure: 'bad-input' };
  const { absolute, error } = resolveInside(workspace, input.path ?? '.');
  if (error) return error;
  let expression: RegExp;
  try {
    expression = new RegExp(input.pattern);
  } catch (problem) {
    return { isError: true, output: `invalid regular expression: ${(problem as Error).message}`, failure: 'bad-input' };
  }
  const include = typeof input.glob === 'string' ? globToRegExp(input.glob) : undefined;
  const lines: string[] = [];
  for (const file of walkFiles(absolute!)) {
    const relative = path.relative(workspace, file).split(path.sep).join('/');
    if (include && !include.test(path.posix.basename(relative))) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, number) => {
        if (expression.test(line)) lines.push(`${relative}:${number + 1}:${line}`);
      });
  }
  return { isError: false, output: lines.join('\n') };
}

/** Runs a command the way the CLIs do (bash -c in the workspace), in the CLI's own process group. */
export function bashTool(workspace: string, input: Record<string, unknown>): Promise<ToolOutcome> {
  if (typeof input.command !== 'string' || input.command === '') {
    return Promise.resolve({ isError: true, output: 'missing required parameter: command', failure: 'bad-input' });
  }
  const timeoutMs = Math.min(typeof input.timeout === 'number' ? input.timeout : 120_000, 600_000);
  return new Promise((resolve) => {
    let output = '';
    const child = spawn('bash', ['-c', input.command as string], { cwd: workspace, stdio: ['ignore', 'pipe', 'pipe'] });
    runningCommand = child;
    const collect = (chunk: Buffer) => {
      if (output.length < 1_000_000) output += chunk.toString('utf8');
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      runningCommand = undefined;
      resolve({ isError: true, output: `cannot run bash: ${error.message}`, exitCode: null, failure: 'exit-code' });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      runningCommand = undefined;
      if (signal) resolve({ isError: true, output, exitCode: null, signal, failure: 'interrupted' });
      else resolve({ isError: code !== 0, output, exitCode: code, failure: code === 0 ? undefined : 'exit-code' });
    });
  });
}

/** Runs one app tool. Unknown tools fail the way a CLI answers a model calling a tool it lacks. */
export async function runAppTool(
  workspace: string,
  name: string,
  input: Record<string, unknown>,
): Promise<ToolOutcome> {
  switch (name) {
    case 'Read':
      return readTool(workspace, input);
    case 'Write':
      return writeTool(workspace, input);
    case 'Edit':
      return editTool(workspace, input);
    case 'LS':
      return listTool(workspace, input);
    case 'Glob':
      return globTool(workspace, input);
    case 'Grep':
      return grepTool(workspace, input);
    case 'Bash':
      return bashTool(workspace, input);
    default:
      return { isError: true, output: `Tool "${name}" not found in registry.`, failure: 'bad-input' };
  }
}

/** Tools that can change the workspace: their effects are recorded for `tool.not-run-twice`. */
export const CHANGING_TOOLS = new Set(['Write', 'Edit', 'Bash']);

/** Workspace-relative path → sha256 of the content ('dir' for directories). Small fixture trees only. */
export function snapshotWorkspace(workspace: string): Map<string, string> {
  const snapshot = new Map<string, string>();
  const visit = (directory: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name === '.git' || entry.name === 'node_modules' || snapshot.size > 5000) continue;
      const full = path.join(directory, entry.name);
      const relative = path.relative(workspace, full).split(path.sep).join('/');
      if (entry.isDirectory()) {
        snapshot.set(relative, 'dir');
        visit(full);
      } else if (entry.isFile()) {
        try {
          snapshot.set(relative, createHash('sha256').update(readFileSync(full)).digest('hex'));
        } catch {
          // unreadable: leave it out
        }
      }
    }
  };
  visit(workspace);
  return snapshot;
}

/** The paths whose state differs between two snapshots, with their new state (null: removed). */
export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): Record<string, string | null> {
  const effects: Record<string, string | null> = {};
  for (const [file, hash] of after) if (before.get(file) !== hash) effects[file] = hash;
  for (const file of before.keys()) if (!after.has(file)) effects[file] = null;
  return effects;
}
