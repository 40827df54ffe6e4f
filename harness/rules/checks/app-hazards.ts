// app.*: message-level hazards of the real Yume app (yume-app profile; docs/protocol.md,
// "How the app reads a stream").
// Sequence-level ones (0/0 usage) live in sequence.ts with the rules they extend, Bash without command in
// tool-input.ts with the other checks of a tool call's input.
import { type CheckContext, isObject, type Json } from './context.js';

const FILENAME_SAFE = /^[A-Za-z0-9_-]+$/;

export class AppHazardChecks {
  private flatReported = false;

  constructor(private readonly ctx: CheckContext) {}

  /** `flat` is true for lines only the flat dialect has (text, thinking, tool_use, tool_result). */
  onMessage(message: Json, line: number, flat: boolean): void {
    const ctx = this.ctx;
    if (flat && !this.flatReported) {
      this.flatReported = true;
      ctx.report(
        'app.flat-dialect',
        line,
        `flat "${String(message.type)}" line: the app shows flat lines twice in a new tab's first turn`,
      );
    }
    switch (message.type) {
      case 'tool_result':
        if (message.content !== undefined && typeof message.content !== 'string') {
          ctx.report(
            'app.tool-result-string',
            line,
            `tool_result.content is ${describeType(message.content)}, not a string`,
          );
        }
        break;
      case 'user': {
        const body = message.message;
        if (isObject(body) && Array.isArray(body.content)) {
          for (const block of body.content) {
            if (
              isObject(block) &&
              block.type === 'tool_result' &&
              block.content !== undefined &&
              typeof block.content !== 'string'
            ) {
              ctx.report(
                'app.tool-result-string',
                line,
                `tool_result block content is ${describeType(block.content)}, not a string`,
              );
            }
          }
        }
        break;
      }
      case 'error':
        if (typeof message.message !== 'string' && isObject(message.error)) {
          ctx.report('app.nested-error', line, 'error carries a nested `error` object instead of a string `message`');
        }
        break;
      case 'result':
        if (isObject(message.error))
          ctx.report('app.nested-error', line, 'result carries an `error` object instead of a string');
        break;
      case 'system':
        if (
          (message.subtype === 'init' || message.subtype === 'session_id') &&
          typeof message.session_id === 'string' &&
          !FILENAME_SAFE.test(message.session_id)
        ) {
          ctx.report(
            'app.session-id-filename-safe',
            line,
            `session_id ${JSON.stringify(message.session_id.slice(0, 80))} is not filename-safe ([A-Za-z0-9_-]+)`,
          );
        }
        break;
      default:
        break;
    }
  }
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
