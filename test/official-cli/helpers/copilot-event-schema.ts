// copilot's own event schema (the part checked in as harness/official-cli/pinned/copilot-session-events.schema.json)
// as a validator, for its captured events and for the fake's. Its `result` line is not in that schema: it is
// checked here against the shape the captures show.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';

const SCHEMA = path.resolve(
  import.meta.dirname,
  '../../../harness/official-cli/pinned/copilot-session-events.schema.json',
);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let validator: ValidateFunction | undefined;

function sessionEventValidator(): ValidateFunction {
  if (validator) return validator;
  // copilot's schema annotates with its own keywords (visibility, stability) and a numeric `duration` format.
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addFormat('uuid', UUID);
  ajv.addFormat('date-time', DATE_TIME);
  ajv.addFormat('duration', { type: 'number', validate: (value: number) => value >= 0 });
  validator = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
  return validator;
}

/** The problems of one stdout line of copilot, or [] when its schema (or, for `result`, its shape) accepts it. */
export function copilotEventProblems(event: Record<string, unknown>): string[] {
  if (event.type === 'result') {
    const problems: string[] = [];
    if (typeof event.sessionId !== 'string' || !UUID.test(event.sessionId))
      problems.push('result.sessionId is no UUID');
    if (!Number.isInteger(event.exitCode)) problems.push('result.exitCode is no integer');
    if (typeof event.usage !== 'object' || event.usage === null) problems.push('result.usage is missing');
    return problems;
  }
  const validate = sessionEventValidator();
  if (validate(event)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}
