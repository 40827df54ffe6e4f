// Hands out the protocol schemas' validators: compiled by `npm run gen` (generated/validators.js), or, for a
// schema that has none there, compiled here into one ajv instance once and reused.
// The schemas come from generated/schemas.ts (a copy of schemas/*.schema.json made by `npm run gen`), so the
// bundled bins validate without reading files at runtime.

import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { SCHEMAS } from '../../generated/schemas.js';
import { protocolValidators } from '../../generated/validators.js';

/** Base URI of every schema's `$id`; a schema's id is this plus its file name. */
export const SCHEMA_BASE = 'https://yume-conformance.dev/schemas/';

let shared: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();
/** Schemas ajv refused, by file: only validators that need them fail, the stdout checks keep working. */
const rejected = new Map<string, string>();

function createAjv(): Ajv2020 {
  // allErrors stays off: a finding needs the first error only, and stopping early keeps validation fast.
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: false });
  ajv.addKeyword({ keyword: 'x-protocol-version', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-report-version', schemaType: 'string' });
  for (const [file, schema] of Object.entries(SCHEMAS)) {
    try {
      ajv.addSchema(schema as object);
    } catch (error) {
      rejected.set(file, error instanceof Error ? error.message : String(error));
    }
  }
  return ajv;
}

/** The shared ajv instance with every schema of schemas/ registered under its `$id`. */
export function protocolAjv(): Ajv2020 {
  shared ??= createAjv();
  return shared;
}

/** Names of all schema files known to the harness (e.g. `text.schema.json`). */
export function schemaFileNames(): string[] {
  return Object.keys(SCHEMAS).sort();
}

/** The raw schema object of one file, e.g. `schemaOf('result.schema.json')`. */
export function schemaOf(fileName: string): Readonly<Record<string, unknown>> {
  const schema = SCHEMAS[fileName];
  if (!schema) throw new Error(`unknown schema ${fileName}`);
  return schema;
}

/**
 * Validator of one schema file: the one `npm run gen` compiled (generated/validators.js), else compiled here on
 * first use and cached (a schema added without running gen; the generated-files test catches that).
 */
export function validatorFor(fileName: string): ValidateFunction {
  let validate = compiled.get(fileName) ?? protocolValidators[fileName];
  if (!validate) {
    const ajv = protocolAjv();
    const refusal = rejected.get(fileName);
    if (refusal !== undefined) throw new Error(`schemas/${fileName} is not a valid schema: ${refusal}`);
    const found = ajv.getSchema(SCHEMA_BASE + fileName);
    if (!found) throw new Error(`unknown schema ${fileName}`);
    validate = found;
    compiled.set(fileName, validate);
  }
  return validate;
}

/** One readable sentence for the first ajv error, e.g. `/usage/input_tokens must be integer`. */
export function describeSchemaError(errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return 'does not match its schema';
  const where = first.instancePath === '' ? '(message)' : first.instancePath;
  if (first.keyword === 'required')
    return `${where} is missing required field "${String(first.params.missingProperty)}"`;
  if (first.keyword === 'const') return `${where} must be ${JSON.stringify(first.params.allowedValue)}`;
  if (first.keyword === 'enum') return `${where} must be one of ${JSON.stringify(first.params.allowedValues)}`;
  return `${where} ${first.message ?? 'is invalid'}`;
}
