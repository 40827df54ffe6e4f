// The command line of the spec and of the app (R7): `yume-shim start ...` or
// the bare form. Anything unknown or malformed is an ArgumentError, which main.ts turns into R2's
// argument-error path (system subtype:error, an error result, exit 2).
import { parseArgs } from 'node:util';
import { PERMISSION_MODES } from '../agent/permissions.js';
import { isValidSessionId } from '../session/ids.js';
import { DEFAULT_MODELS, KNOWN_PROVIDERS } from '../providers/registry.js';
import type { Dialect } from '../output/emitter.js';
import { messageOf, YumeError, type YumeErrorOptions } from '../../common/errors.js';

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

/**
 * `--prompt -x` would make parseArgs complain that the value looks like an option; a prompt may well start
 * with "-", so a known string flag always takes the next argument as its value.
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

function oneOf(flag: string, value: string | undefined, allowed: readonly string[], fallback: string): string {
  if (value === undefined) return fallback;
  if (!allowed.includes(value))
    throw new ArgumentError(`--${flag} ${value} is not supported; use one of: ${allowed.join(', ')}.`);
  return value;
}

export function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ParsedCommand {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: joinValues(argv),
      strict: true,
      allowPositionals: true,
      options: {
        ...Object.fromEntries(STRING_OPTIONS.map((name) => [name, { type: 'string' as const }])),
        verbose: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
  } catch (error) {
    if (error instanceof ArgumentError) throw error;
    throw new ArgumentError(
      `${messageOf(error).replace(/\. To specify a positional argument.*$/s, '.')} Run yume-shim --help for the flags.`,
      { cause: error },
    );
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const positionals = [...parsed.positionals];
  if (positionals[0] === 'start') positionals.shift();
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
    'flat',
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
