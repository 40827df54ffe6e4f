// Which dialect a line (and a whole stream) speaks (R1). Flat and Claude-native envelopes are stream-json;
// Gemini-CLI-native and Codex-native output is recognised so `validate` can say what it saw instead of
// reporting every line as malformed.

/** What one JSON line looks like. `shared` types (system, result, usage, ...) belong to both stream-json dialects. */
export type LineDialect = 'flat' | 'envelope' | 'shared' | 'gemini-cli-native' | 'codex-native' | 'unknown';

/** The dialect of a whole stream. `mixed` prints flat and envelope lines together. */
export type StreamDialect = 'flat' | 'claude-envelope' | 'mixed' | 'gemini-cli-native' | 'codex-native' | 'unknown';

const FLAT_ONLY = new Set(['text', 'thinking', 'tool_use', 'tool_result']);
const SHARED = new Set(['system', 'result', 'usage', 'error', 'message_stop', 'interrupt', 'stream_event']);
const ENVELOPE = new Set(['assistant', 'user']);
const CODEX_PREFIXES = ['thread.', 'turn.', 'item.'];

/** Human name of a dialect, for messages. */
export const DIALECT_NAMES: Record<StreamDialect, string> = {
  flat: 'flat stream-json',
  'claude-envelope': 'Claude-native envelopes',
  mixed: 'a mix of flat lines and Claude envelopes',
  'gemini-cli-native': 'Gemini CLI native output (`init`, `message` lines)',
  'codex-native': 'Codex native output (`thread.*`, `turn.*`, `item.*` lines)',
  unknown: 'no recognisable messages',
};

/** Classifies one parsed line by its `type` and, for types several dialects share, by its fields. */
export function lineDialect(message: Record<string, unknown>): LineDialect {
  const type = message.type;
  if (typeof type !== 'string') return 'unknown';
  if (FLAT_ONLY.has(type)) {
    // Gemini CLI prints tool_use/tool_result too, keyed by tool_name/tool_id instead of name/id/tool_use_id.
    if (type === 'tool_use' && message.name === undefined && message.tool_name !== undefined)
      return 'gemini-cli-native';
    if (type === 'tool_result' && message.tool_use_id === undefined && message.tool_id !== undefined)
      return 'gemini-cli-native';
    return 'flat';
  }
  if (ENVELOPE.has(type)) return 'envelope';
  if (
    type === 'result' &&
    message.is_error === undefined &&
    (message.stats !== undefined || message.status !== undefined)
  ) {
    return 'gemini-cli-native';
  }
  if (SHARED.has(type)) return 'shared';
  if (type === 'init' || type === 'message') return 'gemini-cli-native';
  for (const prefix of CODEX_PREFIXES) if (type.startsWith(prefix)) return 'codex-native';
  return 'unknown';
}

/** Counts line dialects as a stream is read and decides the stream's dialect at the end. */
export class DialectTally {
  flat = 0;
  envelope = 0;
  shared = 0;
  gemini = 0;
  codex = 0;
  /** Line dialect of the first line that had a string `type`. */
  first: LineDialect | undefined;

  add(dialect: LineDialect): void {
    if (dialect === 'unknown') return;
    this.first ??= dialect;
    if (dialect === 'flat') this.flat += 1;
    else if (dialect === 'envelope') this.envelope += 1;
    else if (dialect === 'shared') this.shared += 1;
    else if (dialect === 'gemini-cli-native') this.gemini += 1;
    else this.codex += 1;
  }

  /**
   * A stream is foreign when it starts with a foreign line or foreign lines outnumber stream-json ones; a few
   * stray foreign lines inside a stream-json stream are reported per line instead.
   */
  result(): StreamDialect {
    const native = this.flat + this.envelope + this.shared;
    const foreign = this.gemini + this.codex;
    if (foreign > 0 && (this.first === 'gemini-cli-native' || this.first === 'codex-native' || foreign > native)) {
      return this.codex >= this.gemini ? 'codex-native' : 'gemini-cli-native';
    }
    if (this.flat > 0 && this.envelope > 0) return 'mixed';
    if (this.envelope > 0) return 'claude-envelope';
    if (this.flat > 0 || this.shared > 0) return 'flat';
    return 'unknown';
  }
}
