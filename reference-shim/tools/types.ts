// What every tool implements. Tools never throw for bad input: they answer with an error outcome, which the
// loop prints as an `is_error` tool_result (R3, R11).

import { YumeError, type YumeErrorOptions } from '../../common/errors.js';
import type { SecretRedactor } from '../output/redact.js';
import type { InterruptSignal } from './interrupt.js';

/** A tool as declared to a model (decision D1: the app's names and input fields). */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12 subset: type, properties, required, items, description, enum). */
  parameters: Record<string, unknown>;
}

export interface ToolContext {
  /** --cwd as given, resolved to an absolute path. */
  cwd: string;
  /** The same directory with symlinks resolved (confinement is checked against both, R11). */
  realCwd: string;
  signal: InterruptSignal;
  redactor: SecretRedactor;
  env: NodeJS.ProcessEnv;
}

export interface ToolOutcome {
  content: string;
  isError: boolean;
}

export interface Tool {
  readonly spec: ToolSpec;
  run(input: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome>;
}

/** Thrown inside a tool for a refusal or bad input; turned into an error outcome by runTool(). */
export class ToolInputError extends YumeError {
  override name = 'ToolInputError';
  constructor(message: string, options?: YumeErrorOptions) {
    super('TOOL_INPUT', message, options);
  }
}

export function ok(content: string): ToolOutcome {
  return { content, isError: false };
}

export function requireString(input: Record<string, unknown>, field: string, { allowEmpty = false } = {}): string {
  const value = input[field];
  if (typeof value !== 'string' || (!allowEmpty && value === '')) {
    throw new ToolInputError(`Missing required field "${field}" (a ${allowEmpty ? '' : 'non-empty '}string).`);
  }
  return value;
}

export function optionalString(input: Record<string, unknown>, field: string): string | undefined {
  const value = input[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ToolInputError(`Field "${field}" must be a string.`);
  return value;
}

export function optionalInteger(input: Record<string, unknown>, field: string, min: number): number | undefined {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < min) {
    throw new ToolInputError(`Field "${field}" must be an integer >= ${min}.`);
  }
  return number;
}
