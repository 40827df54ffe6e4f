// schema.*: each message against the schema of its own type. Dispatching on `type` (and `subtype` / the usage
// form) to one compiled validator keeps this fast and the error precise, instead of running the whole union.
import type { ValidateFunction } from 'ajv';
import { describeSchemaError, validatorFor } from '../../protocol/schemas.js';
import { type CheckContext, isObject, type Json } from './context.js';

const BY_TYPE: Record<string, string> = {
  text: 'text.schema.json',
  thinking: 'thinking.schema.json',
  tool_use: 'tool-use.schema.json',
  tool_result: 'tool-result.schema.json',
  result: 'result.schema.json',
  message_stop: 'message-stop.schema.json',
  error: 'error.schema.json',
  interrupt: 'interrupt.schema.json',
  stream_event: 'stream-event.schema.json',
  assistant: 'assistant.schema.json',
  user: 'user.schema.json',
};
const SYSTEM_BY_SUBTYPE: Record<string, string> = {
  init: 'system-init.schema.json',
  session_id: 'system-session-id.schema.json',
  compact_boundary: 'system-compact-boundary.schema.json',
  error: 'system-error.schema.json',
};
const KNOWN_BLOCKS: Record<string, ReadonlySet<string>> = {
  assistant: new Set(['text', 'thinking', 'tool_use']),
  user: new Set(['text', 'tool_result']),
};

/** Schema file for a message, or undefined for a type the protocol does not define. */
export function schemaFileFor(message: Json): string | undefined {
  const type = message.type as string;
  if (type === 'system') {
    const subtype = message.subtype;
    return (
      (typeof subtype === 'string' && Object.hasOwn(SYSTEM_BY_SUBTYPE, subtype)
        ? SYSTEM_BY_SUBTYPE[subtype]
        : undefined) ?? 'system-other.schema.json'
    );
  }
  if (type === 'usage') return isObject(message.usage) ? 'usage-nested.schema.json' : 'usage-flat.schema.json';
  return Object.hasOwn(BY_TYPE, type) ? BY_TYPE[type] : undefined;
}

const validators = new Map<string, ValidateFunction>();
function validator(file: string): ValidateFunction {
  let v = validators.get(file);
  if (!v) {
    v = validatorFor(file);
    validators.set(file, v);
  }
  return v;
}

/** A non-object `input` of a tool call is reported by tool.input-object (sequence checks), not twice. */
const TOOL_INPUT_PATH = /^(?:\/input|\/message\/content\/\d+\/input)$/;

/**
 * Envelope blocks of an unknown type are a SHOULD (the app drops them), not a schema failure: report them and
 * validate the envelope without them. Allocates only when such a block exists.
 */
function withoutUnknownBlocks(message: Json, line: number, ctx: CheckContext): Json {
  const known = KNOWN_BLOCKS[message.type as string];
  const body = message.message;
  if (!known || !isObject(body) || !Array.isArray(body.content)) return message;
  const blocks = body.content as unknown[];
  let unknownFound = false;
  for (const block of blocks) {
    if (isObject(block) && typeof block.type === 'string' && !known.has(block.type)) {
      unknownFound = true;
      ctx.report(
        'schema.unknown-block',
        line,
        `${String(message.type)} envelope has a content block of unknown type "${block.type}"`,
      );
    }
  }
  if (!unknownFound) return message;
  const content = blocks.filter((b) => !(isObject(b) && typeof b.type === 'string' && !known.has(b.type)));
  return { ...message, message: { ...body, content } };
}

/** Checks one message (an object with a string `type`) against its schema. */
export function checkMessageSchema(message: Json, line: number, ctx: CheckContext): void {
  const file = schemaFileFor(message);
  if (file === undefined) {
    ctx.report('schema.unknown-type', line, `unknown message type "${String(message.type)}"`);
    return;
  }
  const validate = validator(file);
  // A plain boolean: ajv's type guard would narrow `message` to never below.
  const valid: boolean = validate(message);
  if (valid) return;
  const target =
    message.type === 'assistant' || message.type === 'user' ? withoutUnknownBlocks(message, line, ctx) : message;
  if (target !== message && validate(target)) return;
  const errors = validate.errors;
  const first = errors?.[0];
  if (first && first.keyword === 'type' && TOOL_INPUT_PATH.test(first.instancePath)) return;
  ctx.report(
    'schema.message',
    line,
    `${String(message.type)} message does not match ${file}: ${describeSchemaError(errors)}`,
  );
}
