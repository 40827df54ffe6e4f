// The shapes a turn works with, apart from the code that runs it: the session a process works on, and how a turn
// ended. The turn runner, the /compact turn and persistent mode all read them.
import type { HistoryEntry } from '../session/history.js';
import type { SessionUsage } from '../session/store.js';

export interface ShimSession {
  id: string;
  file: string;
  providerFlag: string;
  model: string;
  cwd: string;
  title: string;
  created: string;
  history: HistoryEntry[];
  usage: SessionUsage;
  providerState?: unknown;
  /** Compactions so far (docs/protocol.md#r21-compaction). */
  compactionCount: number;
  /** The last provider call's input + cache + output tokens (a compaction boundary's `pre_tokens`); 0: unknown. */
  lastCallTokens: number;
}

export interface TurnEnd {
  isError: boolean;
  interrupted: boolean;
}
