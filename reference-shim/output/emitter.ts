// Turns what happens in a turn into stdout lines, in one of the two dialects of R1:
//   flat   — `text`, `thinking`, `tool_use`, `tool_result` lines (docs/protocol.md "Stream format"), the default;
//   claude — `assistant` / `user` envelopes with content blocks, as the claude CLI prints them.
// Lines common to both (`system`, `usage`, `result`, `error`, `interrupt`, `message_stop`) are identical.
// Callers are responsible for ordering (agent/turn-runner.ts); the emitter only decides the shapes.

import type {
  AssistantLine,
  CompactBoundaryLine,
  ErrorLine,
  InitLine,
  InterruptLine,
  MessageStopLine,
  ResultLine,
  ResultUsage,
  SystemErrorLine,
  SystemOtherLine,
  TextLine,
  ThinkingLine,
  ToolResultLine,
  ToolUseLine,
  UsageFields,
  UsageLine,
  UserLine,
} from './types.js';
import type { LineWriter } from './writer.js';

export type Dialect = 'flat' | 'claude';

export interface InitInfo {
  sessionId: string;
  model: string;
  cwd: string;
  permissionMode: string;
  tools: string[];
  protocolVersion?: string;
}

export interface ToolUseInfo {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ToolResultInfo {
  toolUseId: string;
  content: string;
  isError: boolean;
}

export interface ResultInfo {
  isError: boolean;
  subtype: string;
  durationMs: number;
  durationApiMs: number;
  numTurns: number;
  text?: string;
  usage?: ResultUsage;
  totalCostUsd?: number;
  errors?: string[];
}

export interface Emitter {
  readonly dialect: Dialect;
  init(info: InitInfo): void;
  /** A model call started: the claude dialect groups its blocks under one message id. */
  beginModelMessage(): void;
  text(delta: string): void;
  thinking(delta: string): void;
  /** A model call finished (or failed): anything coalesced is printed now. */
  endModelMessage(): void;
  toolUse(call: ToolUseInfo): void;
  toolResult(result: ToolResultInfo): void;
  usage(usage: UsageFields): void;
  /** A `system` line with a subtype other than init/error (e.g. `api_retry`, allowed by R2). */
  systemNotice(subtype: string, fields: Record<string, unknown>): void;
  /** The session was compacted (docs/protocol.md#r21-compaction): by `/compact` (manual) or on the shim's own (auto). */
  compactBoundary(trigger: 'manual' | 'auto', preTokens: number): void;
  systemError(message: string): void;
  error(message: string, code?: string): void;
  interrupt(): void;
  result(info: ResultInfo): void;
  messageStop(): void;
  flush(): Promise<void>;
  /** How many `result` lines were printed (lets the interrupt watchdog know whether a turn ended). */
  readonly resultsPrinted: number;
}

interface EmitterOptions {
  sessionId: () => string;
  model: string;
  /** Claude dialect: how long streamed text may wait before it is printed (the first chunk never waits). */
  coalesceMs?: number;
}

abstract class BaseEmitter implements Emitter {
  abstract readonly dialect: Dialect;
  resultsPrinted = 0;

  constructor(
    protected readonly writer: LineWriter,
    protected readonly options: EmitterOptions,
  ) {}

  init(info: InitInfo): void {
    this.writer.write({
      type: 'system',
      subtype: 'init',
      session_id: info.sessionId,
      model: info.model,
      cwd: info.cwd,
      permissionMode: info.permissionMode,
      tools: info.tools,
      ...(info.protocolVersion ? { protocol_version: info.protocolVersion } : {}),
    } satisfies InitLine);
  }

  abstract beginModelMessage(): void;
  abstract text(delta: string): void;
  abstract thinking(delta: string): void;
  abstract endModelMessage(): void;
  abstract toolUse(call: ToolUseInfo): void;
  abstract toolResult(result: ToolResultInfo): void;

  usage(usage: UsageFields): void {
    this.endModelMessage();
    this.writer.write({ type: 'usage', ...usage } satisfies UsageLine);
  }

  systemNotice(subtype: string, fields: Record<string, unknown>): void {
    this.writer.write({
      type: 'system',
      subtype,
      ...fields,
      session_id: this.options.sessionId(),
    } satisfies SystemOtherLine);
  }

  compactBoundary(trigger: 'manual' | 'auto', preTokens: number): void {
    this.endModelMessage();
    this.writer.write({
      type: 'system',
      subtype: 'compact_boundary',
      session_id: this.options.sessionId(),
      compact_metadata: { trigger, pre_tokens: preTokens },
    } satisfies CompactBoundaryLine);
  }

  systemError(message: string): void {
    this.endModelMessage();
    this.writer.write({
      type: 'system',
      subtype: 'error',
      message,
      session_id: this.options.sessionId(),
    } satisfies SystemErrorLine);
  }

  error(message: string, code?: string): void {
    this.endModelMessage();
    this.writer.write({ type: 'error', message, ...(code ? { code } : {}) } satisfies ErrorLine);
  }

  interrupt(): void {
    this.endModelMessage();
    this.writer.write({ type: 'interrupt' } satisfies InterruptLine);
  }

  result(info: ResultInfo): void {
    this.endModelMessage();
    this.resultsPrinted += 1;
    this.writer.write({
      type: 'result',
      subtype: info.subtype,
      is_error: info.isError,
      session_id: this.options.sessionId(),
      duration_ms: Math.max(0, Math.round(info.durationMs)),
      duration_api_ms: Math.max(0, Math.round(info.durationApiMs)),
      num_turns: info.numTurns,
      ...(info.text !== undefined ? { result: info.text } : {}),
      ...(info.usage ? { usage: info.usage } : {}),
      ...(info.totalCostUsd !== undefined ? { total_cost_usd: info.totalCostUsd } : {}),
      ...(info.errors && info.errors.length > 0 ? { errors: info.errors } : {}),
    } satisfies ResultLine);
  }

  messageStop(): void {
    this.writer.write({ type: 'message_stop' } satisfies MessageStopLine);
  }

  flush(): Promise<void> {
    this.endModelMessage();
    return this.writer.flush();
  }
}

/** Longest text chunk printed as one line: the app's parsers buffer about 100 KB per line (R9). */
export const MAX_TEXT_CHUNK = 32_000;

/** Splits text into pieces of at most `size` UTF-16 units without cutting a surrogate pair. */
export function splitText(text: string, size = MAX_TEXT_CHUNK): string[] {
  if (text.length <= size) return [text];
  const pieces: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/** Flat dialect: every delta is its own line, printed the moment it arrives. */
export class FlatEmitter extends BaseEmitter {
  readonly dialect = 'flat' as const;

  beginModelMessage(): void {}
  endModelMessage(): void {}

  text(delta: string): void {
    if (!delta) return;
    for (const piece of splitText(delta)) this.writer.write({ type: 'text', content: piece } satisfies TextLine);
  }

  thinking(delta: string): void {
    if (!delta) return;
    for (const piece of splitText(delta))
      this.writer.write({ type: 'thinking', is_thinking: true, thought: piece } satisfies ThinkingLine);
  }

  toolUse(call: ToolUseInfo): void {
    this.writer.write({ type: 'tool_use', id: call.id, name: call.name, input: call.input } satisfies ToolUseLine);
  }

  toolResult(result: ToolResultInfo): void {
    this.writer.write({
      type: 'tool_result',
      tool_use_id: result.toolUseId,
      content: result.content,
      is_error: result.isError,
    } satisfies ToolResultLine);
  }
}

let messageCounter = 0;
function newMessageId(): string {
  messageCounter += 1;
  return `msg_${Date.now().toString(36)}_${messageCounter}`;
}

/**
 * Claude dialect. The app turns every `assistant` envelope into a separate chat entry, so text is
 * coalesced: the first chunk of a stretch is printed at once (the UI and the harness both wait for it),
 * later chunks are gathered and printed together after `coalesceMs` or when the stretch ends.
 */
export class ClaudeEmitter extends BaseEmitter {
  readonly dialect = 'claude' as const;
  private messageId = newMessageId();
  private pendingText = '';
  private pendingThinking = '';
  private textStretchStarted = false;
  private timer: NodeJS.Timeout | undefined;

  beginModelMessage(): void {
    this.endModelMessage();
    this.messageId = newMessageId();
  }

  endModelMessage(): void {
    this.flushThinking();
    this.flushText();
    this.textStretchStarted = false;
  }

  text(delta: string): void {
    if (!delta) return;
    this.flushThinking();
    if (!this.textStretchStarted) {
      this.textStretchStarted = true;
      for (const piece of splitText(delta)) this.envelope('assistant', [{ type: 'text', text: piece }]);
      return;
    }
    this.pendingText += delta;
    this.timer ??= setTimeout(() => this.flushText(), this.options.coalesceMs ?? 250);
  }

  thinking(delta: string): void {
    if (!delta) return;
    this.flushText();
    this.textStretchStarted = false;
    this.pendingThinking += delta;
  }

  toolUse(call: ToolUseInfo): void {
    this.endModelMessage();
    this.envelope('assistant', [{ type: 'tool_use', id: call.id, name: call.name, input: call.input }]);
  }

  toolResult(result: ToolResultInfo): void {
    this.endModelMessage();
    this.envelope('user', [
      { type: 'tool_result', tool_use_id: result.toolUseId, content: result.content, is_error: result.isError },
    ]);
  }

  private flushText(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pendingText) return;
    const text = this.pendingText;
    this.pendingText = '';
    for (const piece of splitText(text)) this.envelope('assistant', [{ type: 'text', text: piece }]);
  }

  private flushThinking(): void {
    if (!this.pendingThinking) return;
    const thinking = this.pendingThinking;
    this.pendingThinking = '';
    for (const piece of splitText(thinking))
      this.envelope('assistant', [{ type: 'thinking', thinking: piece, signature: '' }]);
  }

  private envelope(role: 'assistant', content: AssistantLine['message']['content']): void;
  private envelope(role: 'user', content: UserLine['message']['content']): void;
  private envelope(
    role: 'assistant' | 'user',
    content: AssistantLine['message']['content'] | UserLine['message']['content'],
  ): void {
    const common = { parent_tool_use_id: null, session_id: this.options.sessionId() };
    if (role === 'assistant') {
      this.writer.write({
        type: 'assistant',
        message: {
          id: this.messageId,
          type: 'message',
          role: 'assistant',
          model: this.options.model,
          content: content as AssistantLine['message']['content'],
          stop_reason: null,
          stop_sequence: null,
        },
        ...common,
      } satisfies AssistantLine);
    } else {
      this.writer.write({
        type: 'user',
        message: { role: 'user', content: content as UserLine['message']['content'] },
        ...common,
      } satisfies UserLine);
    }
  }
}

export function createEmitter(dialect: Dialect, writer: LineWriter, options: EmitterOptions): Emitter {
  return dialect === 'claude' ? new ClaudeEmitter(writer, options) : new FlatEmitter(writer, options);
}
