// What a claude session already holds when a run resumes it, read from the fake's log (D4): Claude Code 2.1 keeps
// its sessions on disk, and a resumed run's result counts the whole session's calls and cost (`modelUsage`,
// `total_cost_usd`; captures/claude/7-compact.turn3), a `/compact` measures the last call (`pre_tokens`) and names
// the tools used before it, and a session without conversation has nothing to compact (10-compact-empty).
import type { ScriptUsage } from '../script-types.js';
import type { CliLogEntry, SessionNote } from '../state.js';

/** What calls billed: tokens, and the cost summed call by call at list prices, as claude sums it. */
export interface ClaudeBilled {
  input: number;
  output: number;
  cached: number;
  costUsd: number;
}

export interface ClaudeSessionPast {
  /** What the session's calls billed so far. */
  billed: ClaudeBilled;
  /** Input + cache + output tokens of the session's last completed call; undefined: none. */
  lastCallTokens: number | undefined;
  /** Whether the session holds any conversation (a prompt that reached the model). */
  conversation: boolean;
  /** The tools the session's runs used, in the order first used. */
  toolsUsed: string[];
}

export const noBilling = (): ClaudeBilled => ({ input: 0, output: 0, cached: 0, costUsd: 0 });

/** Adds one call (claude-sonnet-4-5 list prices: $3 / $15 per million tokens in / out, $0.30 a cache read). */
export function billCall(
  billed: ClaudeBilled,
  usage: Pick<ScriptUsage, 'input_tokens' | 'output_tokens'> & { cache_read_input_tokens?: number },
): void {
  const cached = usage.cache_read_input_tokens ?? 0;
  billed.input += usage.input_tokens;
  billed.output += usage.output_tokens;
  billed.cached += cached;
  // The order of the operations is claude's: its totals carry the same float rounding (0.0036900000000000006).
  billed.costUsd += (usage.input_tokens / 1e6) * 3 + (usage.output_tokens / 1e6) * 15 + (cached / 1e6) * 0.3;
}

/** The session `sessionId` as the earlier claude runs that served it left it. */
export function claudeSessionPast(log: readonly CliLogEntry[], sessionId: string): ClaudeSessionPast {
  const pids = new Set(
    log
      .filter((entry) => entry.event === 'start' && entry.cli === 'claude' && entry.sessionId === sessionId)
      .map((entry) => entry.pid),
  );
  const past: ClaudeSessionPast = {
    billed: noBilling(),
    lastCallTokens: undefined,
    conversation: false,
    toolsUsed: [],
  };
  for (const entry of log) {
    if (entry.cli !== 'claude' || !pids.has(entry.pid)) continue;
    if (entry.event === 'tool' && !past.toolsUsed.includes(entry.name)) past.toolsUsed.push(entry.name);
    if (entry.event !== 'exit') continue;
    const note: SessionNote = entry;
    // Each run notes the session's running total (its cost summed call by call, from the session's first call).
    if (note.billed) past.billed = { ...note.billed };
    if (note.lastCallTokens !== undefined) past.lastCallTokens = note.lastCallTokens;
    if (note.conversation) past.conversation = true;
  }
  return past;
}
