// Session files (R8): ~/.yume/sessions/<provider flag as given>/<id>.json, written atomically, in the shape
// the app's loader reads: id, provider, model, cwd, title, history[], usage with camelCase token counts.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { messageOf, YumeError, type YumeErrorOptions } from '../../common/errors.js';
import { fileNameSafe } from '../text/plain-match.js';
import { writeFileAtomic } from '../tools/atomic-write.js';
import { isoTimestamp } from './clock.js';
import type { HistoryEntry, TokenUsage } from './history.js';
import { isValidSessionId } from './ids.js';

export interface SessionUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
}

// The shape of schemas/session-file.schema.json, narrowed to what the shim writes. Not derived from the generated
// type: its index signatures (`[k: string]: unknown`) make the shim's history interfaces unassignable to it.
// The harness validates every session file a run leaves against the schema (rule session.file).
export interface SessionFile {
  id: string;
  provider: string;
  model: string;
  cwd: string;
  title: string;
  created: string;
  updated: string;
  history: HistoryEntry[];
  usage: SessionUsage;
  metadata?: SessionMetadata;
}

/** What the shim keeps beside the history (the app's loader reads `compactionCount` as yume-cli writes it). */
export interface SessionMetadata {
  title?: string;
  providerState?: unknown;
  /** Compactions so far (docs/protocol.md#r21-compaction). */
  compactionCount?: number;
  /** The last provider call's input + cache + output tokens: the next compaction boundary's `pre_tokens`. */
  lastCallTokens?: number;
}

export class SessionFileError extends YumeError {
  override name = 'SessionFileError';
  constructor(message: string, options?: YumeErrorOptions) {
    super('SESSION_FILE', message, options);
  }
}

/** os.homedir() reads HOME on POSIX and USERPROFILE on Windows, so both are honoured. */
export function sessionsRoot(): string {
  return join(homeDirectory(), '.yume', 'sessions');
}

/**
 * os.homedir() without loading node:os where HOME answers (about 0.2 ms of every start): on POSIX it returns
 * HOME whenever the variable is set, and looks the user up only when it is not.
 */
function homeDirectory(): string {
  const home = process.env.HOME;
  if (process.platform !== 'win32' && home !== undefined) return home;
  return process.getBuiltinModule('node:os').homedir();
}

export function sessionPath(providerFlag: string, id: string, root = sessionsRoot()): string {
  if (!isValidSessionId(id)) throw new SessionFileError(`invalid session id ${JSON.stringify(id)}`);
  // The provider flag becomes a directory name: keep it to one plain path segment.
  const directory = fileNameSafe(providerFlag) || 'default';
  return join(root, directory, `${id}.json`);
}

export function titleFrom(prompt: string): string {
  const line = prompt.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

export function addUsage(total: SessionUsage, usage: TokenUsage): SessionUsage {
  return {
    inputTokens: total.inputTokens + usage.inputTokens,
    outputTokens: total.outputTokens + usage.outputTokens,
    cacheReadTokens: total.cacheReadTokens + (usage.cacheReadTokens ?? 0),
    cacheCreationTokens: total.cacheCreationTokens + (usage.cacheCreationTokens ?? 0),
  };
}

/** undefined when no such session exists; SessionFileError when the file exists but cannot be used. */
export async function loadSession(file: string): Promise<SessionFile | undefined> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8'); // synchronous: one small file, read before anything else happens
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SessionFileError(`cannot read session file ${file}: ${messageOf(error)}`, { cause: error });
  }
  let parsed: Partial<SessionFile>;
  try {
    parsed = JSON.parse(text) as Partial<SessionFile>;
  } catch (error) {
    throw new SessionFileError(
      `session file ${file} is not valid JSON (${messageOf(error)}); delete it or pick another id`,
      { cause: error },
    );
  }
  if (!parsed || typeof parsed !== 'object' || !Array.isArray(parsed.history)) {
    throw new SessionFileError(`session file ${file} has no history array; delete it or pick another id`);
  }
  const usage = (parsed.usage ?? {}) as Partial<SessionUsage>;
  return {
    id: String(parsed.id ?? basename(file, '.json')),
    provider: String(parsed.provider ?? ''),
    model: String(parsed.model ?? ''),
    cwd: String(parsed.cwd ?? ''),
    title: String(parsed.title ?? parsed.metadata?.title ?? ''),
    created: String(parsed.created ?? isoTimestamp()),
    updated: String(parsed.updated ?? isoTimestamp()),
    history: parsed.history,
    usage: {
      inputTokens: Number(usage.inputTokens) || 0,
      outputTokens: Number(usage.outputTokens) || 0,
      cacheReadTokens: Number(usage.cacheReadTokens) || 0,
      cacheCreationTokens: Number(usage.cacheCreationTokens) || 0,
    },
    ...(parsed.metadata ? { metadata: parsed.metadata } : {}),
  };
}

export async function saveSession(file: string, session: SessionFile): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(session, null, 2)}\n`);
}
