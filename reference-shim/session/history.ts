// The conversation as the shim keeps it: in memory, in session files (R8) and as sent to providers.
// `content` of user/assistant entries is plain text because the app's session loader reads it that way
// (R8); provider-specific extras (signatures) ride along in optional fields.

export interface ToolCallRecord {
  /** The id printed on stdout; unique within the session (R3). */
  id: string;
  /** The provider's own id when it differs from `id`; sent back with the tool result. */
  wireId?: string;
  name: string;
  input: Record<string, unknown>;
  /** Arguments text that was not valid JSON (R3): kept so the provider sees what it sent. */
  rawArguments?: string;
  /** Gemini `thoughtSignature` of the functionCall part, sent back unchanged. */
  signature?: string;
}

export interface ThinkingRecord {
  text: string;
  /** Anthropic thinking `signature` (must be replayed with tool use). */
  signature?: string;
  /** Anthropic `redacted_thinking` data. */
  redacted?: string;
}

export interface UserEntry {
  role: 'user';
  content: string;
}

export interface AssistantEntry {
  role: 'assistant';
  content: string;
  thinking?: ThinkingRecord[];
  toolCalls?: ToolCallRecord[];
  /** Gemini `thoughtSignature` carried by a text part. */
  textSignature?: string;
  /** Which provider produced the extras above; other providers ignore them. */
  provider?: string;
}

export interface ToolEntry {
  role: 'tool';
  toolCallId: string;
  /** The provider's id for the call when it differs (see ToolCallRecord.wireId). */
  wireId?: string;
  name: string;
  content: string;
  isError?: boolean;
}

export type HistoryEntry = UserEntry | AssistantEntry | ToolEntry;

/** Token counts of one provider call or of a whole turn. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheCreationTokens?: number;
}
