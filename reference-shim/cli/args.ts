// The command line of the spec and of the app (R7): `yume-shim start ...` or
// the bare form. Anything unknown or malformed is an ArgumentError, which main.ts turns into R2's
// argument-error path (system subtype:error, an error result, exit 2).

import { YumeError, type YumeErrorOptions } from '../../common/errors.js';
import { PERMISSION_MODES } from '../agent/permissions.js';
import type { Dialect } from '../output/emitter.js';
import { DEFAULT_MODELS, KNOWN_PROVIDERS } from '../providers/registry.js';
import { isValidSessionId } from '../session/ids.js';

export class ArgumentError extends YumeError {
  override name = 'ArgumentError';
  constructor(message: string, options?: YumeErrorOptions) {
    super('ARGUMENT', message, options);
  }
}

export interface ShimOptions {
  provider: string;
  model: string;
  cwd?: string;
  sessionId?: string;
  prompt?: string;
  resume?: string;
  historyFile?: string;
  persistent: boolean;
  apiBase?: string;
  permissionMode: string;
  protocolVersion?: string;
  dialect: Dialect;
  verbose: boolean;
  maxTurns: number;
}

export type ParsedCommand = { kind: 'help' } | { kind: 'version' } | { kind: 'run'; options: ShimOptions };

const STRING_OPTIONS = [
  'provider',
  'model',
  'cwd',
  'session-id',
  'prompt',
  'resume',
  'history-file',
  'output-format',
  'input-format',
  'api-base',
  'permission-mode',
  'protocol-version',
  'dialect',
  'max-turns',
] as const;
const STRING_OPTION_SET: ReadonlySet<string> = new Set(STRING_OPTIONS);
export const DEFAULT_MAX_TURNS = 50;

const BOOLEAN_OPTIONS: ReadonlySet<string> = new Set(['verbose', 'help', 'version']);
const SHORT_OPTIONS: Readonly<Record<string, string>> = { h: 'help' };

interface ParsedTokens {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/**
 * A known string flag always takes the next argument as its value: a prompt may well start with "-", which a
 * strict option parser (node:util's parseArgs) would take for an option.
 */
function joinValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const token = argv[index]!;
    if (token.startsWith('--') && !token.includes('=') && STRING_OPTION_SET.has(token.slice(2))) {
      if (index + 1 >= argv.length) throw new ArgumentError(`${token} needs a value.`);
      out.push(`${token}=${argv[index + 1]}`);
      index += 1;
    } else {
      out.push(token);
    }
  }
  return out;
}

/**
 * The flags (after joinValues), read the way node:util's strict parseArgs reads them, with the same errors in
 * the same words, by hand: parseArgs costs a one-turn process about a millisecond to load.
 */
function tokenize(argv: readonly string[]): ParsedTokens {
  const values: Record<string, string | boolean | undefined> = {};
  const positionals: string[] = [];
  const unknown = (option: string): ArgumentError =>
    new ArgumentError(`Unknown option '${option}'. Run yume-shim --help for the flags.`);
  for (let index = 0; index < argv.length; index += 1) {
    const token = argv[index]!;
    if (token === '--') {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    if (token.startsWith('--')) {
      // As in parseArgs, `=` only separates a value after a name of at least one character.
      const equals = token.indexOf('=', 3);
      const name = equals === -1 ? token.slice(2) : token.slice(2, equals);
      if (STRING_OPTION_SET.has(name)) {
        if (equals === -1) throw new ArgumentError(`${token} needs a value.`); // joinValues gave it one
        values[name] = token.slice(equals + 1);
      } else if (BOOLEAN_OPTIONS.has(name)) {
        if (equals !== -1) {
          const shown = name === 'help' ? '-h, --help' : `--${name}`;
          throw new ArgumentError(`Option '${shown}' does not take an argument Run yume-shim --help for the flags.`);
        }
        values[name] = true;
      } else {
        throw unknown(equals === -1 ? token : token.slice(0, equals));
      }
    } else if (token.startsWith('-') && token.length > 1) {
      // A group of short flags (`-h`); only boolean ones exist.
      for (const letter of token.slice(1)) {
        const name = SHORT_OPTIONS[letter];
        if (!name) throw unknown(`-${letter}`);
        values[name] = true;
      }
    } else {
      positionals.push(token);
    }
  }
  return { values, positionals };
}

function oneOf(flag: string, value: string | undefined, allowed: readonly string[], fallback: string): string {
  if (value === undefined) return fallback;
  if (!allowed.includes(value))
    throw new ArgumentError(`--${flag} ${value} is not supported; use one of: ${allowed.join(', ')}.`);
  return value;
}

/**
 * R1a: started the way the app starts Claude Code (no `start`, `--output-format stream-json --verbose`), the
 * shim prints Claude envelopes, which the app shows once (it shows flat lines twice in a new tab's first
 * turn); any other command line, the spec's `start ...` above all, gets the flat dialect.
 */
function defaultDialect(specForm: boolean, outputFormat: string | undefined, verbose: boolean): Dialect {
  return !specForm && outputFormat === 'stream-json' && verbose ? 'claude' : 'flat';
}

export function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ParsedCommand {
  const parsed = tokenize(joinValues(argv));
  const values = parsed.values;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const positionals = [...parsed.positionals];
  const specForm = positionals[0] === 'start';
  if (specForm) positionals.shift();
  if (positionals.length > 0) {
    throw new ArgumentError(`Unexpected argument ${JSON.stringify(positionals[0])}; the prompt goes in --prompt.`);
  }
  const text = (name: string): string | undefined => values[name] as string | undefined;

  const provider = text('provider');
  if (!provider) throw new ArgumentError(`--provider is required (one of ${KNOWN_PROVIDERS.join(', ')}).`);
  if (!KNOWN_PROVIDERS.includes(provider)) {
    throw new ArgumentError(`--provider ${provider} is not supported; use one of: ${KNOWN_PROVIDERS.join(', ')}.`);
  }
  oneOf('output-format', text('output-format'), ['stream-json'], 'stream-json');
  const inputFormat = oneOf('input-format', text('input-format'), ['text', 'stream-json'], 'text');
  const dialectValue = text('dialect') ?? (env.YUME_SHIM_DIALECT || undefined);
  const dialect = oneOf(
    text('dialect') ? 'dialect' : 'dialect (from YUME_SHIM_DIALECT)',
    dialectValue,
    ['flat', 'claude'],
    defaultDialect(specForm, text('output-format'), values.verbose === true),
  ) as Dialect;
  const permissionMode = oneOf('permission-mode', text('permission-mode'), PERMISSION_MODES, 'default');
  for (const flag of ['session-id', 'resume'] as const) {
    const id = text(flag);
    if (id !== undefined && !isValidSessionId(id)) {
      throw new ArgumentError(
        `--${flag} ${JSON.stringify(id)} is not a valid session id: use 1-128 characters from A-Z, a-z, 0-9, "_" and "-".`,
      );
    }
  }
  const maxTurnsText = text('max-turns');
  const maxTurns = maxTurnsText === undefined ? DEFAULT_MAX_TURNS : Number(maxTurnsText);
  if (!Number.isInteger(maxTurns) || maxTurns < 1)
    throw new ArgumentError(`--max-turns ${maxTurnsText} must be a positive integer.`);
  const model = text('model') || DEFAULT_MODELS[provider]!;
  const apiBase = text('api-base');
  if (apiBase !== undefined && !/^https?:\/\/[^\s]+$/.test(apiBase)) {
    throw new ArgumentError(`--api-base ${apiBase} is not an http(s) URL.`);
  }

  return {
    kind: 'run',
    options: {
      provider,
      model,
      cwd: text('cwd'),
      sessionId: text('session-id'),
      prompt: text('prompt'),
      resume: text('resume'),
      historyFile: text('history-file'),
      persistent: inputFormat === 'stream-json',
      apiBase,
      permissionMode,
      protocolVersion: text('protocol-version'),
      dialect,
      verbose: values.verbose === true,
      maxTurns,
    },
  };
}
