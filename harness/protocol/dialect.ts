// Which dialect a line (and a whole stream) speaks (R1). Flat and Claude-native envelopes are stream-json;
// Gemini-CLI-native, Codex-native and Copilot-CLI-native output is recognised so `validate` can say what it saw
// instead of reporting every line as malformed.

/** Another CLI's own output, which is not stream-json. */
export type ForeignDialect = 'gemini-cli-native' | 'codex-native' | 'copilot-cli-native';
/** In the order a tie between their line counts is settled. */
export const FOREIGN_DIALECTS: readonly ForeignDialect[] = ['codex-native', 'gemini-cli-native', 'copilot-cli-native'];

/** What one JSON line looks like. `shared` types (system, result, usage, ...) belong to both stream-json dialects. */
export type LineDialect = 'flat' | 'envelope' | 'shared' | ForeignDialect | 'unknown';

/** The dialect of a whole stream. `mixed` prints flat and envelope lines together. */
export type StreamDialect = 'flat' | 'claude-envelope' | 'mixed' | ForeignDialect | 'unknown';

export function isForeignDialect(dialect: string): dialect is ForeignDialect {
  return (FOREIGN_DIALECTS as readonly string[]).includes(dialect);
}

const FLAT_ONLY = new Set(['text', 'thinking', 'tool_use', 'tool_result']);
const SHARED = new Set(['system', 'result', 'usage', 'error', 'message_stop', 'interrupt', 'stream_event']);
const ENVELOPE = new Set(['assistant', 'user']);
const CODEX_PREFIXES = ['thread.', 'turn.', 'item.'];
/** copilot's JSONL events (`copilot -p ... --output-format json`): dotted names such as `assistant.message_delta`. */
const COPILOT_PREFIXES = ['session.', 'assistant.', 'user.', 'tool.', 'model.', 'agent.', 'permission.', 'subagent.'];

/** Human name of a dialect, for messages. */
export const DIALECT_NAMES: Record<StreamDialect, string> = {
  flat: 'flat stream-json',
  'claude-envelope': 'Claude-native envelopes',
  mixed: 'a mix of flat lines and Claude envelopes',
  'gemini-cli-native': 'Gemini CLI native output (`init`, `message` lines)',
  'codex-native': 'Codex native output (`thread.*`, `turn.*`, `item.*` lines)',
  'copilot-cli-native': 'Copilot CLI native output (`session.*`, `assistant.*`, `tool.execution_*` lines)',
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
  // copilot's last line: a result with its own session id and exit code, no is_error.
  if (type === 'result' && message.is_error === undefined && message.exitCode !== undefined)
    return 'copilot-cli-native';
  if (SHARED.has(type)) return 'shared';
  if (type === 'init' || type === 'message') return 'gemini-cli-native';
  for (const prefix of CODEX_PREFIXES) if (type.startsWith(prefix)) return 'codex-native';
  for (const prefix of COPILOT_PREFIXES) if (type.startsWith(prefix)) return 'copilot-cli-native';
  if (type === 'abort') return 'copilot-cli-native';
  return 'unknown';
}

/** Counts line dialects as a stream is read and decides the stream's dialect at the end. */
export class DialectTally {
  flat = 0;
  envelope = 0;
  shared = 0;
  readonly foreign: Record<ForeignDialect, number> = {
    'codex-native': 0,
    'gemini-cli-native': 0,
    'copilot-cli-native': 0,
  };
  /** Line dialect of the first line that had a string `type`. */
  first: LineDialect | undefined;

  add(dialect: LineDialect): void {
    if (dialect === 'unknown') return;
    this.first ??= dialect;
    if (dialect === 'flat') this.flat += 1;
    else if (dialect === 'envelope') this.envelope += 1;
    else if (dialect === 'shared') this.shared += 1;
    else this.foreign[dialect] += 1;
  }

  /**
   * A stream is foreign when it starts with a foreign line or foreign lines outnumber stream-json ones; a few
   * stray foreign lines inside a stream-json stream are reported per line instead.
   */
  result(): StreamDialect {
    const native = this.flat + this.envelope + this.shared;
    const foreign = FOREIGN_DIALECTS.reduce((sum, dialect) => sum + this.foreign[dialect], 0);
    if (foreign > 0 && ((this.first !== undefined && isForeignDialect(this.first)) || foreign > native)) {
      return FOREIGN_DIALECTS.reduce((best, dialect) => (this.foreign[dialect] > this.foreign[best] ? dialect : best));
    }
    if (this.flat > 0 && this.envelope > 0) return 'mixed';
    if (this.envelope > 0) return 'claude-envelope';
    if (this.flat > 0 || this.shared > 0) return 'flat';
    return 'unknown';
  }
}
