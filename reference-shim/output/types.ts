// Shapes of the lines the shim prints, taken from the types generated from schemas/ (generated/protocol.ts),
// so a schema change that the shim does not follow fails `tsc`. Lines are built without `uuid`, which the
// writer adds to every line.
import type {
  AssistantMessage,
  ErrorMessage,
  InterruptMessage,
  MessageStopMessage,
  ResultMessage,
  SystemCompactBoundaryMessage,
  SystemErrorMessage,
  SystemInitMessage,
  SystemOtherMessage,
  TextMessage,
  ThinkingMessage,
  TokenUsage,
  ToolResultMessage,
  ToolUseMessage,
  UsageFlatMessage,
  UserMessage,
} from '../../generated/protocol.js';

/** Token counts as printed in `usage` lines and `result.usage` (R4: integers 0..2^32-1). */
export type UsageFields = Pick<
  TokenUsage,
  'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'
>;
/** result.usage: the turn's totals, `estimated: true` when counted by the shim. */
export type ResultUsage = UsageFields & Pick<TokenUsage, 'estimated'>;

// Every generated message type has an optional `uuid`; the writer fills it in.
type Line<T> = T;
export type InitLine = Line<SystemInitMessage>;
export type SystemErrorLine = Line<SystemErrorMessage>;
export type SystemOtherLine = Line<SystemOtherMessage>;
export type CompactBoundaryLine = Line<SystemCompactBoundaryMessage>;
export type TextLine = Line<TextMessage>;
export type ThinkingLine = Line<ThinkingMessage>;
export type ToolUseLine = Line<ToolUseMessage>;
export type ToolResultLine = Line<ToolResultMessage>;
export type UsageLine = Line<UsageFlatMessage>;
export type ResultLine = Line<ResultMessage>;
export type ErrorLine = Line<ErrorMessage>;
export type InterruptLine = Line<InterruptMessage>;
export type MessageStopLine = Line<MessageStopMessage>;
export type AssistantLine = Line<AssistantMessage>;
export type UserLine = Line<UserMessage>;
