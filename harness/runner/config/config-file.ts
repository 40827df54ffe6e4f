// Loading the user's JSON files (capabilities, invocation template, expected failures): every problem is
// reported with the file, the line, the JSON path and a fix, never a stack trace. Unknown keys are errors
// here (a typo in a config file must not silently change what is verified), although the published schemas
// leave objects open for forward compatibility.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { messageOf, YumeError, type YumeErrorOptions } from '../../../common/errors.js';
import { jsonPointerLines, offsetToLineColumn } from '../../../common/json-locations.js';

/** A capabilities, expected-failures or invocation file that cannot be read or is invalid (code CONFIG_FILE). */
export class ConfigFileError extends YumeError {
  override name = 'ConfigFileError';
  constructor(message: string, options?: YumeErrorOptions) {
    super('CONFIG_FILE', message, options);
  }
}

/** A deep copy of `schema` in which every object with `properties` rejects other keys. */
function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (!schema || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // `examples` hold data, not schemas: leave them alone.
    copy[key] = key === 'examples' ? value : closeObjects(value);
  }
  if (copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

const compiled = new WeakMap<object, ReturnType<Ajv2020['compile']>>();

/** `refs`: other published schemas the schema points at by `$id` (closed the same way). */
function validatorOf(schema: object, refs: readonly object[] = []): ReturnType<Ajv2020['compile']> {
  let validate = compiled.get(schema);
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    for (const ref of refs) ajv.addSchema(closeObjects(ref) as Record<string, unknown>);
    const closed = closeObjects(schema) as Record<string, unknown>;
    // A private, closed copy: never confused with the published schema. It keeps its $id only to resolve its
    // relative references to `refs`, which this private instance holds.
    if (refs.length === 0) delete closed.$id;
    validate = ajv.compile(closed);
    compiled.set(schema, validate);
  }
  return validate;
}

function describe(error: ErrorObject): { pointer: string; message: string; fix: string } {
  const params = error.params as Record<string, unknown>;
  let pointer = error.instancePath;
  switch (error.keyword) {
    case 'additionalProperties':
      pointer = `${pointer}/${String(params.additionalProperty)}`;
      return {
        pointer,
        message: `unknown key "${String(params.additionalProperty)}"`,
        fix: 'remove it or correct its spelling',
      };
    case 'required':
      return {
        pointer,
        message: `missing "${String(params.missingProperty)}"`,
        fix: `add "${String(params.missingProperty)}"`,
      };
    case 'enum':
      return {
        pointer,
        message: error.message ?? 'is not allowed',
        fix: `use one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'propertyNames':
      return {
        pointer,
        message: `has a key that is not allowed (${String(params.propertyName)})`,
        fix: 'use one of the names the schema lists',
      };
    case 'type':
      return { pointer, message: `must be ${String(params.type)}`, fix: `make it a ${String(params.type)}` };
    default:
      return { pointer, message: error.message ?? 'is invalid', fix: 'see the schema' };
  }
}

/**
 * Reads and validates a JSON config file. `what` names the option (e.g. "--capabilities") and `schemaName`
 * the published schema, for messages.
 */
export function loadJsonConfig<T>(file: string, schema: object, what: string, schemaName: string): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigFileError(
      `${what} ${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? messageOf(error)}) — fix: check the path`,
      { cause: error },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\ufeff/, ''));
  } catch (error) {
    const message = messageOf(error);
    const offset = /position (\d+)/.exec(message);
    const line = offset ? `:${offsetToLineColumn(text, Number(offset[1])).line}` : '';
    throw new ConfigFileError(`${what} ${file}${line}: not valid JSON (${message}) — fix: correct the JSON syntax`, {
      cause: error,
    });
  }
  return checkConfigValue<T>(value, { file, text, schema, what, schemaName });
}

export interface ConfigCheck {
  /** Shown in messages. */
  file: string;
  /** The file's text, for line numbers (absent for a value bundled into the package). */
  text?: string;
  schema: object;
  what: string;
  schemaName: string;
  /** Published schemas `schema` refers to by `$id`. */
  refs?: readonly object[];
}

/** Validates a parsed config value; throws ConfigFileError naming file, line, JSON path and a fix. */
export function checkConfigValue<T>(value: unknown, check: ConfigCheck): T {
  const { file, text, schema, what, schemaName } = check;
  const validate = validatorOf(schema, check.refs);
  if (!validate(value)) {
    const lines = text === undefined ? new Map<string, number>() : jsonPointerLines(text);
    // anyOf reports each failed branch plus a summary; the summary alone says nothing a user can act on.
    const errors = (validate.errors ?? []).filter((error) => error.keyword !== 'anyOf');
    const shown = (errors.length > 0 ? errors : (validate.errors ?? [])).slice(0, 5).map((error) => {
      const { pointer, message, fix } = describe(error);
      const line = lines.get(pointer) ?? lines.get(error.instancePath);
      return `${file}${line === undefined ? '' : `:${line}`} ${pointer || '(document)'}: ${message} — fix: ${fix}`;
    });
    throw new ConfigFileError(`${what}: the file does not match ${schemaName}:\n  ${shown.join('\n  ')}`);
  }
  return value as T;
}
