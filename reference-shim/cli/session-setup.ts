// Which session a process works on (R8): --resume ID loads ~/.yume/sessions/<provider>/<ID>.json, or starts a
// session under that id when there is none (the app passes its tab id on a first turn); --session-id names a
// new session; otherwise a fresh id. --history-file replaces the loaded history as the starting point.
import { existsSync } from 'node:fs';
import type { ShimSession } from '../agent/turn-types.js';
import { isoTimestamp } from '../session/clock.js';
import { readHistoryFile } from '../session/history-file.js';
import { newSessionId } from '../session/ids.js';
import { loadSession, sessionPath } from '../session/store.js';
import type { ShimOptions } from './args.js';

export async function setUpSession(
  options: ShimOptions,
  cwd: string,
  notice: (message: string) => void,
): Promise<ShimSession> {
  const id = options.resume ?? options.sessionId ?? newSessionId();
  if (options.resume && options.sessionId && options.sessionId !== options.resume) {
    notice(`both --resume ${options.resume} and --session-id ${options.sessionId} given; continuing ${options.resume}`);
  }
  const file = sessionPath(options.provider, id);
  // Only --resume continues a saved conversation; --session-id names a new one (a stale file is replaced).
  const saved = options.resume ? await loadSession(file) : undefined;
  if (options.resume && !saved)
    notice(`no saved session ${options.resume} (${file}); starting a new session under that id`);
  if (!options.resume && options.sessionId && existsSync(file))
    notice(`--session-id ${id}: replacing the saved session ${file} (use --resume to continue it)`);
  const session: ShimSession = {
    id,
    file,
    providerFlag: options.provider,
    model: options.model,
    cwd,
    title: saved?.title ?? '',
    created: saved?.created ?? isoTimestamp(),
    history: saved?.history ?? [],
    usage: saved?.usage ?? { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 },
    providerState: saved?.metadata?.providerState,
    compactionCount: Number(saved?.metadata?.compactionCount) || 0,
    lastCallTokens: Number(saved?.metadata?.lastCallTokens) || 0,
  };
  if (options.historyFile) {
    const seeded = readHistoryFile(options.historyFile);
    if (session.history.length > 0)
      notice(`--history-file ${options.historyFile} replaces the ${session.history.length} saved messages of ${id}`);
    session.history = seeded;
  }
  return session;
}
